/**
 * `POST /profile/resume`: the profile's resume forms without JavaScript (docs/decisions.md, Applications, "Resumes"):
 * a multipart post with the PDF in `file` uploads or replaces the resume, one with `intent=delete` deletes it; each
 * answers 303 to `/profile?resume={outcome}#resume` (`saved`, `deleted`, `missing`, `notPdf`, `tooLarge`), where the
 * outcome shows beside the file field. Guests are sent to
 * sign in.
 */
import { define } from "@/lib/platform/define.ts";
import { assertSignedIn } from "@/lib/http/guards.ts";
import { readForm, seeOther } from "@/lib/http/form_posts.ts";
import { InvalidInputError } from "@/lib/errors.ts";
import { deleteResume, RESUME_TOO_LARGE, uploadResume } from "@/lib/resumes/resumes.ts";
import type { ResumeOutcome } from "@/lib/browser/application_format.ts";
import { type RouteOptions, UPLOAD_BODY_LIMIT_BYTES } from "@/lib/platform/route_options.ts";

/**
 * Uploads take the platform's upload body limit, and a body over it is refused as a resume over its own limit (the
 * refusal page words it), not as the body's size; writes fall under the per-person limit `resume`.
 */
export const routeOptions: RouteOptions = {
  bodyLimitBytes: UPLOAD_BODY_LIMIT_BYTES,
  bodyLimitRefusal: RESUME_TOO_LARGE,
  personLimit: "resume",
};

/** The redirect back to the profile's resume section with `outcome`. */
const back = (outcome: ResumeOutcome) => seeOther(`/profile?resume=${outcome}#resume`);

export const handler = define.handlers({
  async POST(req, ctx) {
    assertSignedIn(ctx.state);
    const { kv, files } = ctx.state.services;
    const form = await readForm(req);
    if (form.get("intent") === "delete") {
      await deleteResume(kv, files, ctx.state.user.id);
      return back("deleted");
    }
    const file = form.get("file");
    if (!(file instanceof File) || file.size === 0) return back("missing");
    try {
      await uploadResume(kv, files, {
        userId: ctx.state.user.id,
        name: file.name,
        bytes: new Uint8Array(await file.arrayBuffer()),
      });
    } catch (error) {
      if (error instanceof InvalidInputError) return back(error.message === RESUME_TOO_LARGE ? "tooLarge" : "notPdf");
      throw error;
    }
    return back("saved");
  },
});
