/**
 * `POST /api/admin/purchases/{id}/refund` (admins) `{reason?}` → `{purchase}`: a full refund through the gateway
 * (docs/api.md, Money operations; docs/decisions.md, Money operations, "Refunds").
 */
import { define } from "@/lib/platform/define.ts";
import { answerRefund, refundDocs } from "@/lib/http/refund_request.ts";

export const apiDocs = refundDocs("Refund a purchase in full", {
  200: '`{purchase}` with `paymentStatus: "refunded"` and its `refund`',
  400: "Only a paid purchase can be refunded; A free purchase has no payment to refund",
  404: "Purchase not found",
});

export const handler = define.handlers({
  POST: (req, ctx) => answerRefund(req, ctx.state, { purchaseId: ctx.params.id }),
});
