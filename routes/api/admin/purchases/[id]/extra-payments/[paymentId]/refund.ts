/**
 * `POST /api/admin/purchases/{id}/extra-payments/{paymentId}/refund`: an admin refunds a payment kept as extra (money
 * due back); its `apiDocs` below are its description (docs/api.md, Money operations; docs/decisions.md, Money
 * operations, "Refunds").
 */
import { define } from "@/lib/platform/define.ts";
import { describeRoute } from "@/lib/openapi/describe.ts";
import { z } from "zod";
import { PurchaseSchema } from "@/lib/openapi/resources.ts";
import { answerRefund, RefundBodySchema } from "@/lib/http/refund_request.ts";

export const apiDocs = describeRoute({
  section: "Money operations",
  POST: {
    summary: "Refund an extra payment of a purchase",
    description: "A payment that granted nothing (`extraPayments`), with an optional `reason`. The purchase keeps " +
      "its state; the buyer gets the `purchase_refunded` notification and the refund e-mail as for a purchase refund.",
    access: ["admin"],
    body: RefundBodySchema,
    responses: {
      200: {
        description: "The purchase, its state unchanged, the extra payment with its `refund`",
        schema: z.strictObject({ purchase: PurchaseSchema }),
      },
      400: "This payment has already been refunded",
      404: "Purchase not found, or payment not found",
      409: "The gateway refused the refund, saying why: The gateway does not know this payment; The gateway has no " +
        "captured payment for this purchase; The gateway refused the refund: <its reason> (nothing changed)",
      502: "Payment gateway unavailable, an outage (nothing changed)",
      503: "Payments are not configured",
    },
  },
});

export const handler = define.handlers({
  POST: (req, ctx) => answerRefund(req, ctx.state, { purchaseId: ctx.params.id, paymentId: ctx.params.paymentId }),
});
