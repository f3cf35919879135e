/**
 * `POST /api/reports`: report a listing, an organization, a post or a comment; its `apiDocs` below are its description
 * (docs/api.md, Trust; docs/decisions.md, Trust, "Reports").
 */
import { define } from "@/lib/platform/define.ts";
import { assertSignedIn } from "@/lib/http/guards.ts";
import { readBody } from "@/lib/http/json.ts";
import { checkReport, createReport, ReportCreateSchema } from "@/lib/reports/reports.ts";
import { HOLD_REASONS, HOLD_REPORTERS } from "@/lib/reports/schema.ts";
import { RATE_LIMITS } from "@/lib/platform/rate_limits.ts";
import { describeRoute, perWindow } from "@/lib/openapi/describe.ts";
import { ReportSchema } from "@/lib/openapi/resources.ts";
import { z } from "zod";

export const apiDocs = describeRoute({
  section: "Trust",
  POST: {
    summary: "Report a listing, an organization, a post or a comment",
    description: "For a verified e-mail. One open report per person and target: a second one answers the first. " +
      "`id` is an organization's id, not its slug; `details` is required for `other`. Reports of " +
      `${[...HOLD_REASONS].map((reason) => `\`${reason}\``).join(" or ")} by ${HOLD_REPORTERS} different people ` +
      "filed since an admin's last decision on a listing hold it for moderation.",
    access: ["session"],
    body: ReportCreateSchema,
    responses: {
      201: { description: "Reported", schema: z.strictObject({ report: ReportSchema }) },
      200: {
        description: "Reported before and still open: the first report",
        schema: z.strictObject({ report: ReportSchema }),
      },
      403: "The account's e-mail is not verified",
      404: "Unknown target (or one the caller cannot see)",
      429: `More than ${perWindow(RATE_LIMITS.reportsPerPerson)} per person`,
      503: "Busy: too many reports of this at once; nothing was written, try again after `Retry-After`",
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
