/**
 * `POST /api/me/applications/{id}/withdraw` (session) → `{application}`: the caller withdraws their application, only
 * from `applied` or `shortlisted` (docs/api.md, Applications; docs/decisions.md, Applications, "Status changes").
 */
import { z } from "zod";
import { define } from "@/lib/platform/define.ts";
import { assertSignedIn } from "@/lib/http/guards.ts";
import { describeRoute } from "@/lib/openapi/describe.ts";
import { ApplicationSchema } from "@/lib/openapi/applications.ts";
import { FINAL, INVALID_CHANGE, NOT_FOUND, withdraw } from "@/lib/applications/applications.ts";
import type { RouteOptions } from "@/lib/platform/route_options.ts";

/** Writes fall under the per-person limit `applications`. */
export const routeOptions: RouteOptions = { personLimit: "applications" };

export const apiDocs = describeRoute({
  section: "Applications",
  POST: {
    summary: "Withdraw your application",
    description: "Only from `applied` or `shortlisted`.",
    access: ["session"],
    responses: {
      200: { description: "The application, withdrawn", schema: z.strictObject({ application: ApplicationSchema }) },
      400: `${INVALID_CHANGE} (from interview or offer); ${FINAL}`,
      404: `${NOT_FOUND}: unknown, or another person's`,
      503: "Busy: the application changed too often at once; nothing was written, try again after `Retry-After`",
    },
  },
});

export const handler = define.handlers({
  async POST(_req, ctx) {
    assertSignedIn(ctx.state);
    const application = await withdraw(ctx.state.services.kv, { id: ctx.params.id, userId: ctx.state.user.id });
    return Response.json({ application });
  },
});
