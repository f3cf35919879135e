/**
 * `/api/internships/{id}/applications` (docs/api.md, Applications): `POST` (session, verified e-mail, a resume
 * uploaded) `{answers?, coverNote?}` → 201 `{application}` applies to a `platform` internship (docs/decisions.md,
 * Applications, "Applying"); `GET` → `{applications, counts, pagination}` is the poster's list (docs/decisions.md,
 * Applications, "The poster's list").
 */
import { z } from "zod";
import { define } from "@/lib/platform/define.ts";
import { assertSignedIn } from "@/lib/http/guards.ts";
import { queryOf, readBody, validate } from "@/lib/http/json.ts";
import { describeRoute } from "@/lib/openapi/describe.ts";
import { ApplicationSchema, PosterApplicationSchema, StatusCountsSchema } from "@/lib/openapi/applications.ts";
import { PaginationSchema } from "@/lib/openapi/resources.ts";
import {
  ALREADY_APPLIED,
  ANSWER_REQUIRED,
  ApplyBodySchema,
  applyTo,
  CLOSED,
  CLOSED_MEANWHILE,
  NO_RESUME_YET,
  PipelineQuerySchema,
  posterApplications,
  TAKES_LINK,
  UNKNOWN_QUESTION,
} from "@/lib/applications/applications.ts";
import type { RouteOptions } from "@/lib/platform/route_options.ts";

/** Writes fall under the per-person limit `applications`. */
export const routeOptions: RouteOptions = { personLimit: "applications" };

export const apiDocs = describeRoute({
  section: "Applications",
  GET: {
    summary: "The applications of your internship",
    description: "For the internship's poster: its owner, a manager of its verified organization, or an admin. " +
      "`counts` per status; one page of `status` (every status, in course order, when absent), oldest first, " +
      "narrowed by the words of `search` over the applicant's name, college, role and field; `pagination.total` is " +
      "how many match. The applicant's `email` and `contactNumber` are null until the application was shortlisted. " +
      "A withdrawn application keeps its applicant's `name` and its history: its answers, cover note, resume and " +
      "the applicant's picture, college, role, field, interests and contact are empty, and `search` finds it by " +
      "name only. Your own application, if you sent one, is left out of the list and the counts.",
    access: ["session"],
    query: PipelineQuerySchema,
    responses: {
      200: {
        description: "The page and the counts",
        schema: z.strictObject({
          applications: z.array(PosterApplicationSchema),
          counts: StatusCountsSchema,
          pagination: PaginationSchema.describe("`total`: the applications matching status and search"),
        }),
      },
      404: "An unknown internship, or one you do not post",
    },
  },
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
      400: `${TAKES_LINK}; ${CLOSED}; ${NO_RESUME_YET}; ${ANSWER_REQUIRED} or ${UNKNOWN_QUESTION}, with ` +
        "`fields` `answers.{questionId}` (`messageKey` `fields.answerQuestion`, `fields.questionNotAsked`); or a bad field",
      403: "An unverified e-mail, or one's own internship",
      404: "An unknown internship, or one the public may not read",
      409: `${ALREADY_APPLIED}; ${CLOSED_MEANWHILE} (closed, deleted or taken down after the request read it open)`,
      503: "Busy: too many applications at once; nothing was written, try again after `Retry-After`",
    },
  },
});

export const handler = define.handlers({
  async GET(_req, ctx) {
    assertSignedIn(ctx.state);
    const query = validate(PipelineQuerySchema, queryOf(ctx.url));
    return Response.json(
      await posterApplications(ctx.state.services.kv, { internshipId: ctx.params.id, actor: ctx.state.user, query }),
    );
  },
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
