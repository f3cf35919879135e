/**
 * Refund requests (docs/decisions.md, Money operations, "Refund requests"; docs/api.md, Toolkits; docs/api.md, Money operations):
 * the buyer of a paid purchase asks for a refund once, with an optional reason; the request waits on the purchase
 * (`refundRequest`, `open`) and counts toward the dashboard's "Refunds asked" (`lib/stats/counters.ts`) until an admin
 * refunds the purchase (`refundPayment` marks it `refunded`) or declines it with a note, which the buyer is told by a
 * `refund_declined` notification and an e-mail in the same write. The policy's limits (`REFUND_POLICY`) are for the
 * admin to weigh (`refund_policy.ts`): the admin list shows them per purchase (`refundPolicyFacts`), and a refund past them is allowed.
 */
import { z } from "zod";
import type { AuditHook } from "@/lib/admin_log/admin_log.ts";
import { certificateOf } from "@/lib/certificates/certificates.ts";
import { ConflictError, InvalidInputError, NotFoundError } from "@/lib/errors.ts";
import { translatorOfPerson } from "@/lib/i18n/catalogue.ts";
import { queueMailOps } from "@/lib/mail/outbox.ts";
import { addNotification } from "@/lib/notifications/notifications.ts";
import { REFUSALS } from "@/lib/refusals.ts";
import { TextSchema } from "@/lib/text.ts";
import { getToolkitRecord, listContentItems } from "@/lib/toolkits/catalog.ts";
import { completedItemIds } from "@/lib/toolkits/progress.ts";
import { getUser, type User } from "@/lib/users/users.ts";
import { refundDeclinedMail } from "./mails.tsx";
import { REFUND_POLICY, REFUND_TEXT_MAX } from "./refund_policy.ts";
import { nowOf, type PaymentContext } from "./payment_context.ts";
import {
  type BuyerPurchase,
  getPurchaseEntry,
  hasBuyer,
  type PurchaseRecord,
  putPurchaseOps,
  type RefundRequest,
} from "./purchases.ts";

/**
 * `{reason?}` of a buyer's request: a text field, its invisible characters stripped and line breaks as line feeds
 * (docs/decisions.md, Text fields), at most `REFUND_TEXT_MAX` characters; blank counts as none.
 */
export const RefundRequestBodySchema = z.object({
  reason: TextSchema.trim().max(REFUND_TEXT_MAX).optional().transform((v) => v || undefined),
});

/** `{note}` of an admin's decline: a text field of 1 to `REFUND_TEXT_MAX` characters, told to the buyer. */
export const RefundDeclineBodySchema = z.object({ note: TextSchema.trim().min(1).max(REFUND_TEXT_MAX) });

const ATTEMPTS = 20;

/**
 * `record` refused for a new request: another buyer's or unknown (404), not paid (400), free (400), asked already
 * (409).
 */
function assertAskable(record: PurchaseRecord | null, userId: string): asserts record is PurchaseRecord {
  if (!record || record.userId !== userId) throw new NotFoundError(REFUSALS.purchaseNotFound);
  if (record.paymentStatus === "refunded") throw new ConflictError(REFUSALS.refundedAlready);
  if (record.paymentStatus !== "paid") throw new InvalidInputError(REFUSALS.onlyPaidRefundable);
  if (record.amountPaid === 0 || !record.gatewayOrderId) throw new InvalidInputError(REFUSALS.freeNotRefundable);
  if (record.refundRequest) throw new ConflictError(REFUSALS.refundAskedAlready);
}

/**
 * Records `userId`'s request for a refund of their purchase `purchaseId` with `reason` (null for none), in one
 * atomic write checked against the purchase as read; returns the purchase as written.
 * @throws NotFoundError "Purchase not found" (unknown, or another person's); InvalidInputError `onlyPaidRefundable`
 *   or `freeNotRefundable`; ConflictError `refundedAlready` or `refundAskedAlready` (once per purchase).
 */
export async function askRefund(
  ctx: PaymentContext,
  { purchaseId, userId, reason }: { purchaseId: string; userId: string; reason: string | null },
): Promise<PurchaseRecord> {
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const entry = await getPurchaseEntry(ctx.kv, purchaseId);
    assertAskable(entry.value, userId);
    const at = nowOf(ctx);
    const refundRequest: RefundRequest = { at, reason, status: "open", answeredAt: null, note: null };
    const record = { ...entry.value, refundRequest, updatedAt: at };
    const op = ctx.kv.atomic().check(entry);
    putPurchaseOps(op, entry.value, record);
    if ((await op.commit()).ok) return record;
  }
  throw new Error("Refund request write lost too many races");
}

/**
 * `current` with its refund request answered by the refund at `at`: an open one, and one declined before (a decline
 * and a refund made at once, or an admin who changed their mind), so the buyer is shown the refund only; unchanged
 * when there is none or it was answered by a refund already.
 */
export function withRequestRefunded(current: PurchaseRecord, at: string): PurchaseRecord {
  if (!current.refundRequest || current.refundRequest.status === "refunded") return current;
  return { ...current, refundRequest: { ...current.refundRequest, status: "refunded", answeredAt: at } };
}

/**
 * Declines the open refund request of purchase `purchaseId` with the admin's `note`: one atomic write, checked against
 * the purchase as read, marks it `declined` and tells the buyer (the `refund_declined` notification and an e-mail in
 * their language through the outbox); `audit` adds the admin log's entry to it. Returns the purchase as written.
 * @throws NotFoundError "Purchase not found"; ConflictError `noOpenRefundRequest` (none asked, or answered already).
 */
export async function declineRefundRequest(
  ctx: PaymentContext,
  { purchaseId, note, audit }: {
    purchaseId: string;
    note: string;
    audit?: AuditHook;
  },
): Promise<PurchaseRecord> {
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const entry = await getPurchaseEntry(ctx.kv, purchaseId);
    if (!entry.value) throw new NotFoundError(REFUSALS.purchaseNotFound);
    const current = entry.value;
    if (current.refundRequest?.status !== "open") throw new ConflictError(REFUSALS.noOpenRefundRequest);
    const at = nowOf(ctx);
    const record: PurchaseRecord = {
      ...current,
      refundRequest: { ...current.refundRequest, status: "declined", answeredAt: at, note },
      updatedAt: at,
    };
    const op = ctx.kv.atomic().check(entry);
    putPurchaseOps(op, current, record);
    audit?.(op, purchaseId);
    const mails = hasBuyer(record) ? await tellDeclinedOps(ctx, op, { record, note, at }) : [];
    if ((await op.commit()).ok) {
      for (const id of mails) ctx.deliverSoon?.(id);
      return record;
    }
  }
  throw new Error("Refund decline write lost too many races");
}

/**
 * What telling the buyer of `purchase` of a refund or a declined request takes, read side by side (docs/decisions.md,
 * Money operations): the toolkit's title (its record's, else the receipt's, null when neither is left) and the buyer's
 * record (null when gone: the notification is added, no e-mail).
 */
export async function buyerToTell(
  kv: Deno.Kv,
  purchase: BuyerPurchase,
): Promise<{ title: string | null; buyer: User | null }> {
  const [toolkit, buyer] = await Promise.all([getToolkitRecord(kv, purchase.toolkitId), getUser(kv, purchase.userId)]);
  return { title: toolkit?.title ?? purchase.receipt?.toolkitTitle ?? null, buyer };
}

/** Adds to `op` the buyer's `refund_declined` notification and e-mail with `note`; returns the outbox ids queued. */
async function tellDeclinedOps(
  ctx: PaymentContext,
  op: Deno.AtomicOperation,
  { record, note, at }: { record: BuyerPurchase; note: string; at: string },
): Promise<string[]> {
  const { title, buyer } = await buyerToTell(ctx.kv, record);
  addNotification(op, {
    userId: record.userId,
    type: "refund_declined",
    message: {
      title: { key: "notifications.text.refundDeclined.title" },
      body: title
        ? { key: "notifications.text.refundDeclined.body", values: { toolkit: title, note } }
        : { key: "notifications.text.refundDeclined.bodyUntitled", values: { note } },
    },
    url: "/toolkits/mine",
  }, new Date(at));
  if (!buyer) return [];
  const t = translatorOfPerson(buyer);
  const mail = refundDeclinedMail({
    to: buyer.email,
    name: buyer.name,
    toolkitTitle: title ?? t("mail.receipt.item"),
    amountPaise: record.amountPaid,
    t,
    url: `${ctx.appUrl}/toolkits/mine`,
    note,
  });
  return [queueMailOps(op, { ...mail, userId: buyer.id, retryable: true }, Date.parse(at))];
}

/** What the refund policy weighs of a purchase, for the admin (`REFUND_POLICY`). */
export interface RefundPolicyFacts {
  /** Whole days since it was paid (null when not paid). */
  daysSincePaid: number | null;
  lessonsCompleted: number;
  lessonsTotal: number;
  /** Whether the buyer holds the toolkit's certificate (not revoked). */
  certificateIssued: boolean;
  /** Past the policy's days or lessons (the admin may still refund). */
  pastPolicy: boolean;
}

/**
 * The policy facts of `record` at `now` (ms): its buyer's progress and certificate in its toolkit, whose lessons are
 * `itemIds` (`lessonIdsOf`, read once per toolkit by a list of many purchases).
 */
export async function refundPolicyFacts(
  kv: Deno.Kv,
  record: PurchaseRecord,
  now: number,
  itemIds: readonly string[],
): Promise<RefundPolicyFacts> {
  const paidAt = record.paidAt ?? record.receipt?.issuedAt ?? null;
  const daysSincePaid = paidAt ? Math.floor((now - Date.parse(paidAt)) / 86_400_000) : null;
  const [completed, certificate] = record.userId
    ? await Promise.all([
      completedItemIds(kv, { toolkitId: record.toolkitId, userId: record.userId, itemIds: [...itemIds] }),
      certificateOf(kv, record.userId, record.toolkitId),
    ])
    : [[], null];
  const pastPolicy = (daysSincePaid !== null && daysSincePaid >= REFUND_POLICY.days) ||
    completed.length > REFUND_POLICY.lessons;
  return {
    daysSincePaid,
    lessonsCompleted: completed.length,
    lessonsTotal: itemIds.length,
    certificateIssued: certificate !== null,
    pastPolicy,
  };
}

/** The ids of the lessons of toolkit `toolkitId`, in their order. */
export async function lessonIdsOf(kv: Deno.Kv, toolkitId: string): Promise<string[]> {
  return (await listContentItems(kv, toolkitId)).map((item) => item.id);
}
