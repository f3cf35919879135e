/**
 * `GET /api/me/saved/ids?internships=`: the ids of the caller's saved listings (at most 500), which pages and islands
 * mark saved cards with, so public lists stay the same for everyone, and when the caller applied here to the
 * internships the page shows (`internships`, at most 100), which cards show as "Applied on …"; its `apiDocs` below are its description (docs/api.md, Student space; docs/decisions.md, Student
 * space; docs/decisions.md, Applications, "Applying").
 */
import { z } from "zod";
import { define } from "@/lib/platform/define.ts";
import { assertSignedIn } from "@/lib/http/guards.ts";
import { queryOf, validate } from "@/lib/http/json.ts";
import { describeRoute } from "@/lib/openapi/describe.ts";
import { savedIds } from "@/lib/saved/saved.ts";
import { SavedIdsQuerySchema } from "@/lib/saved/schema.ts";
import { appliedOn } from "@/lib/applications/applications.ts";

export const apiDocs = describeRoute({
  section: "Student space",
  GET: {
    summary: "The ids of your saved items, and when you applied here",
    description: "`applied` answers for the internships named in `internships` only (the cards a page shows): a " +
      "request without it, as clients made before it was asked for, has `applied` empty.",
    access: ["session"],
    query: SavedIdsQuerySchema,
    responses: {
      200: {
        description: "Ids by kind; `applied` maps those of the `internships` asked about you applied to here to " +
          "when you applied",
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
    const { internships } = validate(SavedIdsQuerySchema, queryOf(ctx.url));
    const userId = ctx.state.user.id;
    const [saved, applied] = await Promise.all([savedIds(kv, userId), appliedOn(kv, userId, internships)]);
    return Response.json({ ...saved, applied });
  },
});
