/**
 * `POST /api/me/applications/{id}/stipend-report` (session) `{paid: "yes"|"partly"|"no"}` → `{application}`: a hired
 * intern says whether the stipend was paid as listed, from 30 days after hiring; one per application, changeable
 * (docs/api.md, Applications; docs/decisions.md, Applications, "Stipend reports").
 */
import { z } from "zod";
import { define } from "@/lib/platform/define.ts";
import { assertSignedIn } from "@/lib/http/guards.ts";
import { readBody } from "@/lib/http/json.ts";
import { describeRoute } from "@/lib/openapi/describe.ts";
import { ApplicationSchema } from "@/lib/openapi/applications.ts";
import { NOT_FOUND, reportStipend, StipendReportSchema } from "@/lib/applications/applications.ts";
import { STIPEND_TOO_EARLY } from "@/lib/applications/policy.ts";
import type { RouteOptions } from "@/lib/platform/route_options.ts";

/** Writes fall under the per-person limit `applications`. */
export const routeOptions: RouteOptions = { personLimit: "applications" };

export const apiDocs = describeRoute({
  section: "Applications",
  POST: {
    summary: "Report whether the stipend was paid as listed",
    description: "For a `hired` application at least 30 days after hiring; sending again changes the answer.",
    access: ["session"],
    body: StipendReportSchema,
    responses: {
      200: { description: "The application", schema: z.strictObject({ application: ApplicationSchema }) },
      400: `${STIPEND_TOO_EARLY}, or a bad field`,
      404: `${NOT_FOUND}: unknown, or another person's`,
      503: "Busy: the application changed too often at once; nothing was written, try again after `Retry-After`",
    },
  },
});

export const handler = define.handlers({
  async POST(req, ctx) {
    assertSignedIn(ctx.state);
    const { paid } = await readBody(req, StipendReportSchema);
    const application = await reportStipend(ctx.state.services.kv, {
      id: ctx.params.id,
      userId: ctx.state.user.id,
      paid,
    });
    return Response.json({ application });
  },
});
