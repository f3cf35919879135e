/**
 * Credit notes issued late (docs/decisions.md, Money operations, "Credit notes issued late"): refunds of a tax invoice
 * made before credit notes were issued get theirs, dated when issued and marked `late`, once, by the
 * `credit-notes-late` job walking the purchases (`runBackfill`, Background work, "Index backfills"); those of an
 * invoice past GST's time limit get none, but why (`creditNoteLapsed`; Money operations, "Time limit of credit notes").
 *
 * Keys (owned by this module only):
 * - `["purchases_meta", "late_credit_notes"]` → `{after, done}`: where the walk stands
 */
import type { Job, JobContext } from "@/lib/jobs/job.ts";
import { type Backfill, BACKFILL_BUDGET_MS, runBackfill } from "@/lib/kv/backfill.ts";
import { creditedOf, type GatewayPartialRefund, type PurchaseRecord, putPurchaseOps } from "./purchases.ts";
import {
  creditNoteInTime,
  creditNoteLastDay,
  issueCreditNotesOps,
  isTaxInvoice,
  type SellerConfig,
} from "./receipts.ts";

/**
 * The parts of `record`'s own payment refunded at the gateway (those of an extra payment left out) that have no credit
 * note nor a reason for none, in order.
 */
function partsWithout(record: PurchaseRecord): GatewayPartialRefund[] {
  const extras = new Set((record.extraPayments ?? []).map((payment) => payment.paymentId));
  return (record.gatewayPartialRefunds ?? []).filter((part) =>
    !extras.has(part.paymentId) && !part.creditNote && !part.creditNoteLapsed
  );
}

/**
 * Whether `record` has a refund of its own payment that its tax invoice (the seller as issued, else `seller`) has no
 * credit note nor a reason for none for: a part refunded at the gateway, or the refund (which would credit all that
 * the notes before it do not).
 */
export function needsLateCreditNotes(record: PurchaseRecord, seller: SellerConfig | undefined): boolean {
  if (!record.receipt || !isTaxInvoice(record.receipt, seller)) return false;
  if (record.refund?.creditNote || record.refund?.creditNoteLapsed) return false;
  return Boolean(record.refund) || partsWithout(record).length > 0;
}

/**
 * The walk of the purchases that issues the late credit notes at `at` (ISO): one purchase a commit, its notes numbered
 * in one take of the sequence (`issueCreditNotesOps`, checked as read): each part without one for its amount, then the
 * refund for what is left of all it counts. Past GST's time limit for the purchase's invoice (`creditNoteInTime`),
 * each of them is kept with why it has none (`creditNoteLapsed`) and no number is taken.
 */
function lateCreditNotes(kv: Deno.Kv, seller: SellerConfig | undefined, at: string): Backfill<PurchaseRecord> {
  return {
    progressKey: ["purchases_meta", "late_credit_notes"],
    prefix: ["purchases"],
    page: 500,
    perCommit: 1,
    needs: (record) => needsLateCreditNotes(record, seller),
    write: async (op, { value: record }) => {
      const parts = partsWithout(record);
      const credited = creditedOf(record);
      const partsSum = parts.reduce((sum, part) => sum + part.amount, 0);
      const rest = record.refund ? record.refund.amount - credited - partsSum : 0;
      const issuedAt = record.receipt!.issuedAt;
      const lapsed = creditNoteInTime(issuedAt, at) ? null : { lastDay: creditNoteLastDay(issuedAt) };
      const amounts = [...parts.map((part) => part.amount), ...rest > 0 ? [rest] : []];
      const notes = lapsed
        ? []
        : await issueCreditNotesOps(kv, op, { at, amounts, creditedBefore: credited, late: true });
      const outcomeOf = (i: number) => lapsed ? { creditNoteLapsed: lapsed } : { creditNote: notes[i] };
      const partAt = new Map(parts.map((part, i) => [part.id, i]));
      putPurchaseOps(op, record, {
        ...record,
        gatewayPartialRefunds: record.gatewayPartialRefunds?.map((part) =>
          partAt.has(part.id) ? { ...part, ...outcomeOf(partAt.get(part.id)!) } : part
        ),
        ...record.refund && rest > 0 ? { refund: { ...record.refund, ...outcomeOf(parts.length) } } : {},
      });
    },
  };
}

/**
 * Issues, at `now`, the credit notes of refunds of tax invoices made before credit notes were (see the module
 * docstring), as the seller of the configuration names it for receipts that kept none: takes a page at least, then
 * stops once `budgetMs` (ms) have passed; the next run goes on from there. Returns how many purchases this run gave
 * notes to; nothing once done.
 */
export async function issueLateCreditNotes(
  { kv, requests, config, now }: Pick<JobContext, "kv" | "requests" | "config" | "now">,
  budgetMs = BACKFILL_BUDGET_MS,
): Promise<number> {
  const run = { giveWay: () => requests.giveWay(), until: performance.now() + budgetMs };
  return (await runBackfill(kv, lateCreditNotes(kv, config.seller, now.toISOString()), run)).written;
}

/** The `credit-notes-late` job: every 5 minutes until the refunds made before credit notes have theirs. */
export const creditNotesLateJob: Job = {
  name: "credit-notes-late",
  schedule: "*/5 * * * *",
  run: async (ctx) => ({ written: await issueLateCreditNotes(ctx) }),
};
