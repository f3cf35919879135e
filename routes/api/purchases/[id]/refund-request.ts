/**
 * `POST /api/purchases/{id}/refund-request`: the buyer asks for a refund of a paid purchase, once; its `apiDocs` below
 * are its description (docs/api.md, Toolkits; docs/decisions.md, Money operations, "Refund requests").
 */
import { z } from "zod";
import { define } from "@/lib/platform/define.ts";
import { assertSignedIn } from "@/lib/http/guards.ts";
import { readBody } from "@/lib/http/json.ts";
import { describeRoute } from "@/lib/openapi/describe.ts";
import { PurchaseSchema } from "@/lib/openapi/resources.ts";
import { paymentContext } from "@/lib/purchases/payment_context.ts";
import { purchaseView } from "@/lib/purchases/purchases.ts";
import { askRefund, RefundRequestBodySchema } from "@/lib/purchases/refund_requests.ts";
import { REFUSALS } from "@/lib/refusals.ts";
import type { RouteOptions } from "@/lib/platform/route_options.ts";

/** Writes fall under the per-person limit `checkout` (the buyer's money writes). */
export const routeOptions: RouteOptions = { personLimit: "checkout" };

export const apiDocs = describeRoute({
  section: "Toolkits",
  POST: {
    summary: "Ask for a refund of a purchase",
    description: "The buyer of a paid purchase, once per purchase, with an optional `reason` (blank counts as none). " +
      "The purchase keeps its `refundRequest` (`open`) until an admin refunds it (`refunded`) or declines it with a " +
      "`note` (`declined`, told to the buyer by the `refund_declined` notification and an e-mail; a refund afterwards " +
      "makes it `refunded`, its e-mail saying it replaces that answer). The refund policy " +
      "(within 7 days, at most two lessons completed) is the admin's to weigh.",
    access: ["session"],
    body: RefundRequestBodySchema,
    responses: {
      200: {
        description: "The purchase with its open `refundRequest`",
        schema: z.strictObject({ purchase: PurchaseSchema }),
      },
      400: `${REFUSALS.onlyPaidRefundable} (pending or failed); ${REFUSALS.freeNotRefundable}; a reason over 500 ` +
        "characters",
      404: `${REFUSALS.purchaseNotFound}: unknown, or another person's`,
      409: `${REFUSALS.refundedAlready}; ${REFUSALS.refundAskedAlready}`,
    },
  },
});

export const handler = define.handlers({
  async POST(req, ctx) {
    assertSignedIn(ctx.state);
    const { reason } = await readBody(req, RefundRequestBodySchema);
    const record = await askRefund(paymentContext(ctx.state.services), {
      purchaseId: ctx.params.id,
      userId: ctx.state.user.id,
      reason: reason ?? null,
    });
    return Response.json({ purchase: purchaseView(record) });
  },
});
