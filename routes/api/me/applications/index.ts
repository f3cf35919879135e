/**
 * `GET /api/me/applications?status=` (session) → `{applications}`: the caller's applications, newest first, each with
 * its internship (docs/api.md, Applications).
 */
import { z } from "zod";
import { define } from "@/lib/platform/define.ts";
import { assertSignedIn } from "@/lib/http/guards.ts";
import { queryOf, validate } from "@/lib/http/json.ts";
import { describeRoute } from "@/lib/openapi/describe.ts";
import { MyApplicationSchema } from "@/lib/openapi/applications.ts";
import { myApplications, MyApplicationsQuerySchema } from "@/lib/applications/applications.ts";

export const apiDocs = describeRoute({
  section: "Applications",
  GET: {
    summary: "Your applications",
    description: "Newest first; `status` narrows them. Each carries its internship as the public reads it (null " +
      "once deleted or hidden), `appliedTerms`, its stipend, deadline, location and questions when you applied " +
      "(null for an application made before they were kept), and the messages the organization sent, in `history`.",
    access: ["session"],
    query: MyApplicationsQuerySchema,
    responses: {
      200: { description: "The applications", schema: z.strictObject({ applications: z.array(MyApplicationSchema) }) },
    },
  },
});

export const handler = define.handlers({
  async GET(_req, ctx) {
    assertSignedIn(ctx.state);
    const { status } = validate(MyApplicationsQuerySchema, queryOf(ctx.url));
    const applications = await myApplications(ctx.state.services.kv, { userId: ctx.state.user.id, status });
    return Response.json({ applications });
  },
});
