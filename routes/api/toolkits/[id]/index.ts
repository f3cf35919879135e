/**
 * `GET /api/toolkits/{id}` (public; locked lesson bodies withheld, buyers get their progress) and
 * `POST /api/toolkits/{id}` (session: purchase initiation with an optional `couponCode`).
 * docs/api.md, Toolkits, docs/decisions.md, Toolkits and payments.
 */
import { define } from "@/lib/platform/define.ts";
import { z } from "zod";
import { assertSignedIn } from "@/lib/http/guards.ts";
import { readBody } from "@/lib/http/json.ts";
import { initiatePurchase } from "@/lib/purchases/checkout.ts";
import { toolkitDetail } from "@/lib/toolkits/learning.ts";
import { describeRoute } from "@/lib/openapi/describe.ts";
import type { RouteOptions } from "@/lib/platform/route_options.ts";

/** Writes fall under the per-person limit `checkout` (docs/decisions.md, Errors and limits, "Per-person limits"). */
export const routeOptions: RouteOptions = { personLimit: "checkout" };

const PurchaseBodySchema = z.object({
  couponCode: z.string().max(100).nullable().optional(),
  buyerState: z.string().max(100).nullable().optional().describe(
    "The buyer's Indian state or union territory by name, for the tax invoice's place of supply",
  ),
});

export const apiDocs = describeRoute({
  GET: {
    summary: "A toolkit with its lessons",
    description: "Locked lessons without their bodies; a buyer also gets their progress.",
    access: ["public", "session"],
    responses: { 200: "`{toolkit, contentItems, hasPurchased, completedItemIds}`" },
  },
  POST: {
    summary: "Start buying a toolkit",
    description: "A gateway order, or with a 100 % coupon the purchase at once. Without gateway keys a paid " +
      "checkout is 503. `buyerState` names the buyer's state for the tax invoice (else their onboarding location's, " +
      "else the seller's); one that names no Indian state or union territory is 400 `Invalid buyerState`.",
    access: ["session"],
    body: PurchaseBodySchema,
    responses: {
      200: "The order for Checkout.js, or the completed free purchase",
      400: "Invalid buyerState; a coupon refusal",
      503: "Payments are not configured",
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
