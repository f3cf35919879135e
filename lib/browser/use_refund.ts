/**
 * Browser-safe: the admin's refund of a purchase or of one of its extra payments (docs/decisions.md, Money operations,
 * "Refunds"), or the decline of a buyer's refund request with a note ("Refund requests"), as the purchases table's
 * dialog runs it: for the payment picked, an optional reason (the note, required, of a decline), then the request; on
 * success the list announces it and reloads. The dialog and this hook are loaded on demand, when a payment is first
 * picked.
 */
import { useState } from "preact/hooks";
import { type ApiFailure, failureMessage, fetchJson } from "@/lib/browser/fetch_json.ts";
import type { Translate } from "@/lib/i18n/translator.ts";
import { useT } from "@/lib/i18n/context.ts";
import { quotedRefusal } from "@/lib/i18n/refusal_detail.ts";
import type { AdminList } from "@/lib/browser/use_admin_list.ts";
import type { AdminPurchasePage, AdminPurchaseRow } from "@/lib/purchases/admin.ts";
import { type PendingRefund, refundUnconfirmed } from "@/lib/browser/pending_refund.ts";

/**
 * A refund being confirmed: what is picked, the reason typed, what is wrong with it (`fieldError`: a decline's note
 * left empty, told before anything is sent), whether it is being sent, and the refusal, if any, with whether the refund
 * may have been made all the same (`refundUnconfirmed`).
 */
export interface Refund {
  pending: PendingRefund | null;
  reason: string;
  fieldError: string;
  saving: boolean;
  error: string;
  unconfirmed: boolean;
  setReason(reason: string): void;
  cancel(): void;
  confirm(): Promise<void>;
}

/**
 * A refund's refusal in `t`'s language: a gateway refusal that quotes the gateway's words (`quotedRefusal`) worded
 * with them, any other as `failureMessage` words it.
 */
export function refundFailure(t: Translate, failure: ApiFailure): string {
  const quoted = quotedRefusal(failure.apiError);
  return (quoted && t.refusal(quoted.template, { detail: quoted.detail })) || failureMessage(t, failure);
}

/**
 * The refund `pending` of a row of `list` (`close` ends it): `POST /api/admin/purchases/{id}/refund` or its extra
 * payment's; or, for a pending `decline`, `POST /api/admin/purchases/{id}/refund-request/decline` with the typed text
 * as its note.
 */
export function useRefund(
  list: AdminList<AdminPurchaseRow, AdminPurchasePage>,
  pending: PendingRefund | null,
  close: () => void,
): Refund {
  const t = useT();
  const [reason, setReason] = useState("");
  const [fieldError, setFieldError] = useState("");
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState("");
  const [unconfirmed, setUnconfirmed] = useState(false);

  const cancel = () => {
    close();
    setError("");
    setFieldError("");
    setReason("");
  };

  const confirm = async () => {
    if (!pending) return;
    const text = reason.trim();
    setFieldError(pending.decline && !text ? t("fields.required") : "");
    if (pending.decline && !text) return;
    setSaving(true);
    setError("");
    const id = encodeURIComponent(pending.row.id);
    const path = pending.decline
      ? `/api/admin/purchases/${id}/refund-request/decline`
      : pending.extraPaymentId
      ? `/api/admin/purchases/${id}/extra-payments/${encodeURIComponent(pending.extraPaymentId)}/refund`
      : `/api/admin/purchases/${id}/refund`;
    const result = await fetchJson<{ purchase: AdminPurchaseRow }>(path, {
      method: "POST",
      body: pending.decline ? { note: text } : text ? { reason: text } : {},
    });
    setSaving(false);
    if (!result.ok) {
      setError(refundFailure(t, result));
      setUnconfirmed(!pending.decline && refundUnconfirmed(result.status));
      return;
    }
    const name = pending.row.user?.name ?? t("admin.refund.deletedUser");
    list.announce(
      pending.decline
        ? t("admin.refund.declined", { name })
        : t("admin.refund.done", { amount: t.minorUnits(pending.amount, pending.currency), name }),
    );
    cancel();
    list.reload();
  };

  return { pending, reason, fieldError, saving, error, unconfirmed, setReason, cancel, confirm };
}
