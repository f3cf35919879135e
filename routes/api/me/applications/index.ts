/**
 * `GET /api/me/applications?status=&limit=&cursor=` (session) → `{applications, nextCursor}`: a page of the caller's
 * applications, newest first, each with its internship (docs/api.md, Applications).
 */
import { z } from "zod";
import { define } from "@/lib/platform/define.ts";
import { assertSignedIn } from "@/lib/http/guards.ts";
import { queryOf, validate } from "@/lib/http/json.ts";
import { describeRoute } from "@/lib/openapi/describe.ts";
import { MyApplicationSchema } from "@/lib/openapi/applications.ts";
import { mineCursorOf, myApplications, MyApplicationsQuerySchema } from "@/lib/applications/applications.ts";

export const apiDocs = describeRoute({
  section: "Applications",
  GET: {
    summary: "Your applications",
    description: "Newest first (then by id), a page of `limit` (default 20); `cursor`, the previous page's " +
      "`nextCursor`, reads on after it (a client that read every application in one answer now reads the newest " +
      "20 and follows `nextCursor`); `status` narrows them. Each carries its internship as the public reads it (null " +
      "once deleted or hidden), `appliedTerms`, its title, organization, stipend, deadline, location, work type and " +
      "questions when you applied (null for an application made before they were kept; its title and organization " +
      "null and its work type absent when made before those were), and the messages the organization sent, in " +
      "`history`.",
    access: ["session"],
    query: MyApplicationsQuerySchema,
    responses: {
      200: {
        description: "A page of applications",
        schema: z.strictObject({
          applications: z.array(MyApplicationSchema),
          nextCursor: z.string().nullable().describe("Reads the next page; null on the last"),
        }),
      },
    },
  },
});

export const handler = define.handlers({
  async GET(_req, ctx) {
    assertSignedIn(ctx.state);
    const { status, limit, cursor } = validate(MyApplicationsQuerySchema, queryOf(ctx.url));
    const page = await myApplications(ctx.state.services.kv, {
      userId: ctx.state.user.id,
      status,
      limit,
      after: cursor,
    });
    const last = page.applications.at(-1);
    return Response.json({
      applications: page.applications,
      nextCursor: page.next && last ? mineCursorOf(last) : null,
    });
  },
});
