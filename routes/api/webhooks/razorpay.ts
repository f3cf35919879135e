/**
 * `POST /api/webhooks/razorpay`: the payment gateway's events; its `apiDocs` below are its description (docs/api.md,
 * Toolkits; docs/decisions.md, Toolkits and payments). The route is exempt from the CSRF origin check because every
 * delivery is authenticated by its own signature.
 */
import { define } from "@/lib/platform/define.ts";
import type { RouteOptions } from "@/lib/platform/route_options.ts";
import { paymentContext } from "@/lib/purchases/payment_context.ts";
import { handleWebhook } from "@/lib/purchases/webhook.ts";
import { describeRoute } from "@/lib/openapi/describe.ts";
import { z } from "zod";

export const routeOptions: RouteOptions = { originCheck: false };

export const apiDocs = describeRoute({
  section: "Toolkits",
  POST: {
    summary: "The payment gateway's events",
    description: "Authenticated by the HMAC-SHA256 of the raw body (`X-Razorpay-Signature`), checked before anything " +
      "in it is read; each event is applied once (by `X-Razorpay-Event-Id`, else the body's SHA-256). " +
      "`payment.captured` and `order.paid` pay a purchase, `payment.failed` fails a pending one, `refund.processed` " +
      "marks a refund processed (its `notes.purchaseId` names the purchase); one without our notes (made in the " +
      "gateway's dashboard, a dispute) refunds the purchase of its payment's order as an admin's refund does when it " +
      "is a full refund. An unknown order or event is acknowledged too.",
    access: ["signature"],
    rawBody: {
      mediaType: "application/json",
      description: "The gateway's event, read only once its signature matches.",
    },
    responses: {
      200: { description: "Received", schema: z.strictObject({ received: z.literal(true) }) },
      400: "Invalid webhook signature (also without a webhook secret), or a signed body that is not JSON",
    },
  },
});

export const handler = define.handlers({
  async POST(req, ctx) {
    const rawBody = await req.text();
    await handleWebhook(
      paymentContext(ctx.state.services),
      {
        rawBody,
        signature: req.headers.get("x-razorpay-signature"),
        eventIdHeader: req.headers.get("x-razorpay-event-id"),
      },
    );
    return Response.json({ received: true });
  },
});
