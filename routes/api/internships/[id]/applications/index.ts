/**
 * `POST /api/internships/{id}/applications` (session, verified e-mail, a resume uploaded) `{answers?, coverNote?}` →
 * 201 `{application}`: applies to a `platform` internship (docs/api.md, Applications; docs/decisions.md, Applications,
 * "Applying").
 */
import { z } from "zod";
import { define } from "@/lib/platform/define.ts";
import { assertSignedIn } from "@/lib/http/guards.ts";
import { readBody } from "@/lib/http/json.ts";
import { describeRoute } from "@/lib/openapi/describe.ts";
import { ApplicationSchema } from "@/lib/openapi/applications.ts";
import {
  ALREADY_APPLIED,
  ANSWER_REQUIRED,
  ApplyBodySchema,
  applyTo,
  CLOSED,
  NO_RESUME_YET,
  TAKES_LINK,
  UNKNOWN_QUESTION,
} from "@/lib/applications/applications.ts";
import type { RouteOptions } from "@/lib/platform/route_options.ts";

/** Writes fall under the per-person limit `applications`. */
export const routeOptions: RouteOptions = { personLimit: "applications" };

export const apiDocs = describeRoute({
  section: "Applications",
  POST: {
    summary: "Apply to an internship that takes applications here",
    description: "Needs a verified e-mail and an uploaded resume, which is copied into the application. `answers`: " +
      "one per screening question (`answer` at most 1,000 characters), every required one; `coverNote` at most 2,000 " +
      "characters. One application per person and internship, also under concurrent requests. The applicant's " +
      "tracker item of the internship becomes `applied` (made when missing).",
    access: ["session"],
    body: ApplyBodySchema,
    responses: {
      201: { description: "The application", schema: z.strictObject({ application: ApplicationSchema }) },
      400: `${TAKES_LINK}; ${CLOSED}; ${NO_RESUME_YET}; ${ANSWER_REQUIRED}; ${UNKNOWN_QUESTION}; or a bad field`,
      403: "An unverified e-mail, or one's own internship",
      404: "An unknown internship, or one the public may not read",
      409: ALREADY_APPLIED,
    },
  },
});

export const handler = define.handlers({
  async POST(req, ctx) {
    assertSignedIn(ctx.state);
    const body = await readBody(req, ApplyBodySchema);
    const application = await applyTo(ctx.state.services.kv, {
      internshipId: ctx.params.id,
      applicant: ctx.state.user,
      body,
    });
    return Response.json({ application }, { status: 201 });
  },
});
