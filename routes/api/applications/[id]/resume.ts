/**
 * `GET /api/applications/{id}/resume` (the applicant, the internship's poster, an admin): the resume as it was sent
 * with the application, served privately (docs/api.md, Applications; docs/decisions.md, Applications, "Resumes").
 */
import { define } from "@/lib/platform/define.ts";
import { assertSignedIn } from "@/lib/http/guards.ts";
import { describeRoute } from "@/lib/openapi/describe.ts";
import { applicationResume, NOT_FOUND } from "@/lib/applications/applications.ts";
import { pdfResponse } from "@/lib/http/private_files.ts";

export const apiDocs = describeRoute({
  section: "Applications",
  GET: {
    summary: "The resume sent with an application",
    description: "For its applicant, the internship's poster and admins; not the poster once an admin rejected the " +
      "listing or it was deleted (it carries the contact details a move would show). Served with `Cache-Control: private, no-store` " +
      "and `X-Content-Type-Options: nosniff`.",
    access: ["session"],
    responses: {
      200: { description: "The PDF", mediaType: "application/pdf" },
      404:
        `${NOT_FOUND}: unknown, not yours to see (a poster's, once an admin rejected the listing or it was deleted, or the applicant withdrew), or no resume kept`,
    },
  },
});

export const handler = define.handlers({
  async GET(_req, ctx) {
    assertSignedIn(ctx.state);
    const { kv, files } = ctx.state.services;
    const { name, file } = await applicationResume(kv, files, { id: ctx.params.id, viewer: ctx.state.user });
    return pdfResponse(file, name);
  },
});
