/**
 * `POST /api/admin/purchases/{id}/refund`: an admin refunds a purchase in full; its `apiDocs` below are its
 * description (docs/api.md, Money operations; docs/decisions.md, Money operations, "Refunds").
 */
import { define } from "@/lib/platform/define.ts";
import { describeRoute } from "@/lib/openapi/describe.ts";
import { z } from "zod";
import { PurchaseSchema } from "@/lib/openapi/resources.ts";
import { answerRefund, RefundBodySchema } from "@/lib/http/refund_request.ts";

export const apiDocs = describeRoute({
  section: "Money operations",
  POST: {
    summary: "Refund a purchase in full",
    description: "Through the gateway, with an optional `reason` (blank counts as none). The buyer loses access, " +
      "and gets the `purchase_refunded` notification and the refund e-mail. A tax invoice's refund issues a credit " +
      "note for what it returned (`refund.creditNote`, listed in the purchase's `creditNotes` after those of parts " +
      "refunded at the gateway before); past GST's time limit for the invoice, none, and `refund.creditNoteLapsed` " +
      "says so.",
    access: ["admin"],
    body: RefundBodySchema,
    responses: {
      200: {
        description: 'The purchase, `paymentStatus: "refunded"` with its `refund`',
        schema: z.strictObject({ purchase: PurchaseSchema }),
      },
      400: "Only a paid purchase can be refunded (pending, failed, or refunded already); a free purchase has no " +
        "payment to refund",
      404: "Purchase not found",
      409: "The gateway refused the refund, saying why: The gateway does not know this payment; The gateway has no " +
        "captured payment for this purchase; The gateway refused the refund: <its reason> (nothing changed)",
      502: "Payment gateway unavailable, an outage (nothing changed)",
      503: "Payments are not configured",
    },
  },
});

export const handler = define.handlers({
  POST: (req, ctx) => answerRefund(req, ctx.state, { purchaseId: ctx.params.id }),
});
