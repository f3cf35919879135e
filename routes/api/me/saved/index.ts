/**
 * `GET /api/me/saved?kind=&status=` (session): the caller's saved items, newest `updatedAt` first, each with its
 * listing (docs/api.md, Student space; docs/decisions.md, Student space).
 */
import { z } from "zod";
import { define } from "@/lib/platform/define.ts";
import { assertSignedIn } from "@/lib/http/guards.ts";
import { queryOf, validate } from "@/lib/http/json.ts";
import { describeRoute } from "@/lib/openapi/describe.ts";
import { SavedItemSchema } from "@/lib/openapi/resources.ts";
import { listSaved, SavedQuerySchema } from "@/lib/saved/saved.ts";

export const apiDocs = describeRoute({
  GET: {
    summary: "Your saved items",
    description: "Newest change first; `kind` and `status` narrow the list. At most 500 items.",
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
