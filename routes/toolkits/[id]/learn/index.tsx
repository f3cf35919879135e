/**
 * `/toolkits/{id}/learn`: resumes where the student left off, the first lesson they have not
 * completed (the first lesson when all are done). Anyone who has not bought the toolkit goes to
 * its page; a guest signs in first. `?paid=1` (the checkout's way in, once paid) or `?free=1` (once a 100 % coupon made
 * it the buyer's) goes on to the lesson, which then confirms the payment, or says that nothing was paid.
 */
import { define } from "@/lib/platform/define.ts";
import { assertSignedIn } from "@/lib/http/guards.ts";
import { toolkitDetail } from "@/lib/toolkits/learning.ts";
import { canManageCatalog } from "@/lib/toolkits/policy.ts";

export const handler = define.handlers({
  async GET(_req, ctx) {
    assertSignedIn(ctx.state);
    const { toolkit, contentItems, hasPurchased, completedItemIds } = await toolkitDetail(
      ctx.state.services.kv,
      ctx.params.id,
      ctx.state.user,
    );
    const next = contentItems.find((item) => !completedItemIds.includes(item.id)) ?? contentItems[0];
    const owner = hasPurchased || canManageCatalog(ctx.state.user);
    const welcome = ["paid", "free"].find((name) => ctx.url.searchParams.get(name) === "1");
    const how = hasPurchased && welcome ? `?${welcome}=1` : "";
    const location = owner && next ? `/toolkits/${toolkit.id}/learn/${next.id}${how}` : `/toolkits/${toolkit.id}`;
    return new Response(null, { status: 302, headers: { location } });
  },
});
