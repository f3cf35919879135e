/**
 * `POST /api/webhooks/razorpay` (docs/decisions.md, Toolkits and payments): the gateway's payment events. The route is
 * exempt from the CSRF origin check because every delivery is authenticated by its own
 * signature: the HMAC-SHA256 of the raw body is checked before anything in it is read (400 when
 * it does not match). Answers 200 `{received: true}`, also for an unknown order or event.
 */
import { define } from "@/lib/platform/define.ts";
import type { RouteOptions } from "@/lib/platform/route_options.ts";
import { paymentContext } from "@/lib/purchases/payment_context.ts";
import { handleWebhook } from "@/lib/purchases/webhook.ts";
import { describeRoute } from "@/lib/openapi/describe.ts";

export const routeOptions: RouteOptions = { originCheck: false };

export const apiDocs = describeRoute({
  POST: {
    summary: "The payment gateway's events",
    description: "Authenticated by the HMAC-SHA256 of the raw body (`X-Razorpay-Signature`); each event applied once.",
    access: ["signature"],
    rawBody: {
      mediaType: "application/json",
      description: "The gateway's event, read only once its signature matches.",
    },
    responses: { 200: "`{received: true}`", 400: "Invalid webhook signature" },
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
