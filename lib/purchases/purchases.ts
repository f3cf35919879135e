/**
 * Toolkit purchase records (docs/api.md, Toolkits; docs/decisions.md, Toolkits and payments): the payment
 * history and the ownership it grants. `paymentStatus` is `pending`, `paid`, `failed` or `refunded`
 * (docs/decisions.md, Money operations); every change is appended to the record's `history` (an
 * audit trail the API does not show). Every write of a record also moves the dashboard's counters
 * by what it changed (`putPurchaseOps`, `lib/stats/counters.ts`).
 *
 * Keys (owned by this module, except where an entry names another writer):
 * - `["purchases", id]` → `PurchaseRecord`
 * - `["purchases_by_user", userId, id]` → id
 * - `["purchases_by_user_toolkit", userId, toolkitId, createdAt, id]` → id: a buyer's purchases of one toolkit in the
 *   order they were made (a checkout started again moves `createdAt`, and the entry with it)
 * - `["purchases_by_order", gatewayOrderId]` → id (every order a purchase was offered with)
 * - `["purchase_pending", userId, toolkitId]` → id of the caller's checkout in progress
 * - `["purchase_owned", userId, toolkitId]` → id of the paid purchase that grants the toolkit
 * - `["purchases_unsettled", id]` → `{orderId, orderedAt}` of its latest order while the purchase is unpaid, or paid with
 *   another of its orders still unknown (`openOrders`): reconciliation's work list
 * - `["purchase_orders", id, gatewayOrderId]` → `OrderTerms` of an order no longer kept on the record (`ORDERS_KEPT`)
 * - `["purchase_order_checks", id, gatewayOrderId]` → `{at, quiet}`: when reconciliation last asked the gateway about
 *   the order, expiring after 8 days (written by `reconcile.ts`)
 * - `["purchases_meta", "parts_counted"]` → `{after, done}`: where the `purchase-counts` job stands
 * - `["purchases_meta", "user_toolkit_index"]` → `{after, indexed, done}`: where the `purchase-toolkit-index` job
 *   stands
 */
import type { Config } from "@/app.config.ts";
import { forgetBuyerOps, type ReservationRef } from "@/lib/coupons/reservations.ts";
import { countOps, purchaseCounts, storedPurchaseCounts } from "@/lib/stats/counters.ts";
import type { Job, JobContext } from "@/lib/jobs/job.ts";
import { type Backfill, BACKFILL_BUDGET_MS, backfillDone, runBackfill } from "@/lib/kv/backfill.ts";
import { commitPacked, WriteUnit } from "@/lib/kv/packed_writes.ts";
import { getManyChunked } from "@/lib/kv/get_many.ts";

/** Payment states (docs/decisions.md, Toolkits and payments). */
export const PAYMENT_STATUSES = ["pending", "paid", "failed", "refunded"] as const;
/** One of `PAYMENT_STATUSES`. */
export type PaymentStatus = typeof PAYMENT_STATUSES[number];

/** What a gateway order was priced with. */
export interface OrderTerms {
  /** In paise. */
  amountPaid: number;
  couponId: string | null;
  /**
   * Where the order's coupon reservation sits (absent on records written before it was kept).
   * It is not given up when checkout starts again: the order can still be paid.
   */
  reservation?: ReservationRef | null;
  /** The toolkit's price and the coupon's discount the order was priced with, in paise (absent on older records). */
  listPricePaise?: number;
  discountPaise?: number;
  couponCode?: string | null;
  /** The state the buyer named at checkout (a state's name as `indianState` gives it), for the tax invoice. */
  buyerState?: string | null;
  /** When the order was made (ISO; absent on records written before it was kept), for reconciliation's window. */
  orderedAt?: string;
}

/** A refund made through the gateway; `amount` in paise. `status` becomes `processed` with `refund.processed`. */
export interface RefundRecord {
  id: string;
  paymentId: string;
  /** All that was refunded of the payment, this refund and the parts refunded at the gateway before it. */
  amount: number;
  /**
   * What was refunded of the payment at the gateway in parts before this refund (absent when nothing was): this
   * refund itself returned `amount - refundedBefore`.
   */
  refundedBefore?: number;
  reason: string | null;
  /** The admin who refunded it, or `gateway` for a refund made at the gateway (its dashboard, a dispute). */
  by: string;
  at: string;
  status: "pending" | "processed";
  processedAt: string | null;
  /**
   * The credit note issued against the purchase's tax invoice for what this refund returned and the invoice's credit
   * notes before it did not credit (absent: the receipt is no tax invoice, or the refund is an extra payment's).
   */
  creditNote?: CreditNote;
  /** Why this refund has no credit note though its receipt is a tax invoice: GST's time limit had passed. */
  creditNoteLapsed?: CreditNoteLapsed;
}

/**
 * Why a refund of a tax invoice has no credit note (docs/decisions.md, Money operations, "Time limit of credit notes"):
 * it was due after `lastDay` (`yyyy-mm-dd`, IST), the last day GST allows one against that invoice.
 */
export interface CreditNoteLapsed {
  lastDay: string;
}

/**
 * A credit note (docs/decisions.md, Money operations, "Credit notes"): `CN-<yyyy>-<n>`, when it was issued (ISO) and
 * what it credits, in paise, GST included.
 */
export interface CreditNote {
  number: string;
  issuedAt: string;
  /** What it credits (absent on notes issued before refunds in parts had their own: all of its refund's `amount`). */
  amount?: number;
  /**
   * What the invoice's credit notes issued before it credit together (absent: none). Its GST split is the split of
   * `creditedBefore + amount` less that of `creditedBefore` (`creditNoteSplit`), so an invoice's credit notes add up to
   * its own split at most, to the paisa.
   */
  creditedBefore?: number;
  /** Issued late, for a refund made before credit notes were issued: dated when issued, not when refunded. */
  late?: true;
}

/** A credit note of a purchase with its figures in paise and the refund it is for (its id and when it was made). */
export interface IssuedCreditNote {
  number: string;
  issuedAt: string;
  amount: number;
  creditedBefore: number;
  late?: true;
  refundId: string;
  refundedAt: string;
  /** Its own printable page (`creditNotePath`). */
  url: string;
}

/**
 * Every credit note issued against `record`'s tax invoice, in the order they were issued: those of the parts refunded
 * at the gateway, and the refund's (docs/decisions.md, Money operations, "Credit notes"). Empty when none was.
 */
export function creditNotesOf(
  record: Pick<PurchaseRecord, "id" | "refund" | "gatewayPartialRefunds">,
): IssuedCreditNote[] {
  const issued = (note: CreditNote, refund: { id: string; at: string }, whole: number): IssuedCreditNote => ({
    number: note.number,
    issuedAt: note.issuedAt,
    amount: note.amount ?? whole,
    creditedBefore: note.creditedBefore ?? 0,
    ...note.late ? { late: true as const } : {},
    refundId: refund.id,
    refundedAt: refund.at,
    url: creditNotePath(record.id, note.number),
  });
  const notes = (record.gatewayPartialRefunds ?? []).flatMap((part) =>
    part.creditNote ? [issued(part.creditNote, part, part.amount)] : []
  );
  const refund = record.refund;
  if (refund?.creditNote) notes.push(issued(refund.creditNote, refund, refund.amount));
  return notes.sort((a, b) => a.creditedBefore - b.creditedBefore);
}

/** What the credit notes of `record`'s tax invoice credit together, in paise. */
export function creditedOf(record: Pick<PurchaseRecord, "id" | "refund" | "gatewayPartialRefunds">): number {
  return creditNotesOf(record).reduce((sum, note) => sum + note.amount, 0);
}

/**
 * The buyer's request for a refund of a paid purchase (docs/decisions.md, Money operations, "Refund requests"): when
 * it was asked and why (the buyer's words, or null), then `open` until an admin refunds the purchase (`refunded`) or
 * declines the request with a `note` the buyer is told (`declined`), at `answeredAt`.
 */
export interface RefundRequest {
  at: string;
  reason: string | null;
  status: "open" | "declined" | "refunded";
  answeredAt: string | null;
  note: string | null;
}

/**
 * The receipt of a paid purchase (docs/decisions.md, Money operations, "Receipts"): its number in the
 * financial year's sequence, and the buyer as it was issued to (kept after the buyer deletes their
 * account: a tax record). `buyerState` is the buyer's state when known when it was issued (a state's name; free text
 * from onboarding on receipts issued before states were recognised), for the place of supply and the GST split.
 */
export interface ReceiptRecord {
  number: string;
  issuedAt: string;
  /** The toolkit's title when the receipt was issued. */
  toolkitTitle: string;
  name: string;
  email: string;
  buyerState: string | null;
  /**
   * The seller as named when the receipt was issued (`SELLER_*`): an invoice stays as issued when the settings
   * change. Absent on receipts issued before it was kept, which show the settings of the day.
   */
  seller?: Config["seller"];
}

/**
 * Why a payment grants nothing and is due back: the purchase was already paid by another order, the buyer already
 * owned the toolkit through another paid purchase, the coupon the order was priced with could no longer be used when
 * the payment arrived (its reservation lapsed and the limit was reached meanwhile), the buyer had deleted their
 * account, or the gateway reported an amount or currency other than the order's.
 */
export const EXTRA_PAYMENT_REASONS = [
  "already paid",
  "already owned",
  "coupon unavailable",
  "account deleted",
  "amount mismatch",
] as const;
/** One of `EXTRA_PAYMENT_REASONS`. */
export type ExtraPaymentReason = typeof EXTRA_PAYMENT_REASONS[number];

/** A purchase as stored. `amountPaid` is in paise. */

export interface PurchaseRecord {
  id: string;
  /** The buyer; null once they deleted their account (kept for accounting, docs/decisions.md, Data rights). */
  userId: string | null;
  toolkitId: string;
  gatewayOrderId: string | null;
  paymentStatus: PaymentStatus;
  amountPaid: number;
  couponId: string | null;
  reservation: ReservationRef | null;
  paymentId: string | null;
  /**
   * The latest `ORDERS_KEPT` gateway orders this purchase was offered with (checkout started again adds one), oldest
   * first, with their terms: the amount in paise and the coupon it was priced with (older ones are kept under their
   * own keys: `orderTermsOf`). Paying an order applies its own terms, so an earlier, cheaper order cannot be paid
   * under a later checkout's coupon count.
   */
  orders: Record<string, OrderTerms>;
  /** Its latest `HISTORY_KEPT` status changes, oldest first. */
  history: { status: PaymentStatus; at: string; source: string }[];
  /**
   * Payments that grant nothing, so the money is due back (refunded by an admin): received after
   * the purchase was already paid (an earlier order of a replaced or free checkout paid too), or after another
   * purchase of the same toolkit by the same buyer was paid (an order of a failed checkout paid late), or
   * priced with a coupon whose use could no longer be had. Once per order; amounts in the smallest unit of
   * `currency` (paise for INR, the currency when absent), as the gateway reported them or else as the order offered
   * them; `reason` is absent on entries written before it was kept.
   */
  extraPayments?: {
    orderId: string;
    paymentId: string | null;
    amount: number | null;
    /** ISO 4217, as the gateway reported it; absent: INR. Only INR counts toward revenue. */
    currency?: string;
    at: string;
    reason?: ExtraPaymentReason;
    refund?: RefundRecord | null;
  }[];
  /** When the purchase was first paid (absent on records written before it was kept, and until paid). */
  paidAt?: string | null;
  /** The terms of the order that set the price, in paise (absent on older records). */
  listPricePaise?: number;
  discountPaise?: number;
  couponCode?: string | null;
  /** The state the buyer named at checkout of that order, for the receipt's place of supply. */
  buyerState?: string | null;
  receipt?: ReceiptRecord | null;
  refund?: RefundRecord | null;
  /**
   * Refunds of part of a payment (the purchase's own or an extra one) made at the gateway, amounts in that payment's
   * unit, kept until together they come to the payment (docs/decisions.md, Money operations, "Refunds made at the
   * gateway"); absent until one is.
   */
  gatewayPartialRefunds?: GatewayPartialRefund[];
  /**
   * True on a record with `gatewayPartialRefunds` written since the dashboard counts them (absent on one written
   * before, which counted none: `storedPurchaseCounts`, `lib/stats/counters.ts`).
   */
  partsCounted?: true;
  /** The buyer's refund request (absent until one is made). */
  refundRequest?: RefundRequest | null;
  createdAt: string;
  updatedAt: string;
}

/**
 * A refund of part of a payment made at the gateway (docs/decisions.md, Money operations, "Refunds made at the
 * gateway"), its amount in that payment's unit; `creditNote` when one was issued against the tax invoice for it,
 * `creditNoteLapsed` when GST's time limit had passed.
 */
export interface GatewayPartialRefund {
  id: string;
  paymentId: string;
  amount: number;
  at: string;
  creditNote?: CreditNote;
  creditNoteLapsed?: CreditNoteLapsed;
}

/**
 * A purchase in API responses (docs/api.md, Toolkits), with every credit note issued against its tax invoice
 * (`creditNotesOf`).
 */
export type Purchase = Omit<PurchaseRecord, InternalField | "refund"> & {
  refund?: BuyerRefund | null;
  creditNotes: IssuedCreditNote[];
  /** The parts of its own payment refunded at the gateway (`refundedPartsOf`). */
  refundedParts: RefundedPart[];
};

/**
 * A part of a purchase's own payment refunded at the gateway, as its buyer reads it: the amount in paise, when, and
 * why a tax invoice has no credit note for it.
 */
export type RefundedPart = Pick<GatewayPartialRefund, "amount" | "at" | "creditNoteLapsed">;

/**
 * The parts of `record`'s own payment refunded at the gateway, oldest first (an extra payment's are not the buyer's
 * purchase; docs/decisions.md, Money operations, "Refunds made at the gateway"). A refund that completed the payment
 * counts them in its `refundedBefore`.
 */
export function refundedPartsOf(record: PurchaseRecord): RefundedPart[] {
  const extras = new Set(record.extraPayments?.map((payment) => payment.paymentId));
  return (record.gatewayPartialRefunds ?? []).filter((part) => !extras.has(part.paymentId)).map((part) => ({
    amount: part.amount,
    at: part.at,
    ...part.creditNoteLapsed ? { creditNoteLapsed: part.creditNoteLapsed } : {},
  }));
}

/** A refund as its buyer reads it: without the admin who made it. */
export type BuyerRefund = Omit<RefundRecord, "by">;

/** What the API does not show of a record (the admin list adds some back). */
type InternalField =
  | "reservation"
  | "paymentId"
  | "orders"
  | "history"
  | "extraPayments"
  | "receipt"
  | "paidAt"
  | "listPricePaise"
  | "discountPaise"
  | "couponCode"
  | "buyerState"
  | "gatewayPartialRefunds"
  | "partsCounted";

/** A purchase whose buyer still has their account. */
export type BuyerPurchase = PurchaseRecord & { userId: string };

/** Whether `record`'s buyer still has their account. */
export function hasBuyer(record: PurchaseRecord): record is BuyerPurchase {
  return record.userId !== null;
}

/** The path of a purchase's printable receipt page. */
export function receiptPath(purchaseId: string): string {
  return `/purchases/${purchaseId}/receipt`;
}

/** The path of the printable page of credit note `number` (`CN-<yyyy>-<n>`) of a purchase. */
export function creditNotePath(purchaseId: string, number: string): string {
  return `/purchases/${purchaseId}/credit-notes/${number}`;
}

/** The API shape of a purchase record, as its buyer reads it (the admin list adds the internal fields back). */
export function purchaseView(record: PurchaseRecord): Purchase {
  const {
    reservation: _r,
    paymentId: _p,
    orders: _o,
    history: _h,
    extraPayments: _e,
    receipt: _c,
    paidAt: _a,
    listPricePaise: _l,
    discountPaise: _d,
    couponCode: _k,
    buyerState: _s,
    gatewayPartialRefunds: _g,
    partsCounted: _pc,
    refund,
    ...rest
  } = record;
  const view = { ...rest, creditNotes: creditNotesOf(record), refundedParts: refundedPartsOf(record) };
  if (refund === undefined) return view;
  if (refund === null) return { ...view, refund };
  const { by: _b, ...buyerRefund } = refund;
  return { ...view, refund: buyerRefund };
}

/**
 * A purchase's money records as its buyer reads them in their export (docs/decisions.md, Data rights, "Export"): the
 * history of its statuses (a refund's entry names no admin: `refund by admin`, or `refund by gateway`), its extra
 * payments (money owed back; amounts in `currency`'s smallest unit, INR when absent) with their refunds, and the parts
 * refunded at the gateway (paise). Never an admin's id: refunds leave out `by`.
 */
export function buyerMoneyRecords(record: PurchaseRecord) {
  const refundView = (refund: RefundRecord | null | undefined): BuyerRefund | null => {
    if (!refund) return null;
    const { by: _b, ...view } = refund;
    return view;
  };
  return {
    history: record.history.map(({ status, at, source }) => ({
      status,
      at,
      source: source.startsWith(REFUND_SOURCE) && source !== `${REFUND_SOURCE}gateway`
        ? `${REFUND_SOURCE}admin`
        : source,
    })),
    extraPayments: (record.extraPayments ?? []).map(({ refund, ...payment }) => ({
      ...payment,
      currency: payment.currency ?? "INR",
      refund: refundView(refund),
    })),
    gatewayPartialRefunds: (record.gatewayPartialRefunds ?? []).map(({ id, paymentId, amount, at }) => ({
      id,
      paymentId,
      amount,
      at,
    })),
  };
}

/** How a refund's history entry starts; the refunder follows (an admin's id, or `gateway`). */
export const REFUND_SOURCE = "refund by ";

/** The coupon reservations a purchase may hold: its current one and those of its earlier orders. */
export function reservationsOf(record: PurchaseRecord): ReservationRef[] {
  const refs = [record.reservation, ...Object.values(record.orders).map((terms) => terms.reservation)];
  const unique = new Map<string, ReservationRef>();
  for (const ref of refs) if (ref) unique.set(`${ref.couponId}:${ref.slot}:${ref.userSlot}`, ref);
  return [...unique.values()];
}

const purchaseKey = (id: string) => ["purchases", id];
const byUserKey = (userId: string, id: string) => ["purchases_by_user", userId, id];
const byToolkitKey = (userId: string, { toolkitId, createdAt, id }: PurchaseRecord) => [
  "purchases_by_user_toolkit",
  userId,
  toolkitId,
  createdAt,
  id,
];
const byOrderKey = (orderId: string) => ["purchases_by_order", orderId];
const pendingKey = (userId: string, toolkitId: string) => ["purchase_pending", userId, toolkitId];
const ownedKey = (userId: string, toolkitId: string) => ["purchase_owned", userId, toolkitId];
const unsettledKey = (id: string) => ["purchases_unsettled", id];
const orderKey = (id: string, orderId: string) => ["purchase_orders", id, orderId];

/**
 * Orders kept on a purchase record (docs/decisions.md, Toolkits and payments, "A purchase record stays small"): each
 * checkout started again adds one, and KV refuses a value over 64 KiB; 20 orders with their history are about 8.5 KB.
 */
export const ORDERS_KEPT = 20;
/** History entries kept on a purchase record, the latest: a checkout started again adds one (about 70 bytes). */
export const HISTORY_KEPT = 50;

/**
 * `orders` of purchase `id` with the latest `ORDERS_KEPT` kept (the order of the object's keys: oldest first); adds to
 * `op` the writes of the older ones under their own keys, where `orderTermsOf` finds them when such an order is paid.
 */
export function keptOrders(
  op: Deno.AtomicOperation,
  { id, orders }: { id: string; orders: Record<string, OrderTerms> },
): Record<string, OrderTerms> {
  const entries = Object.entries(orders);
  for (const [orderId, terms] of entries.slice(0, -ORDERS_KEPT)) op.set(orderKey(id, orderId), terms);
  return Object.fromEntries(entries.slice(-ORDERS_KEPT));
}

/** The terms `record` offered gateway order `orderId` with (on the record, else kept apart); undefined when none. */
export async function orderTermsOf(
  kv: Deno.Kv,
  record: PurchaseRecord,
  orderId: string,
): Promise<OrderTerms | undefined> {
  if (Object.hasOwn(record.orders, orderId)) return record.orders[orderId];
  return (await kv.get<OrderTerms>(orderKey(record.id, orderId))).value ?? undefined;
}

/** A purchase by id with its entry for an atomic check. */
export async function getPurchaseEntry(kv: Deno.Kv, id: string): Promise<Deno.KvEntryMaybe<PurchaseRecord>> {
  return await kv.get<PurchaseRecord>(purchaseKey(id));
}

/** The purchases `ids`, in their order (null for one not stored), read 10 keys a call (`getManyChunked`). */
export async function getPurchaseRecords(kv: Deno.Kv, ids: readonly string[]): Promise<(PurchaseRecord | null)[]> {
  return (await getManyChunked<PurchaseRecord>(kv, ids.map(purchaseKey))).map((entry) => entry.value);
}

/** The purchase a gateway order belongs to, or null. */
export async function purchaseIdByOrder(kv: Deno.Kv, orderId: string): Promise<string | null> {
  if (orderId.length > 200) return null;
  return (await kv.get<string>(byOrderKey(orderId))).value;
}

/** The entries that guard a user's checkout of a toolkit: the pending and the owned marker. */
export async function checkoutGuards(kv: Deno.Kv, userId: string, toolkitId: string) {
  const [pending, owned] = await kv.getMany<[string, string]>([
    pendingKey(userId, toolkitId),
    ownedKey(userId, toolkitId),
  ]);
  const pendingPurchase = pending.value ? await getPurchaseEntry(kv, pending.value) : null;
  return { pending, owned, pendingPurchase: pendingPurchase?.value ? pendingPurchase : null };
}

/** The marker of `userId`'s paid purchase of `toolkitId` (its value the purchase id, null when none), for a check. */
export async function ownedEntry(kv: Deno.Kv, userId: string, toolkitId: string): Promise<Deno.KvEntryMaybe<string>> {
  return await kv.get<string>(ownedKey(userId, toolkitId));
}

/**
 * A paid purchase of `record`'s toolkit by its buyer other than `record`, with its entry for a check, or null. There
 * is one only in data from before a payment of a toolkit the buyer owned already was owed back (docs/decisions.md,
 * Toolkits and payments, "One paid purchase per toolkit and buyer"): a refund of one of the two then leaves the
 * toolkit to the other.
 */
export async function otherPaidPurchase(
  kv: Deno.Kv,
  record: BuyerPurchase,
): Promise<Deno.KvEntry<PurchaseRecord> | null> {
  const entries = await toolkitPurchaseEntries(kv, { userId: record.userId, toolkitId: record.toolkitId });
  return entries.find((entry) => entry.value.id !== record.id && entry.value.paymentStatus === "paid") ?? null;
}

/**
 * `userId`'s latest purchase of `toolkitId` with its entry for a check when its payment failed, else null: the next
 * checkout takes it up again rather than adding a purchase (docs/decisions.md, Toolkits and payments, "A failed
 * checkout is taken up again"). One entry and one record once the `purchase-toolkit-index` job is done
 * (`toolkitPurchaseEntries`).
 */
export async function failedCheckoutEntry(
  kv: Deno.Kv,
  userId: string,
  toolkitId: string,
): Promise<Deno.KvEntry<BuyerPurchase> | null> {
  const [latest] = await toolkitPurchaseEntries(kv, { userId, toolkitId, limit: 1 });
  return latest?.value.paymentStatus === "failed" && latest.value.userId === userId
    ? latest as Deno.KvEntry<BuyerPurchase>
    : null;
}

/** True when `userId` has a paid purchase of `toolkitId`. */
export async function hasPurchased(kv: Deno.Kv, userId: string, toolkitId: string): Promise<boolean> {
  return (await kv.get(ownedKey(userId, toolkitId))).value !== null;
}

/** The toolkits `userId` has paid for (deleted ones included), by the id of the granting purchase. */
export async function ownedToolkitIds(kv: Deno.Kv, userId: string): Promise<string[]> {
  const ids: string[] = [];
  for await (const entry of kv.list({ prefix: ["purchase_owned", userId] })) ids.push(String(entry.key[2]));
  return ids;
}

/** A user's purchases, newest first. */
export async function listPurchaseRecords(kv: Deno.Kv, userId: string): Promise<PurchaseRecord[]> {
  const ids: string[] = [];
  for await (const entry of kv.list<string>({ prefix: ["purchases_by_user", userId] })) ids.push(entry.value);
  const records = (await getManyChunked<PurchaseRecord>(kv, ids.map(purchaseKey))).flatMap(({ value }) =>
    value ? [value] : []
  );
  return records.sort((a, b) => b.createdAt.localeCompare(a.createdAt) || b.id.localeCompare(a.id));
}

/** Where the `purchase-toolkit-index` backfill stands (`BackfillProgress`): fixed for good. */
export const TOOLKIT_INDEX_PROGRESS: Deno.KvKey = ["purchases_meta", "user_toolkit_index"];

/**
 * `userId`'s purchases of `toolkitId` with their entries, newest first (by `createdAt`, then id, as
 * `listPurchaseRecords`), at most `limit` (all when not given): a reverse list of their entries by buyer and toolkit,
 * then their records by key, so what it reads grows with the buyer's purchases of this toolkit only (docs/decisions.md,
 * Toolkits and payments, "A buyer's purchases of one toolkit"). Until the `purchase-toolkit-index` job is done
 * (`backfillDone`), every purchase of the buyer is read instead, as before, so a purchase made before the index is not
 * missed.
 */
async function toolkitPurchaseEntries(
  kv: Deno.Kv,
  { userId, toolkitId, limit }: { userId: string; toolkitId: string; limit?: number },
): Promise<Deno.KvEntry<PurchaseRecord>[]> {
  const ids: string[] = [];
  const indexed = await backfillDone(kv, TOOLKIT_INDEX_PROGRESS);
  const selector = {
    prefix: indexed ? ["purchases_by_user_toolkit", userId, toolkitId] : ["purchases_by_user", userId],
  };
  for await (const entry of kv.list<string>(selector, { reverse: true, limit: indexed ? limit : undefined })) {
    ids.push(entry.value);
  }
  const entries = (await getManyChunked<PurchaseRecord>(kv, ids.map(purchaseKey))).filter((entry) =>
    entry.value?.toolkitId === toolkitId
  ) as Deno.KvEntry<PurchaseRecord>[];
  entries.sort((a, b) => b.value.createdAt.localeCompare(a.value.createdAt) || b.value.id.localeCompare(a.value.id));
  return entries.slice(0, limit);
}

/**
 * `userId`'s purchases of `toolkitId`, newest first, at most `limit` (all when not given): their entries by buyer and
 * toolkit, then their records, whatever else the buyer bought (`toolkitPurchaseEntries`).
 */
export async function purchasesOfToolkit(
  kv: Deno.Kv,
  options: { userId: string; toolkitId: string; limit?: number },
): Promise<PurchaseRecord[]> {
  return (await toolkitPurchaseEntries(kv, options)).map((entry) => entry.value);
}

/** Purchases taken per round of `forgetBuyer`. */
const FORGET_BATCH = 50;

/**
 * Keeps every purchase of `userId` without its buyer (account deletion; docs/decisions.md, Data rights): the record
 * stays for accounting with `userId` null and a history entry, the reason of the buyer's refund request is cleared
 * (the request and its answer stay), a pending checkout becomes failed (a payment that still arrives is owed back),
 * and the buyer's indexes (`purchases_by_user`, `purchases_by_user_toolkit`, the pending and owned markers) and coupon
 * slots go. It works
 * `FORGET_BATCH` purchases at a time: their records read at once (`getManyChunked`), each purchase's write checked
 * against what it read, the writes packed into few commits (`commitPacked`); a purchase changed meanwhile is read again
 * and written alone. After each batch it calls `renew` (the deletion's lease), whose throw stops it. A purchase whose
 * index is gone is done, so running it again after a crash finishes the rest.
 * @throws what `renew` throws.
 */
export async function forgetBuyer(
  kv: Deno.Kv,
  userId: string,
  { renew }: { renew?: () => Promise<void> } = {},
): Promise<void> {
  for (;;) {
    const ids: string[] = [];
    const selector = { prefix: ["purchases_by_user", userId] };
    for await (const entry of kv.list<string>(selector, { limit: FORGET_BATCH, batchSize: FORGET_BATCH })) {
      ids.push(entry.value);
    }
    if (ids.length === 0) return;
    const entries = await getManyChunked<PurchaseRecord>(kv, ids.map(purchaseKey));
    const units = await Promise.all(ids.map(async (id, i) => {
      const unit = new WriteUnit();
      await forgetBuyerOfOps(kv, unit.op, { userId, id, entry: entries[i] });
      return unit;
    }));
    const written = await commitPacked(kv, units);
    for (const [i, id] of ids.entries()) {
      if (written[i]) continue;
      for (;;) {
        const op = kv.atomic();
        await forgetBuyerOfOps(kv, op, { userId, id, entry: await getPurchaseEntry(kv, id) });
        if ((await op.commit()).ok) break;
      }
    }
    await renew?.();
  }
}

/**
 * Adds to `op` the write that keeps purchase `id` (its `entry` as read, checked) without its buyer `userId` and drops
 * the buyer's index entry, markers and coupon slots of it (`forgetBuyer`).
 */
async function forgetBuyerOfOps(
  kv: Deno.Kv,
  op: Deno.AtomicOperation,
  { userId, id, entry }: { userId: string; id: string; entry: Deno.KvEntryMaybe<PurchaseRecord> },
): Promise<void> {
  op.check(entry).delete(byUserKey(userId, id));
  const record = entry.value;
  if (!record || record.userId !== userId) return;
  op.delete(byToolkitKey(userId, record));
  const at = new Date().toISOString();
  const status = record.paymentStatus === "pending" ? "failed" : record.paymentStatus;
  putPurchaseOps(op, record, {
    ...record,
    userId: null,
    paymentStatus: status,
    // The buyer's own words go with them; the request itself stays (an open one can still be refunded).
    ...record.refundRequest ? { refundRequest: { ...record.refundRequest, reason: null } } : {},
    history: [...record.history, { status, at, source: "account deleted" }],
    updatedAt: at,
  });
  const [pending, owned] = await kv.getMany<[string, string]>([
    pendingKey(userId, record.toolkitId),
    ownedKey(userId, record.toolkitId),
  ]);
  for (const marker of [pending, owned]) if (marker.value === id) op.check(marker).delete(marker.key);
  await Promise.all(reservationsOf(record).map((ref) => forgetBuyerOps(kv, op, { ref, userId, purchaseId: id })));
}

/**
 * Adds the writes of `record` (read as `before`) and its indexes to `op` (by buyer, by buyer and toolkit, by order): a
 * pending purchase holds the pending marker; a paid one takes the owned marker unless `owned` (the marker as read)
 * already grants the toolkit, and releases `pending` when it points here; a failed one releases `pending`; a refunded
 * one gives up the owned marker when it held it, to `heir` (the id of another paid purchase of the same toolkit by the
 * same buyer, `otherPaidPurchase`) when there is one.
 * The caller has checked the entries it passes.
 */
export function writePurchaseOps(
  op: Deno.AtomicOperation,
  { before, record, guards, heir = null }: {
    before: PurchaseRecord | null;
    record: BuyerPurchase;
    guards: { pending: Deno.KvEntryMaybe<string>; owned: Deno.KvEntryMaybe<string> };
    heir?: string | null;
  },
): void {
  putPurchaseOps(op, before, record);
  op.set(byUserKey(record.userId, record.id), record.id);
  // A checkout started again moves `createdAt`: the entry by toolkit moves with it.
  if (before?.userId && before.createdAt !== record.createdAt) op.delete(byToolkitKey(before.userId, before));
  op.set(byToolkitKey(record.userId, record), record.id);
  if (record.gatewayOrderId) op.set(byOrderKey(record.gatewayOrderId), record.id);
  const pending = pendingKey(record.userId, record.toolkitId);
  if (record.paymentStatus === "pending") op.set(pending, record.id);
  else if (guards.pending.value === record.id) op.delete(pending);
  if (record.paymentStatus === "paid" && guards.owned.value === null) {
    op.set(ownedKey(record.userId, record.toolkitId), record.id);
  }
  if (record.paymentStatus === "refunded" && guards.owned.value === record.id) {
    if (heir) op.set(ownedKey(record.userId, record.toolkitId), heir);
    else op.delete(ownedKey(record.userId, record.toolkitId));
  }
  if (record.paymentStatus === "pending" && record.gatewayOrderId) {
    op.set(unsettledKey(record.id), { orderId: record.gatewayOrderId, orderedAt: record.updatedAt });
  } else if (settledPaid(record) && openOrders(record).length === 0) {
    op.delete(unsettledKey(record.id));
  }
}

/** True when `record` was paid, refunded since or not: no payment or failure moves it again. */
export function settledPaid(record: PurchaseRecord): boolean {
  return record.paymentStatus === "paid" || record.paymentStatus === "refunded";
}

/**
 * The orders on `record` (its latest `ORDERS_KEPT`, oldest first) whose payment may still come unheard of
 * (docs/decisions.md, Money operations, "Reconciliation"): while it is not paid, its current order and every other one
 * whose payment is not kept in `extraPayments`; once paid or refunded, every order but the one that paid it and those
 * kept in `extraPayments`.
 */
export function openOrders(record: PurchaseRecord): string[] {
  const known = new Set(record.extraPayments?.map((payment) => payment.orderId));
  if (settledPaid(record) && record.gatewayOrderId) known.add(record.gatewayOrderId);
  else if (record.gatewayOrderId) known.delete(record.gatewayOrderId);
  return Object.keys(record.orders).filter((orderId) => !known.has(orderId));
}

/**
 * A purchase one of whose orders may still be paid without us hearing of it (`openOrders`): reconciliation's work
 * list.
 */
export interface UnsettledPurchase {
  purchaseId: string;
  orderId: string;
  /** When its latest order was made (ISO). */
  orderedAt: string;
  /** Of the work list's entry as read. */
  versionstamp: string;
}

/**
 * Whether purchase `id` is on reconciliation's work list (`purchases_unsettled`): unpaid since an order reconciliation
 * still asks about (7 days), or paid with an open order.
 */
export async function isUnsettled(kv: Deno.Kv, id: string): Promise<boolean> {
  return (await kv.get(unsettledKey(id))).value !== null;
}

/** Every purchase on reconciliation's work list: not paid since its latest order was made, or with an open order. */
export async function unsettledPurchases(kv: Deno.Kv): Promise<UnsettledPurchase[]> {
  const found: UnsettledPurchase[] = [];
  for await (
    const entry of kv.list<{ orderId: string; orderedAt: string }>({ prefix: ["purchases_unsettled"] }, {
      batchSize: 500,
    })
  ) {
    found.push({ purchaseId: String(entry.key[1]), ...entry.value, versionstamp: entry.versionstamp });
  }
  return found;
}

/** How many work-list entries `forgetUnsettled` drops in one write. */
const UNSETTLED_DROP_BATCH = 100;

/**
 * Drops `items` from reconciliation's work list (the latest order is too old to be paid any more, or no order is left
 * to ask about), `UNSETTLED_DROP_BATCH` in one write, except an entry that changed since it was read (the buyer checked out
 * again: the new order stays on the list); a write that finds one changed drops the others of its batch one by one.
 */
export async function forgetUnsettled(kv: Deno.Kv, items: readonly UnsettledPurchase[]): Promise<void> {
  const drop = (op: Deno.AtomicOperation, item: UnsettledPurchase) => {
    const key = unsettledKey(item.purchaseId);
    return op.check({ key, versionstamp: item.versionstamp }).delete(key);
  };
  for (let i = 0; i < items.length; i += UNSETTLED_DROP_BATCH) {
    const batch = items.slice(i, i + UNSETTLED_DROP_BATCH);
    const op = kv.atomic();
    for (const item of batch) drop(op, item);
    if ((await op.commit()).ok || batch.length === 1) continue;
    for (const item of batch) await drop(kv.atomic(), item).commit();
  }
}

/**
 * Adds to `op` the write of `record` (read as `before`, null when new), with its latest `HISTORY_KEPT` history
 * entries, and the dashboard counters' change; the caller checks the entry it read.
 */
export function putPurchaseOps(op: Deno.AtomicOperation, before: PurchaseRecord | null, record: PurchaseRecord): void {
  const written = record.gatewayPartialRefunds?.length ? { ...record, partsCounted: true as const } : record;
  op.set(purchaseKey(record.id), { ...written, history: record.history.slice(-HISTORY_KEPT) });
  countOps(op, storedPurchaseCounts(before), purchaseCounts(written));
}

/**
 * The purchases whose gateway partial refunds were written before the dashboard's counters counted them, written again
 * as they are (`putPurchaseOps` moves its counters and marks the record): read 500 a list call, written 25 a commit (a
 * record with its history is at most a few kilobytes).
 */
const PARTS_COUNTED_BACKFILL: Backfill<PurchaseRecord> = {
  progressKey: ["purchases_meta", "parts_counted"],
  prefix: ["purchases"],
  page: 500,
  perCommit: 25,
  needs: (record) => Boolean(record.gatewayPartialRefunds?.length) && !record.partsCounted,
  write: (op, { value }) => putPurchaseOps(op, value, value),
};

/**
 * Brings the dashboard's counters in line, once, for the purchases whose gateway partial refunds were written before
 * the counters counted them (docs/decisions.md, Money operations, "The dashboard's counters"; `runBackfill`, Background
 * work, "Index backfills"): a record written meanwhile was brought in line by that write. Takes a page at least, then
 * stops once `budgetMs` (ms) have passed. Returns how many records this run wrote; nothing once done.
 */
export async function countExistingParts(
  { kv, requests }: Pick<JobContext, "kv" | "requests">,
  budgetMs = BACKFILL_BUDGET_MS,
): Promise<number> {
  const run = { giveWay: () => requests.giveWay(), until: performance.now() + budgetMs };
  return (await runBackfill(kv, PARTS_COUNTED_BACKFILL, run)).written;
}

/** The `purchase-counts` job: every 5 minutes until the purchases written before parts counted are counted again. */
export const purchaseCountsJob: Job = {
  name: "purchase-counts",
  schedule: "*/5 * * * *",
  run: async (ctx) => ({ written: await countExistingParts(ctx) }),
};

/**
 * The purchases made before the index by buyer and toolkit, indexed (docs/decisions.md, Background work, "Index
 * backfills"): 500 records a list call, 50 written a commit (one entry each); a purchase kept without its buyer (account
 * deleted) needs none.
 */
const TOOLKIT_INDEX_BACKFILL: Backfill<PurchaseRecord> = {
  progressKey: TOOLKIT_INDEX_PROGRESS,
  prefix: ["purchases"],
  page: 500,
  perCommit: 50,
  tally: true,
  needs: (record) => record.userId !== null,
  write: (op, { value }) => {
    op.set(byToolkitKey(value.userId!, value), value.id);
  },
};

/**
 * The `purchase-toolkit-index` job: every 5 minutes until done, it indexes the purchases made before the index by
 * buyer and toolkit (`runBackfill`), which `purchasesOfToolkit` reads once it is done; answers how many purchases a run
 * walked (then one read a run).
 */
export const purchaseToolkitIndexJob: Job = {
  name: "purchase-toolkit-index",
  schedule: "*/5 * * * *",
  run: async (ctx) => ({ indexed: (await runBackfill(ctx.kv, TOOLKIT_INDEX_BACKFILL, ctx.requests)).read }),
};
