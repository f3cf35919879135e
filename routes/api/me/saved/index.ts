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
    description: `Newest change (\`updatedAt\`) first, each with its listing; \`kind\` and \`status\` narrow the ` +
      `list (empty: all). At most ${MAX_SAVED} items.`,
    access: ["session"],
    query: SavedQuerySchema,
    responses: { 200: { description: "The items", schema: z.strictObject({ items: z.array(SavedItemSchema) }) } },
  },
});

export const handler = define.handlers({
  async GET(_req, ctx) {
    assertSignedIn(ctx.state);
    const query = validate(SavedQuerySchema, queryOf(ctx.url));
    return Response.json({ items: await listSaved(ctx.state.services.kv, ctx.state.user.id, query) });
  },
});
