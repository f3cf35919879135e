/**
 * `POST /api/reports` (a session with a verified e-mail) `{kind, id, reason, details?}` → 201 `{report}`; a second
 * report of a target while the first is open → 200 with the first; an unknown target 404; `details` plain text of at
 * most 1,000 characters, required for `other` (400); the 21st report of a day 429. Three different people's reports of
 * `asks_for_money` or `fake_or_impersonation` hold a listing. docs/api.md, Trust; docs/decisions.md, Trust, "Reports".
 */
import { define } from "@/lib/platform/define.ts";
import { assertSignedIn } from "@/lib/http/guards.ts";
import { readBody } from "@/lib/http/json.ts";
import { checkReport, createReport, ReportCreateSchema } from "@/lib/reports/reports.ts";
import { RATE_LIMITS } from "@/lib/platform/rate_limits.ts";
import { describeRoute } from "@/lib/openapi/describe.ts";
import { ReportSchema } from "@/lib/openapi/resources.ts";
import { z } from "zod";

export const apiDocs = describeRoute({
  POST: {
    summary: "Report a listing, an organization, a post or a comment",
    description: "One open report per person and target; at most 20 reports a day. `id` is an organization's id, " +
      "not its slug.",
    access: ["session"],
    body: ReportCreateSchema,
    responses: {
      201: { description: "Reported", schema: z.strictObject({ report: ReportSchema }) },
      200: {
        description: "Reported before and still open: the first report",
        schema: z.strictObject({ report: ReportSchema }),
      },
      403: "The account's e-mail is not verified",
      404: "Unknown target",
      429: "More than 20 reports in a day",
    },
  },
});

export const handler = define.handlers({
  async POST(req, ctx) {
    assertSignedIn(ctx.state);
    const body = await readBody(req, ReportCreateSchema);
    const { services, user } = ctx.state;
    const check = await checkReport(services.kv, user, body);
    if ("open" in check) return Response.json({ report: check.open });
    await services.rateLimits.hit(RATE_LIMITS.reportsPerPerson, user.id);
    const { report, created } = await createReport(services.kv, user, body, check.target);
    return Response.json({ report }, { status: created ? 201 : 200 });
  },
});
