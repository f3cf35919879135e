/**
 * `GET /api/me/saved`: the caller's saved items; its `apiDocs` below are its description (docs/api.md, Student space;
 * docs/decisions.md, Student space).
 */
import { z } from "zod";
import { define } from "@/lib/platform/define.ts";
import { assertSignedIn } from "@/lib/http/guards.ts";
import { queryOf, validate } from "@/lib/http/json.ts";
import { describeRoute } from "@/lib/openapi/describe.ts";
import { MAX_SAVED } from "@/lib/saved/schema.ts";
import { SavedItemSchema } from "@/lib/openapi/resources.ts";
import { listSaved, SavedQuerySchema } from "@/lib/saved/saved.ts";

export const apiDocs = describeRoute({
  section: "Student space",
  GET: {
    summary: "Your saved items",
    description: `Newest change (\`updatedAt\`) first, then by kind and id, each with its listing; \`kind\` and ` +
      `\`status\` narrow the list (empty: all). A person keeps at most ${MAX_SAVED} items, so the default page ` +
      `(\`limit\` ${MAX_SAVED}) holds them all; a smaller \`limit\` pages, \`cursor\` being the previous page's ` +
      "`nextCursor`.",
    access: ["session"],
    query: SavedQuerySchema,
    responses: {
      200: {
        description: "A page of items",
        schema: z.strictObject({
          items: z.array(SavedItemSchema),
          nextCursor: z.string().nullable().describe("Reads the next page; null on the last"),
        }),
      },
    },
  },
});

export const handler = define.handlers({
  async GET(_req, ctx) {
    assertSignedIn(ctx.state);
    const query = validate(SavedQuerySchema, queryOf(ctx.url));
    return Response.json(await listSaved(ctx.state.services.kv, ctx.state.user.id, query));
  },
});
