/**
 * `PUT` and `DELETE /api/ungatekeep/{id}/reactions/{type}`: give or take back a reaction; its `apiDocs` below are its
 * description (docs/api.md, Ungatekeep; docs/decisions.md, Comments and reactions).
 */
import { define, type RouteContext } from "@/lib/platform/define.ts";
import { NotFoundError } from "@/lib/errors.ts";
import { assertSignedIn } from "@/lib/http/guards.ts";
import { BUSY, describeRoute } from "@/lib/openapi/describe.ts";
import { ReactionsAnswerSchema } from "@/lib/openapi/resources.ts";
import { REACTION_TYPES, ReactionTypeSchema } from "@/lib/comments/schema.ts";
import { react } from "@/lib/comments/reactions.ts";
import type { RouteOptions } from "@/lib/platform/route_options.ts";

/** Writes fall under the per-person limit `reactions` (docs/decisions.md, Errors and limits, "Per-person limits"). */
export const routeOptions: RouteOptions = { personLimit: "reactions" };

const operation = (summary: string) => ({
  summary,
  description: `\`type\` is ${REACTION_TYPES.map((type) => `\`${type}\``).join(", ")}. Idempotent: the counts ` +
    "and the caller's reactions afterwards.",
  access: ["session" as const],
  responses: {
    200: { description: "The post's reaction counts and the caller's reactions", schema: ReactionsAnswerSchema },
    404: "Post not found, or an unknown reaction type",
    503: BUSY,
  },
});

export const apiDocs = describeRoute({
  section: "Ungatekeep",
  PUT: operation("React to a post (once per type)"),
  DELETE: operation("Take a reaction back"),
});

async function answer({ state, params }: RouteContext, on: boolean): Promise<Response> {
  assertSignedIn(state);
  const type = ReactionTypeSchema.safeParse(params.type);
  if (!type.success) throw new NotFoundError("Unknown reaction type");
  return Response.json(await react(state.services.kv, { postId: params.id, user: state.user, type: type.data, on }));
}

export const handler = define.handlers({
  PUT: (_req, ctx) => answer(ctx, true),
  DELETE: (_req, ctx) => answer(ctx, false),
});
