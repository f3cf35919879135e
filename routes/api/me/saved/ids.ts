/**
 * `GET /api/me/saved/ids`: the ids of the caller's saved listings, which pages and islands mark saved cards with, so
 * public lists stay the same for everyone; its `apiDocs` below are its description (docs/api.md, Student space;
 * docs/decisions.md, Student space).
 */
import { z } from "zod";
import { define } from "@/lib/platform/define.ts";
import { assertSignedIn } from "@/lib/http/guards.ts";
import { describeRoute } from "@/lib/openapi/describe.ts";
import { savedIds } from "@/lib/saved/saved.ts";

export const apiDocs = describeRoute({
  section: "Student space",
  GET: {
    summary: "The ids of your saved items",
    access: ["session"],
    responses: {
      200: {
        description: "Ids by kind",
        schema: z.strictObject({ internships: z.array(z.string()), opportunities: z.array(z.string()) }),
      },
    },
  },
});

export const handler = define.handlers({
  async GET(_req, ctx) {
    assertSignedIn(ctx.state);
    return Response.json(await savedIds(ctx.state.services.kv, ctx.state.user.id));
  },
});
