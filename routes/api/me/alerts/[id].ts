/**
 * `PATCH` and `DELETE /api/me/alerts/{id}`: change or delete one of the caller's alerts; its `apiDocs` below are its
 * description (docs/api.md, Alerts; docs/decisions.md, Alerts).
 */
import { z } from "zod";
import { define } from "@/lib/platform/define.ts";
import { assertSignedIn } from "@/lib/http/guards.ts";
import { readBody } from "@/lib/http/json.ts";
import { BUSY, describeRoute } from "@/lib/openapi/describe.ts";
import { AlertSchema, SuccessSchema } from "@/lib/openapi/resources.ts";
import { AlertPatchSchema, deleteAlert, updateAlert } from "@/lib/alerts/alerts.ts";
import type { RouteOptions } from "@/lib/platform/route_options.ts";

/** Writes fall under the per-person limit `alerts` (docs/decisions.md, Errors and limits, "Per-person limits"). */
export const routeOptions: RouteOptions = { personLimit: "alerts" };

export const apiDocs = describeRoute({
  section: "Alerts",
  PATCH: {
    summary: "Change an alert",
    description: "Pause or resume it (`isActive`), change its `frequency` or its filters (`query`, as on create). " +
      "Absent fields keep their value.",
    access: ["session"],
    body: AlertPatchSchema,
    responses: {
      200: { description: "The alert", schema: z.strictObject({ alert: AlertSchema }) },
      400: "A bad field (the zod issue list)",
      404: "Not one of your alerts",
      503: BUSY,
    },
  },
  DELETE: {
    summary: "Delete an alert",
    access: ["session"],
    responses: {
      200: { description: "Deleted", schema: SuccessSchema },
      404: "Not one of your alerts",
      503: BUSY,
    },
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
