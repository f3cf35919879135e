/**
 * `POST /api/admin/purchases/{id}/extra-payments/{paymentId}/refund` (admins) `{reason?}` → `{purchase}`: refunds a
 * payment kept as extra (money due back); the purchase keeps its state (docs/api.md, Money operations).
 */
import { define } from "@/lib/platform/define.ts";
import { answerRefund, refundDocs } from "@/lib/http/refund_request.ts";

export const apiDocs = refundDocs("Refund an extra payment of a purchase", {
  200: "`{purchase}`",
  400: "This payment has already been refunded",
  404: "Purchase not found; Payment not found",
});

export const handler = define.handlers({
  POST: (req, ctx) => answerRefund(req, ctx.state, { purchaseId: ctx.params.id, paymentId: ctx.params.paymentId }),
});
