/**
 * `GET /api/admin/moderation?kind=&status=&limit=&offset=` (admins, by `../_middleware.ts`): the moderation queue,
 * held listings first (the longest waiting on top), then rejected ones, each `{kind, listing, moderation, heldAt}`.
 * docs/api.md, Trust; docs/decisions.md, Trust, "Moderation".
 */
import { define } from "@/lib/platform/define.ts";
import { queryOf, validate } from "@/lib/http/json.ts";
import { ModerationQuerySchema, moderationQueue } from "@/lib/moderation/admin.ts";
import { describeRoute } from "@/lib/openapi/describe.ts";
import { ModerationItemSchema, PaginationSchema } from "@/lib/openapi/resources.ts";
import { z } from "zod";

export const apiDocs = describeRoute({
  section: "Trust",
  GET: {
    summary: "The moderation queue: held listings first, then rejected ones",
    description: "Held listings first (the longest waiting on top), then rejected ones, each with its moderation " +
      "and when it was held; `kind` and `status` narrow it (both when absent). `counts` holds how many are held and " +
      "rejected.",
    access: ["admin"],
    query: ModerationQuerySchema,
    responses: {
      200: {
        description: "A page of the queue, with how many listings are held and rejected",
        schema: z.strictObject({
          items: z.array(ModerationItemSchema),
          pagination: PaginationSchema,
          counts: z.strictObject({ held: z.int(), rejected: z.int() }),
        }),
      },
    },
  },
});

export const handler = define.handlers({
  async GET(_req, ctx) {
    const query = validate(ModerationQuerySchema, queryOf(ctx.url));
    return Response.json(await moderationQueue(ctx.state.services.kv, query));
  },
});
