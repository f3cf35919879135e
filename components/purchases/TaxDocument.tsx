/**
 * The pieces the receipt (tax invoice) page and a credit note's page share (docs/decisions.md, Money operations,
 * "Receipts"; docs/decisions.md, Money operations, "Credit notes"): a row of amounts, a document's number and date
 * lines, the seller and the buyer, and a credit note's figures. Money in paise.
 */
import { useT } from "@/lib/i18n/context.ts";
import { toRupees } from "@/lib/money.ts";
import type { CreditNoteView, ReceiptView } from "@/lib/purchases/receipts.ts";
import { GST_RATE_PERCENT } from "@/lib/purchases/gst.ts";

/** One line of a document's table: its label and amount (kept on one line), bold for a total. */
export function Row({ label, value, strong }: { label: string; value: string; strong?: boolean }) {
  return (
    <tr class={strong ? "font-semibold" : ""}>
      <th scope="row" class="py-1.5 pr-4 text-left font-normal text-slate-700">{label}</th>
      <td class="whitespace-nowrap py-1.5 text-right tabular-nums">{value}</td>
    </tr>
  );
}

/** A document's "No." and "Date:" lines: the receipt's, and a credit note's. */
export function NumberAndDate({ number, issuedAt }: { number: string; issuedAt: string }) {
  const t = useT();
  return (
    <>
      <p class="text-slate-700">
        {t.rich("toolkits.receipt.number", {
          number,
          mono: (chunks) => <span class="font-mono font-semibold text-slate-900">{chunks}</span>,
        })}
      </p>
      <p class="text-slate-700">
        {t.rich("toolkits.receipt.date", {
          date: t.date(issuedAt),
          time: (chunks) => <time datetime={issuedAt}>{chunks}</time>,
        })}
      </p>
    </>
  );
}

/** The seller (with their GSTIN when they have one) and the buyer, as the receipt was issued. */
export function Parties({ seller, receipt }: { seller: ReceiptView["seller"]; receipt: ReceiptView["receipt"] }) {
  const t = useT();
  return (
    <div class="grid gap-6 sm:grid-cols-2 print:grid-cols-2">
      <section aria-labelledby="seller-heading">
        <h2 id="seller-heading" class="text-sm font-semibold uppercase tracking-wide text-slate-700">
          {t("toolkits.receipt.seller")}
        </h2>
        <p class="font-semibold text-slate-900">{seller.name ?? "Career Community"}</p>
        {seller.address && <p class="text-slate-800">{seller.address}</p>}
        {seller.state && <p class="text-slate-800">{t("toolkits.receipt.state", { state: seller.state })}</p>}
        {seller.gstin && (
          <p class="text-slate-800">
            {t.rich("toolkits.receipt.gstin", {
              id: seller.gstin,
              mono: (chunks) => <span class="font-mono">{chunks}</span>,
            })}
          </p>
        )}
      </section>
      <section aria-labelledby="buyer-heading">
        <h2 id="buyer-heading" class="text-sm font-semibold uppercase tracking-wide text-slate-700">
          {t("toolkits.receipt.billedTo")}
        </h2>
        <p class="font-semibold text-slate-900">{receipt.name || t("toolkits.receipt.deletedUser")}</p>
        {receipt.email && <p class="text-slate-800">{receipt.email}</p>}
        {receipt.buyerState && (
          <p class="text-slate-800">{t("toolkits.receipt.state", { state: receipt.buyerState })}</p>
        )}
      </section>
    </div>
  );
}

/**
 * A credit note's lines: the invoice it is against and the refund it is for, "issued late" when it was, and the
 * taxable value, the GST (CGST + SGST, or IGST) and the amount credited, each taken back.
 */
export function CreditNoteFigures({ note, invoice }: { note: CreditNoteView; invoice: ReceiptView["receipt"] }) {
  const t = useT();
  const money = (paise: number) => `− ${t.rupees(toRupees(paise))}`;
  const half = GST_RATE_PERCENT / 2;
  return (
    <>
      <p class="text-slate-700">
        {t("toolkits.receipt.creditNoteAgainst", {
          number: invoice.number,
          date: t.date(invoice.issuedAt),
          refundDate: t.date(note.refundedAt),
        })}
      </p>
      {note.late && <p class="text-slate-700">{t("toolkits.creditNote.late")}</p>}
      <table class="w-full text-sm">
        <tbody class="divide-y divide-slate-200">
          <Row label={t("toolkits.receipt.taxable")} value={money(note.gst.taxable)} />
          {!note.gst.interState && <Row label={`CGST ${half} %`} value={money(note.gst.cgst)} />}
          {!note.gst.interState && <Row label={`SGST ${half} %`} value={money(note.gst.sgst)} />}
          {note.gst.interState && <Row label={`IGST ${GST_RATE_PERCENT} %`} value={money(note.gst.igst)} />}
          <Row label={t("toolkits.receipt.amountCredited")} value={money(note.amount)} strong />
        </tbody>
      </table>
    </>
  );
}
