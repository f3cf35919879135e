/**
 * The admin's refund requests (docs/api.md, Money operations; docs/decisions.md, Money operations, "Refunds"):
 * `POST /api/admin/purchases/{id}/refund` and `POST /api/admin/purchases/{id}/extra-payments/{paymentId}/refund`
 * differ only in the payment they name, so both answer through `answerRefund`; the admin purchases page's plain form
 * refunds through `refundAsAdmin`, as they do.
 */
import { z } from "zod";
import { assertSignedIn } from "./guards.ts";
import { adminAudit } from "./admin_audit.ts";
import { readBody } from "./json.ts";
import type { AppState } from "@/lib/platform/state.ts";
import { paymentContext } from "@/lib/purchases/payment_context.ts";
import { purchaseView } from "@/lib/purchases/purchases.ts";
import { REFUND_TEXT_MAX } from "@/lib/purchases/refund_policy.ts";
import { refundPayment, type RefundTarget } from "@/lib/purchases/refunds.ts";
import { TextSchema } from "@/lib/text.ts";

/**
 * `{reason?}`: a text field (docs/decisions.md, Text fields), at most `REFUND_TEXT_MAX` (500) characters; a blank
 * reason counts as none.
 */
export const RefundBodySchema = z.object({
  reason: TextSchema.trim().max(REFUND_TEXT_MAX).optional().transform((v) => v || undefined),
});

/**
 * Refunds `target` for the signed-in admin of `state` (the admin middleware checked the role) with the request's
 * reason, the audit log's entry in the refund's write; answers `{purchase}` as it ends up. Errors are the domain's
 * (see `refundPayment`).
 */
export async function answerRefund(req: Request, state: AppState, target: RefundTarget): Promise<Response> {
  const { reason } = await readBody(req, RefundBodySchema);
  return Response.json({ purchase: purchaseView(await refundAsAdmin(state, target, reason ?? null)) });
}

/**
 * Refunds `target` for the signed-in admin of `state` with `reason` (validated by `RefundBodySchema`), the audit log's
 * entry added to the refund's final checked write (after the gateway's call), so a refund is never kept without the
 * admin who made it; returns the purchase as it ends up. The JSON routes and the admin purchases page's plain form
 * (`POST /admin/purchases`) both refund through it. Errors are the domain's (see `refundPayment`).
 */
export async function refundAsAdmin(state: AppState, target: RefundTarget, reason: string | null) {
  assertSignedIn(state);
  const payment = target.paymentId ? `payment ${target.paymentId}` : "";
  const summary = [payment, reason ?? ""].filter(Boolean).join(": ") || undefined;
  const audit = adminAudit(state, { action: "purchase.refund", targetKind: "purchase", summary });
  return await refundPayment(paymentContext(state.services), { by: state.user, target, reason, audit });
}
