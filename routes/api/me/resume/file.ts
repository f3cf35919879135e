/**
 * `GET /api/me/resume/file` (session): the caller's resume itself, served privately (docs/api.md, Applications;
 * docs/decisions.md, Applications, "Resumes").
 */
import { define } from "@/lib/platform/define.ts";
import { assertSignedIn } from "@/lib/http/guards.ts";
import { describeRoute } from "@/lib/openapi/describe.ts";
import { NO_RESUME, resumeFile } from "@/lib/resumes/resumes.ts";
import { pdfResponse } from "@/lib/http/private_files.ts";

export const apiDocs = describeRoute({
  section: "Applications",
  GET: {
    summary: "Your resume's PDF",
    description: "Served with `Cache-Control: private, no-store` and `X-Content-Type-Options: nosniff`.",
    access: ["session"],
    responses: { 200: { description: "The PDF", mediaType: "application/pdf" }, 404: NO_RESUME },
  },
});

export const handler = define.handlers({
  async GET(_req, ctx) {
    assertSignedIn(ctx.state);
    const { kv, files } = ctx.state.services;
    const { resume, file } = await resumeFile(kv, files, ctx.state.user.id);
    return pdfResponse(file, resume.name);
  },
});
