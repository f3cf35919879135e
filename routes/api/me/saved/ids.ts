/**
 * `GET /api/me/saved/ids`: the ids of the caller's saved listings, which pages and islands mark saved cards with, so
 * public lists stay the same for everyone, and when the caller applied to internships here, which cards show as
 * "Applied on …"; its `apiDocs` below are its description (docs/api.md, Student space; docs/decisions.md, Student
 * space; docs/decisions.md, Applications, "Applying").
 */
import { z } from "zod";
import { define } from "@/lib/platform/define.ts";
import { assertSignedIn } from "@/lib/http/guards.ts";
import { describeRoute } from "@/lib/openapi/describe.ts";
import { savedIds } from "@/lib/saved/saved.ts";
import { appliedOn } from "@/lib/applications/applications.ts";

export const apiDocs = describeRoute({
  section: "Student space",
  GET: {
    summary: "The ids of your saved items, and when you applied here",
    access: ["session"],
    responses: {
      200: {
        description: "Ids by kind; `applied` maps the ids of internships you applied to here to when you applied",
        schema: z.strictObject({
          internships: z.array(z.string()),
          opportunities: z.array(z.string()),
          applied: z.record(z.string(), z.string().describe("ISO 8601")),
        }),
      },
    },
  },
});

export const handler = define.handlers({
  async GET(_req, ctx) {
    assertSignedIn(ctx.state);
    const { kv } = ctx.state.services;
    const [saved, applied] = await Promise.all([savedIds(kv, ctx.state.user.id), appliedOn(kv, ctx.state.user.id)]);
    return Response.json({ ...saved, applied });
  },
});
