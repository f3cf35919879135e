/**
 * `POST /api/admin/purchases/{id}/refund-request/decline`: an admin declines a buyer's open refund request with a note
 * the buyer is told; its `apiDocs` below are its description (docs/api.md, Money operations; docs/decisions.md, Money
 * operations, "Refund requests").
 */
import { z } from "zod";
import { define } from "@/lib/platform/define.ts";
import { adminAudit } from "@/lib/http/admin_audit.ts";
import { readBody } from "@/lib/http/json.ts";
import { describeRoute } from "@/lib/openapi/describe.ts";
import { PurchaseSchema } from "@/lib/openapi/resources.ts";
import { paymentContext } from "@/lib/purchases/payment_context.ts";
import { purchaseView } from "@/lib/purchases/purchases.ts";
import { declineRefundRequest, RefundDeclineBodySchema } from "@/lib/purchases/refund_requests.ts";
import { REFUSALS } from "@/lib/refusals.ts";

export const apiDocs = describeRoute({
  section: "Money operations",
  POST: {
    summary: "Decline a refund request",
    description: "With a `note` (1–500 characters) the buyer is told: the `refund_declined` notification and an " +
      "e-mail, in the same write. The purchase stays paid; to refund it, refund it instead (that answers the request).",
    access: ["admin"],
    body: RefundDeclineBodySchema,
    responses: {
      200: {
        description: 'The purchase, its `refundRequest` `status: "declined"` with the note',
        schema: z.strictObject({ purchase: PurchaseSchema }),
      },
      400: "A missing or too long note",
      404: REFUSALS.purchaseNotFound,
      409: `${REFUSALS.noOpenRefundRequest} (none asked, or answered already)`,
    },
  },
});

export const handler = define.handlers({
  async POST(req, ctx) {
    const { note } = await readBody(req, RefundDeclineBodySchema);
    const audit = adminAudit(ctx.state, { action: "purchase.declineRefund", targetKind: "purchase", summary: note });
    const record = await declineRefundRequest(paymentContext(ctx.state.services), {
      purchaseId: ctx.params.id,
      note,
      audit,
    });
    return Response.json({ purchase: purchaseView(record) });
  },
});
