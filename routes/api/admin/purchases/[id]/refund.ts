/**
 * `POST /api/admin/purchases/{id}/refund` (admins) `{reason?}` → `{purchase}`: a full refund through the gateway
 * (docs/api.md, Money operations; docs/decisions.md, Money operations: refunds).
 */
import { define } from "@/lib/platform/define.ts";
import { assertSignedIn } from "@/lib/http/guards.ts";
import { readBody } from "@/lib/http/json.ts";
import { purchaseView } from "@/lib/purchases/purchases.ts";
import { refundPurchase } from "@/lib/purchases/refunds.ts";
import { RefundBodySchema } from "@/lib/purchases/refund_body.ts";
import { paymentContext } from "@/lib/purchases/confirmation.ts";
import { describeRoute } from "@/lib/openapi/describe.ts";

export const apiDocs = describeRoute({
  POST: {
    summary: "Refund a purchase in full",
    access: ["admin"],
    body: RefundBodySchema,
    responses: {
      200: '`{purchase}` with `paymentStatus: "refunded"` and its `refund`',
      400: "Only a paid purchase can be refunded; A free purchase has no payment to refund",
      404: "Purchase not found",
      502: "Payment gateway unavailable (nothing changed)",
    },
  },
});

export const handler = define.handlers({
  async POST(req, ctx) {
    assertSignedIn(ctx.state);
    const { reason } = await readBody(req, RefundBodySchema);
    const record = await refundPurchase(
      paymentContext(ctx.state.services),
      ctx.state.user,
      ctx.params.id,
      reason ?? null,
    );
    return Response.json({ purchase: purchaseView(record) });
  },
});
