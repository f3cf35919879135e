/**
 * `POST /api/toolkits/{id}/verify`: confirms a payment with the signature Checkout.js returned; its `apiDocs` below
 * are its description (docs/api.md, Toolkits; docs/decisions.md, Toolkits and payments).
 */
import { define } from "@/lib/platform/define.ts";
import { z } from "zod";
import { assertSignedIn } from "@/lib/http/guards.ts";
import { readBody } from "@/lib/http/json.ts";
import { paymentContext } from "@/lib/purchases/payment_context.ts";
import { verifyPayment } from "@/lib/purchases/verify.ts";
import { describeRoute } from "@/lib/openapi/describe.ts";
import type { RouteOptions } from "@/lib/platform/route_options.ts";
import { PurchaseSchema } from "@/lib/openapi/resources.ts";

/** Writes fall under the per-person limit `checkout` (docs/decisions.md, Errors and limits, "Per-person limits"). */
export const routeOptions: RouteOptions = { personLimit: "checkout" };

const field = z.string().min(1).max(200);
const VerifyBodySchema = z.object({ razorpay_order_id: field, razorpay_payment_id: field, razorpay_signature: field });

export const apiDocs = describeRoute({
  section: "Toolkits",
  POST: {
    summary: "Confirm a payment with Checkout.js's signature",
    description: "The purchase's owner only. A good signature makes the purchase `paid` (once: the webhook may have " +
      "done it first).",
    access: ["session"],
    body: VerifyBodySchema,
    responses: {
      200: {
        description: "Paid",
        schema: z.strictObject({ success: z.literal(true), purchase: PurchaseSchema }),
      },
      400: "Invalid payment signature (nothing changed)",
      403: "Another user's order",
      404: "Purchase not found",
      409: "The coupon could no longer be used, the gateway reported another amount, or the buyer owns the toolkit " +
        "already through another purchase: the payment is owed back",
      503: "Payments are not configured",
    },
  },
});

export const handler = define.handlers({
  async POST(req, ctx) {
    assertSignedIn(ctx.state);
    const body = await readBody(req, VerifyBodySchema);
    const purchase = await verifyPayment(paymentContext(ctx.state.services), {
      user: ctx.state.user,
      toolkitId: ctx.params.id,
      proof: {
        orderId: body.razorpay_order_id,
        paymentId: body.razorpay_payment_id,
        signature: body.razorpay_signature,
      },
    });
    return Response.json({ success: true, purchase });
  },
});
