/** `GET /api/purchases` (session): the caller's purchases, newest first, each with `toolkit {id, title}` or null. docs/decisions.md, Toolkits and payments. */
import { define } from "@/lib/platform/define.ts";
import { assertSignedIn } from "@/lib/http/guards.ts";
import { purchaseHistory } from "@/lib/toolkits/learning.ts";
import { describeRoute } from "@/lib/openapi/describe.ts";

export const apiDocs = describeRoute({
  GET: {
    summary: "The caller's purchases, newest first",
    access: ["session"],
    responses: { 200: "`{purchases}`, each with `toolkit: {id, title}` or null" },
  },
});

export const handler = define.handlers({
  async GET(_req, ctx) {
    assertSignedIn(ctx.state);
    return Response.json({ purchases: await purchaseHistory(ctx.state.services.kv, ctx.state.user.id) });
  },
});
