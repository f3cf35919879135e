/**
 * `GET` and `POST /api/me/alerts`: the caller's search alerts; its `apiDocs` below are its description (docs/api.md,
 * Alerts; docs/decisions.md, Alerts).
 */
import { z } from "zod";
import { define } from "@/lib/platform/define.ts";
import { assertSignedIn } from "@/lib/http/guards.ts";
import { readBody } from "@/lib/http/json.ts";
import { BUSY, describeRoute } from "@/lib/openapi/describe.ts";
import { AlertSchema } from "@/lib/openapi/resources.ts";
import { AlertCreateSchema, createAlert, listAlerts, MAX_ALERTS, TOO_MANY_ALERTS } from "@/lib/alerts/alerts.ts";
import type { RouteOptions } from "@/lib/platform/route_options.ts";

/** Writes fall under the per-person limit `alerts` (docs/decisions.md, Errors and limits, "Per-person limits"). */
export const routeOptions: RouteOptions = { personLimit: "alerts" };

export const apiDocs = describeRoute({
  section: "Alerts",
  GET: {
    summary: "Your alerts",
    access: ["session"],
    responses: { 200: { description: "Newest first", schema: z.strictObject({ alerts: z.array(AlertSchema) }) } },
  },
  POST: {
    summary: "Create an alert",
    description: "`query` holds the list's filters in its query-string form (internships: `types`, `tags` " +
      "comma-separated, `location`, `search`, `minStipend`, `maxStipend`, `verifiedOnly`, `paidOnly`; " +
      "opportunities: `type` comma-separated, " +
      `\`search\`), checked as the list checks them. \`frequency\` \`daily\` (default) or \`weekly\`. At most ` +
      `${MAX_ALERTS} alerts.`,
    access: ["session"],
    body: AlertCreateSchema,
    responses: {
      201: { description: "Created", schema: z.strictObject({ alert: AlertSchema }) },
      400: `A bad kind, frequency or filter (the zod issue list), or ${TOO_MANY_ALERTS.toLowerCase()}`,
      503: BUSY,
    },
  },
});

export const handler = define.handlers({
  async GET(_req, ctx) {
    assertSignedIn(ctx.state);
    return Response.json({ alerts: await listAlerts(ctx.state.services.kv, ctx.state.user.id) });
  },

  async POST(req, ctx) {
    assertSignedIn(ctx.state);
    const input = await readBody(req, AlertCreateSchema);
    const alert = await createAlert(ctx.state.services.kv, { userId: ctx.state.user.id, input });
    return Response.json({ alert }, { status: 201 });
  },
});
