/**
 * Receipts and tax invoices of paid purchases (docs/decisions.md, Money operations, "Receipts").
 *
 * - Numbers: `RCPT-<yyyy>-<n>`, `yyyy` the year the financial year (April–March, IST) starts, `n` from 1 per
 *   financial year. The number is taken in the same atomic write that marks the purchase paid, checked against
 *   the sequence as read, so two confirmations never share a number and a lost race takes none: numbers are
 *   never reused or skipped.
 * - GST: with a seller GSTIN the amount paid includes 18 % GST. In paise: taxable value = round(amount × 100 / 118),
 *   tax = amount − taxable value (so taxable + tax = amount exactly); intra-state (or the buyer's state unknown)
 *   the tax is CGST + SGST, CGST = round(tax / 2) and SGST the rest; inter-state it is all IGST.
 * - Place of supply: the buyer's state as `place_of_supply.ts` finds it when the receipt is issued (kept with it),
 *   else the seller's state (docs/decisions.md, Money operations, "Place of supply").
 *
 * - Credit notes: each refund of a purchase whose receipt is a tax invoice, a part refunded at the gateway too, issues
 *   a credit note for what it returned (`CN-<yyyy>-<n>`, its own sequence per financial year, taken in the refund's
 *   write as receipt numbers are), against the invoice, with the GST split of that amount under the invoice's place of
 *   supply, taken so that the invoice's credit notes add up to its own split at most (`creditNoteSplit`;
 *   docs/decisions.md, Money operations, "Credit notes").
 *
 * Keys (owned by this module only):
 * - `["receipt_sequence", yyyy]` → the last number issued in that financial year
 * - `["credit_note_sequence", yyyy]` → the last credit note number issued in that financial year
 */
import { istDayOf } from "@/lib/dates.ts";
import { getOnboardingProfile } from "@/lib/onboarding/onboarding.ts";
import type { Config } from "@/app.config.ts";
import { NotFoundError } from "@/lib/errors.ts";
import type { User } from "@/lib/users/users.ts";
import type { IndianState } from "./indian_states.ts";
import { buyerStateOf, sellerStateOf, stateOfPlace } from "./place_of_supply.ts";
import {
  type CreditNote,
  creditNotesOf,
  getPurchaseEntry,
  type IssuedCreditNote,
  type PurchaseRecord,
  type ReceiptRecord,
  type RefundedPart,
  refundedPartsOf,
  type RefundRequest,
} from "./purchases.ts";
import { REFUSALS } from "@/lib/refusals.ts";
import { isRefundable } from "./refund_policy.ts";
import { GST_RATE_PERCENT } from "./gst.ts";
import { isAdmin } from "@/lib/users/roles.ts";

/** The year (yyyy) the financial year of moment `at` (ISO) starts, April to March in IST. */
export function financialYearOf(at: string): number {
  const day = istDayOf(at)!;
  const year = Number(day.slice(0, 4));
  return Number(day.slice(5, 7)) >= 4 ? year : year - 1;
}

const sequenceKey = (year: number): Deno.KvKey => ["receipt_sequence", year];
const creditSequenceKey = (year: number): Deno.KvKey => ["credit_note_sequence", year];

/**
 * Adds to `op` the taking of the next receipt number of the financial year of `at`, checked against the sequence
 * as read (a lost race is retried by the caller's loop), and returns the receipt: issued at `at` by `seller` (kept
 * with the receipt when given) to `buyer` for the toolkit titled `toolkitTitle`, with their state when known: the
 * `checkoutState` they named at checkout, else the one their onboarding location names (`buyerStateOf`).
 */
export async function issueReceiptOps(
  kv: Deno.Kv,
  op: Deno.AtomicOperation,
  { buyer, toolkitTitle, at, seller, checkoutState }: {
    buyer: { id: string; name: string; email: string };
    toolkitTitle: string;
    at: string;
    seller?: SellerConfig;
    checkoutState?: string | null;
  },
): Promise<ReceiptRecord> {
  const year = financialYearOf(at);
  const [sequence, profile] = await Promise.all([
    kv.get<number>(sequenceKey(year)),
    getOnboardingProfile(kv, buyer.id),
  ]);
  const next = (sequence.value ?? 0) + 1;
  op.check(sequence).set(sequence.key, next);
  const buyerState = buyerStateOf({ checkoutState, onboarding: profile })?.name ?? null;
  return {
    number: `RCPT-${year}-${next}`,
    issuedAt: at,
    toolkitTitle,
    name: buyer.name,
    email: buyer.email,
    buyerState,
    ...seller ? { seller } : {},
  };
}

/** Whether `receipt` is a tax invoice: its seller (as issued, else `seller`, the settings of the day) has a GSTIN. */
export function isTaxInvoice(receipt: ReceiptRecord, seller: SellerConfig | undefined): boolean {
  return Boolean((receipt.seller ?? seller)?.gstin);
}

/**
 * Adds to `op` the taking of the next credit note number of the financial year of `at` (ISO), checked against the
 * sequence as read (a lost race is retried by the caller's loop), and returns the credit note: its number, `at`, the
 * `amount` it credits and what the invoice's credit notes before it credited (`creditedBefore`), in paise, and `late`
 * when it is issued for a refund made before credit notes were.
 */
export async function issueCreditNoteOps(
  kv: Deno.Kv,
  op: Deno.AtomicOperation,
  { at, amount, creditedBefore, late }: { at: string; amount: number; creditedBefore: number; late?: boolean },
): Promise<CreditNote> {
  const [note] = await issueCreditNotesOps(kv, op, { at, amounts: [amount], creditedBefore, late });
  return note;
}

/**
 * Adds to `op` the taking of the next numbers of the financial year of `at` (ISO) for credit notes of `amounts` (paise)
 * against one invoice, in turn after its notes that credit `creditedBefore` (paise) together, as `issueCreditNoteOps`
 * does for one; returns the notes, in the order of `amounts`.
 */
export async function issueCreditNotesOps(
  kv: Deno.Kv,
  op: Deno.AtomicOperation,
  { at, amounts, creditedBefore, late }: { at: string; amounts: number[]; creditedBefore: number; late?: boolean },
): Promise<CreditNote[]> {
  const year = financialYearOf(at);
  const sequence = await kv.get<number>(creditSequenceKey(year));
  const last = sequence.value ?? 0;
  op.check(sequence).set(sequence.key, last + amounts.length);
  let credited = creditedBefore;
  return amounts.map((amount, i) => {
    const note = {
      number: `CN-${year}-${last + i + 1}`,
      issuedAt: at,
      amount,
      creditedBefore: credited,
      ...late ? { late: true as const } : {},
    };
    credited += amount;
    return note;
  });
}

/**
 * The last day (`yyyy-mm-dd`, IST) a credit note may be issued against a tax invoice issued at `invoiceIssuedAt` (ISO):
 * 30 November after the end of the financial year of the supply, the invoice's (docs/decisions.md, Money operations,
 * "Time limit of credit notes").
 */
export function creditNoteLastDay(invoiceIssuedAt: string): string {
  return `${financialYearOf(invoiceIssuedAt) + 1}-11-30`;
}

/** Whether a credit note issued at `at` (ISO) against an invoice issued at `invoiceIssuedAt` is in time (`creditNoteLastDay`). */
export function creditNoteInTime(invoiceIssuedAt: string, at: string): boolean {
  return istDayOf(at)! <= creditNoteLastDay(invoiceIssuedAt);
}

/** The GST in an amount, in paise; `interState` when IGST applies. */
export interface GstSplit {
  taxable: number;
  cgst: number;
  sgst: number;
  igst: number;
  interState: boolean;
}

const stateName = (state: string) => state.trim().toLowerCase().replace(/\s+/g, " ");

/**
 * Splits `amountPaise` (GST included) into taxable value and tax (see the module docstring): IGST when both states
 * are known and differ, else CGST + SGST. taxable + cgst + sgst + igst = amountPaise exactly.
 */
export function gstSplit(amountPaise: number, sellerState: string | null, buyerState: string | null): GstSplit {
  const taxable = Math.round(amountPaise * 100 / (100 + GST_RATE_PERCENT));
  const tax = amountPaise - taxable;
  const interState = Boolean(sellerState && buyerState && stateName(sellerState) !== stateName(buyerState));
  if (interState) return { taxable, cgst: 0, sgst: 0, igst: tax, interState };
  const cgst = Math.round(tax / 2);
  return { taxable, cgst, sgst: tax - cgst, igst: 0, interState };
}

/**
 * The GST split a credit note takes back (paise): the split of all that the invoice's credit notes credit up to and
 * including it, less the split of what those before it credit (`gstSplit` of each; both states as for the invoice).
 * Each part of the split only grows with the amount, so every figure is 0 or more, and the credit notes of one invoice
 * add up to the split of what they credit together: to the invoice's own split, to the paisa, when that is all of it.
 */
export function creditNoteSplit(
  { amount, creditedBefore }: { amount: number; creditedBefore: number },
  sellerState: string | null,
  buyerState: string | null,
): GstSplit {
  const upTo = gstSplit(creditedBefore + amount, sellerState, buyerState);
  const before = gstSplit(creditedBefore, sellerState, buyerState);
  return {
    taxable: upTo.taxable - before.taxable,
    cgst: upTo.cgst - before.cgst,
    sgst: upTo.sgst - before.sgst,
    igst: upTo.igst - before.igst,
    interState: upTo.interState,
  };
}

/** A credit note as the receipt page and its own page show it: its figures and GST split, in paise. */
export type CreditNoteView = IssuedCreditNote & { gst: GstSplit };

/** A purchase's receipt as its page shows it; money in paise. */
export interface ReceiptView {
  purchaseId: string;
  /** The toolkit bought (its page is linked from the receipt's). */
  toolkitId: string;
  receipt: ReceiptRecord;
  /** A tax invoice (the seller has a GSTIN), with its split; else a plain receipt. */
  gst: GstSplit | null;
  /** A tax invoice's place of supply (the buyer's state, else the seller's); null on a plain receipt. */
  placeOfSupply: IndianState | null;
  seller: SellerConfig;
  listPricePaise: number;
  discountPaise: number;
  couponCode: string | null;
  amountPaid: number;
  paymentId: string | null;
  orderId: string | null;
  refund: PurchaseRecord["refund"] | null;
  /** The parts of its payment refunded at the gateway (`refundedPartsOf`). */
  refundedParts: RefundedPart[];
  /** The credit notes issued against a tax invoice, in the order they were issued (`creditNotesOf`). */
  creditNotes: CreditNoteView[];
  refundRequest: RefundRequest | null;
  /** The viewer is the buyer and may ask for a refund (`isRefundable`, nothing asked yet). */
  refundAskable: boolean;
}

/** The seller's details of the configuration (docs/decisions.md, Money operations, "Tax invoice"). */
export type SellerConfig = Config["seller"];

/**
 * The receipt page of purchase `purchaseId` for `viewer`: the buyer or an admin. The seller is the one kept with the
 * receipt, else `seller` (the settings of the day).
 * @throws NotFoundError "Receipt not found" for no receipt, or another user's.
 */
export async function receiptFor(
  kv: Deno.Kv,
  { seller, viewer, purchaseId }: { seller: SellerConfig; viewer: User; purchaseId: string },
): Promise<ReceiptView> {
  const record = purchaseId.length <= 100 ? (await getPurchaseEntry(kv, purchaseId)).value : null;
  if (!record?.receipt || (record.userId !== viewer.id && !isAdmin(viewer))) {
    throw new NotFoundError(REFUSALS.receiptNotFound);
  }
  const discountPaise = record.discountPaise ?? 0;
  const issuer = record.receipt.seller ?? seller;
  const sellerState = sellerStateOf(issuer);
  const placeOfSupply = issuer.gstin ? stateOfPlace(record.receipt.buyerState) ?? sellerState : null;
  return {
    purchaseId: record.id,
    toolkitId: record.toolkitId,
    receipt: record.receipt,
    gst: issuer.gstin ? gstSplit(record.amountPaid, sellerState?.name ?? null, placeOfSupply?.name ?? null) : null,
    placeOfSupply,
    seller: issuer,
    listPricePaise: record.listPricePaise ?? record.amountPaid + discountPaise,
    discountPaise,
    couponCode: record.couponCode ?? null,
    amountPaid: record.amountPaid,
    paymentId: record.paymentId,
    orderId: record.gatewayOrderId,
    refund: record.refund ?? null,
    refundedParts: refundedPartsOf(record),
    creditNotes: creditNotesOf(record).map((note) => ({
      ...note,
      gst: creditNoteSplit(note, sellerState?.name ?? null, placeOfSupply?.name ?? null),
    })),
    refundRequest: record.refundRequest ?? null,
    refundAskable: record.userId === viewer.id && isRefundable(record) && !record.refundRequest,
  };
}

/** A credit note as its own page shows it: the receipt (tax invoice) it is against, and the note. */
export interface CreditNotePage {
  invoice: ReceiptView;
  note: CreditNoteView;
}

/**
 * The page of credit note `number` of purchase `purchaseId` for `viewer`, the buyer or an admin, as `receiptFor` reads
 * the invoice it is against (docs/decisions.md, Money operations, "Credit notes").
 * @throws NotFoundError "Receipt not found" as `receiptFor`; "Credit note not found" for no such note of the purchase.
 */
export async function creditNoteFor(
  kv: Deno.Kv,
  { seller, viewer, purchaseId, number }: { seller: SellerConfig; viewer: User; purchaseId: string; number: string },
): Promise<CreditNotePage> {
  const invoice = await receiptFor(kv, { seller, viewer, purchaseId });
  const note = invoice.creditNotes.find((found) => found.number === number);
  if (!note) throw new NotFoundError(REFUSALS.creditNoteNotFound);
  return { invoice, note };
}
