/**
 * `GET` and `POST /api/toolkits/{id}`: a toolkit and the start of its purchase; its `apiDocs` below are its
 * description (docs/api.md, Toolkits; docs/decisions.md, Toolkits and payments).
 */
import { define } from "@/lib/platform/define.ts";
import { z } from "zod";
import { assertSignedIn } from "@/lib/http/guards.ts";
import { readBody } from "@/lib/http/json.ts";
import { initiatePurchase } from "@/lib/purchases/checkout.ts";
import { toolkitDetail } from "@/lib/toolkits/learning.ts";
import { describeRoute } from "@/lib/openapi/describe.ts";
import type { RouteOptions } from "@/lib/platform/route_options.ts";
import { CheckoutSchema, ToolkitDetailSchema } from "@/lib/openapi/resources.ts";

/** Writes fall under the per-person limit `checkout` (docs/decisions.md, Errors and limits, "Per-person limits"). */
export const routeOptions: RouteOptions = { personLimit: "checkout" };

const PurchaseBodySchema = z.object({
  couponCode: z.string().max(100).nullable().optional(),
  buyerState: z.string().max(100).nullable().optional().describe(
    "The buyer's Indian state or union territory by name, for the tax invoice's place of supply",
  ),
});

export const apiDocs = describeRoute({
  section: "Toolkits",
  GET: {
    summary: "A toolkit with its lessons",
    description: "An active toolkit for anyone, an inactive one for admins only. A locked lesson's `content` and " +
      "`cdnVideoUrl`, and the toolkit's `contentUrl`, are null except to buyers and admins; a buyer also gets the " +
      "lessons they completed.",
    access: ["public", "session"],
    responses: { 200: { description: "The toolkit", schema: ToolkitDetailSchema }, 404: "Toolkit not found" },
  },
  POST: {
    summary: "Start buying a toolkit",
    description: "With an optional `couponCode`. A gateway order for Checkout.js (the purchase starts `pending`, " +
      "`amountPaid` in paise), or, when a coupon covers the price, the purchase paid at once without `order`. A " +
      'coupon or purchase refusal is 400 with its message (docs/api.md, Toolkits, "Coupon and purchase errors"). ' +
      "`buyerState` names the buyer's state for the tax invoice's place of supply (else their onboarding location's, " +
      'else the seller\'s; docs/decisions.md, Money operations, "Place of supply").',
    access: ["session"],
    body: PurchaseBodySchema,
    responses: {
      200: {
        description: "The order for Checkout.js, or the completed free purchase; money in rupees",
        schema: CheckoutSchema,
      },
      400: 'A coupon or purchase refusal, e.g. "Invalid coupon code" or "Toolkit already purchased"; or a ' +
        "`buyerState` that names no Indian state or union territory (Invalid buyerState)",
      404: "Toolkit not found (or inactive)",
      409: "Checkout is busy, try again",
      502: "Payment gateway unavailable",
      503: "Payments are not configured (a paid checkout without gateway keys)",
    },
  },
});

export const handler = define.handlers({
  async GET(_req, ctx) {
    return Response.json(await toolkitDetail(ctx.state.services.kv, ctx.params.id, ctx.state.user));
  },

  async POST(req, ctx) {
    assertSignedIn(ctx.state);
    const { couponCode, buyerState } = await readBody(req, PurchaseBodySchema);
    const { kv, payments } = ctx.state.services;
    const started = await initiatePurchase(kv, {
      payments,
      user: ctx.state.user,
      toolkitId: ctx.params.id,
      couponCode: couponCode ?? undefined,
      buyerState,
    });
    return Response.json({ success: true, ...started });
  },
});
