/**
 * `GET /api/internships/{id}/applications/export?status=&search=` (docs/api.md, Applications): the poster's list of
 * one tab and search, every page, as a CSV attachment (docs/decisions.md, Applications, "The applicants as a
 * spreadsheet"); the applicants page links to it.
 */
import { define } from "@/lib/platform/define.ts";
import { assertSignedIn } from "@/lib/http/guards.ts";
import { queryOf, validate } from "@/lib/http/json.ts";
import { describeRoute } from "@/lib/openapi/describe.ts";
import { LISTING_DELETED, LISTING_TAKEN_DOWN, PipelineExportQuerySchema } from "@/lib/applications/applications.ts";
import { applicantsCsv } from "@/lib/applications/csv_export.ts";

export const apiDocs = describeRoute({
  section: "Applications",
  GET: {
    summary: "The applications of your internship as a spreadsheet",
    description: "For the internship's poster, as `GET /api/internships/{id}/applications` with the same `status` " +
      "and `search`, every page: a UTF-8 CSV with a byte order mark and a header row in the reader's language; one " +
      "row per application with when it was sent, its status, the applicant (e-mail and phone empty until " +
      "shortlisted), the cover note, one column per screening question as it reads now, the answers to questions " +
      "since changed, a link to the resume, the answer-by day and the last change (times in IST, " +
      "`YYYY-MM-DD HH:mm`). A cell that a spreadsheet would run as a formula starts with `'`. Served as an " +
      "attachment with `Cache-Control: private, no-store`.",
    access: ["session"],
    query: PipelineExportQuerySchema,
    responses: {
      200: { description: "The CSV file", mediaType: "text/csv" },
      403: `${LISTING_TAKEN_DOWN}; ${LISTING_DELETED} (for anyone but an admin)`,
      404: "An unknown internship, or one you do not post",
    },
  },
});

export const handler = define.handlers({
  async GET(_req, ctx) {
    assertSignedIn(ctx.state);
    const { status, search } = validate(PipelineExportQuerySchema, queryOf(ctx.url));
    const { services, t } = ctx.state;
    const file = await applicantsCsv(services.kv, {
      internshipId: ctx.params.id,
      actor: ctx.state.user,
      status,
      search,
      t,
      appUrl: services.config.appUrl,
    });
    return new Response(file.body, {
      headers: {
        "content-type": "text/csv; charset=utf-8",
        "cache-control": "private, no-store",
        "x-content-type-options": "nosniff",
        "content-disposition": `attachment; filename="${file.filename}"`,
      },
    });
  },
});
