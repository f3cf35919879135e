/**
 * `POST /api/admin/purchases/{id}/extra-payments/{paymentId}/refund` (admins) `{reason?}` → `{purchase}`: refunds a
 * payment kept as extra (money due back); the purchase keeps its state (docs/api.md, Money operations).
 */
import { define } from "@/lib/platform/define.ts";
import { assertSignedIn } from "@/lib/http/guards.ts";
import { readBody } from "@/lib/http/json.ts";
import { purchaseView } from "@/lib/purchases/purchases.ts";
import { refundExtraPayment } from "@/lib/purchases/refunds.ts";
import { RefundBodySchema } from "@/lib/purchases/refund_body.ts";
import { paymentContext } from "@/lib/purchases/confirmation.ts";
import { describeRoute } from "@/lib/openapi/describe.ts";

export const apiDocs = describeRoute({
  POST: {
    summary: "Refund an extra payment of a purchase",
    access: ["admin"],
    body: RefundBodySchema,
    responses: {
      200: "`{purchase}`",
      400: "This payment has already been refunded",
      404: "Purchase not found; Payment not found",
      502: "Payment gateway unavailable (nothing changed)",
    },
  },
});

export const handler = define.handlers({
  async POST(req, ctx) {
    assertSignedIn(ctx.state);
    const { reason } = await readBody(req, RefundBodySchema);
    const { id, paymentId } = ctx.params;
    const record = await refundExtraPayment(
      paymentContext(ctx.state.services),
      ctx.state.user,
      id,
      paymentId,
      reason ?? null,
    );
    return Response.json({ purchase: purchaseView(record) });
  },
});
