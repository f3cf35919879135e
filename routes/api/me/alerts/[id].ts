/**
 * `PATCH /api/me/alerts/{id}` `{query?, frequency?, isActive?}` → `{alert}` and `DELETE` → `{success: true}`
 * (session); another person's or an unknown id: 404 (docs/api.md, Alerts; docs/decisions.md, Alerts).
 */
import { z } from "zod";
import { define } from "@/lib/platform/define.ts";
import { assertSignedIn } from "@/lib/http/guards.ts";
import { readBody } from "@/lib/http/json.ts";
import { describeRoute } from "@/lib/openapi/describe.ts";
import { AlertSchema, SuccessSchema } from "@/lib/openapi/resources.ts";
import { AlertPatchSchema, deleteAlert, updateAlert } from "@/lib/alerts/alerts.ts";
import type { RouteOptions } from "@/lib/platform/route_options.ts";

/** Writes fall under the per-person limit `alerts` (docs/decisions.md, Errors and limits, "Per-person limits"). */
export const routeOptions: RouteOptions = { personLimit: "alerts" };

export const apiDocs = describeRoute({
  PATCH: {
    summary: "Change an alert",
    description: "Pause or resume it (`isActive`), change its `frequency` or its filters (`query`, as on create).",
    access: ["session"],
    body: AlertPatchSchema,
    responses: {
      200: { description: "The alert", schema: z.strictObject({ alert: AlertSchema }) },
      400: "Bad field",
      404: "Not one of your alerts",
    },
  },
  DELETE: {
    summary: "Delete an alert",
    access: ["session"],
    responses: { 200: { description: "Deleted", schema: SuccessSchema }, 404: "Not one of your alerts" },
  },
});

export const handler = define.handlers({
  async PATCH(req, ctx) {
    assertSignedIn(ctx.state);
    const patch = await readBody(req, AlertPatchSchema);
    const alert = await updateAlert(ctx.state.services.kv, { userId: ctx.state.user.id, id: ctx.params.id, patch });
    return Response.json({ alert });
  },

  async DELETE(_req, ctx) {
    assertSignedIn(ctx.state);
    await deleteAlert(ctx.state.services.kv, ctx.state.user.id, ctx.params.id);
    return Response.json({ success: true });
  },
});
