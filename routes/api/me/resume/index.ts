/**
 * `PUT /api/me/resume` (session; multipart, the PDF in the field `file`, at most 2 MB) → `{resume}`; `GET` → `{resume}`
 * or 404; `DELETE` → `{success: true}`. docs/api.md, Applications; docs/decisions.md, Applications, "Resumes".
 */
import { z } from "zod";
import { define } from "@/lib/platform/define.ts";
import { assertSignedIn } from "@/lib/http/guards.ts";
import { readForm } from "@/lib/http/form_posts.ts";
import { InvalidInputError, NotFoundError } from "@/lib/errors.ts";
import { describeRoute } from "@/lib/openapi/describe.ts";
import { SuccessSchema } from "@/lib/openapi/resources.ts";
import { ResumeSchema } from "@/lib/openapi/applications.ts";
import {
  deleteResume,
  getResume,
  NO_RESUME,
  RESUME_MISSING,
  RESUME_NOT_PDF,
  RESUME_TOO_LARGE,
  uploadResume,
} from "@/lib/resumes/resumes.ts";
import { type RouteOptions, UPLOAD_BODY_LIMIT_BYTES } from "@/lib/platform/route_options.ts";

/**
 * Uploads take the platform's upload body limit, and a body over it is refused as a resume over its own limit (the form
 * says 2 MB), not as the body's size; writes fall under the per-person limit `resume`.
 */
export const routeOptions: RouteOptions = {
  bodyLimitBytes: UPLOAD_BODY_LIMIT_BYTES,
  bodyLimitRefusal: RESUME_TOO_LARGE,
  personLimit: "resume",
};

const ResumeAnswer = z.strictObject({ resume: ResumeSchema });

export const apiDocs = describeRoute({
  section: "Applications",
  GET: {
    summary: "Your resume",
    access: ["session"],
    responses: { 200: { description: "The resume", schema: ResumeAnswer }, 404: NO_RESUME },
  },
  PUT: {
    summary: "Upload or replace your resume (a PDF of at most 2 MB)",
    description: "The file is recognised by its bytes, whatever its name or declared type. Applications you made " +
      "keep the copy they were sent with.",
    access: ["session"],
    rawBody: { mediaType: "multipart/form-data", description: "The PDF in the field `file`." },
    responses: {
      200: { description: "The resume", schema: ResumeAnswer },
      400: `"${RESUME_NOT_PDF}", "${RESUME_TOO_LARGE}", or with no file in the field file "${RESUME_MISSING}"`,
      413: `A body over the upload limit of 5 MB, refused as "${RESUME_TOO_LARGE}"`,
    },
  },
  DELETE: {
    summary: "Delete your resume",
    description: "Also when there was none. Applications you made keep the copy they were sent with.",
    access: ["session"],
    responses: { 200: { description: "Deleted", schema: SuccessSchema } },
  },
});

export const handler = define.handlers({
  async GET(_req, ctx) {
    assertSignedIn(ctx.state);
    const resume = await getResume(ctx.state.services.kv, ctx.state.user.id);
    if (!resume) throw new NotFoundError(NO_RESUME);
    return Response.json({ resume });
  },

  async PUT(req, ctx) {
    assertSignedIn(ctx.state);
    const file = (await readForm(req)).get("file");
    if (!(file instanceof File)) {
      throw new InvalidInputError(RESUME_MISSING, [{ field: "file", message: `${RESUME_MISSING}.` }]);
    }
    const { kv, files } = ctx.state.services;
    const resume = await uploadResume(kv, files, {
      userId: ctx.state.user.id,
      name: file.name,
      bytes: new Uint8Array(await file.arrayBuffer()),
    });
    return Response.json({ resume });
  },

  async DELETE(_req, ctx) {
    assertSignedIn(ctx.state);
    const { kv, files } = ctx.state.services;
    await deleteResume(kv, files, ctx.state.user.id);
    return Response.json({ success: true });
  },
});
