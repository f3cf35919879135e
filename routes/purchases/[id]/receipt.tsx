/**
 * `/purchases/{id}/receipt`: the printable receipt of a paid purchase, for its buyer or an admin (others 404, a
 * guest is sent to sign in), with links back to "My toolkits" and to the toolkit (not printed), and the buyer's refund
 * request or its "Ask for a refund" form (`RefundRequestPanel`). With `SELLER_GSTIN` set it is a tax invoice with the GST split and
 * the place of supply, and once refunded, in full or in parts, it shows each credit note issued against it with a link
 * to the note's own page (docs/decisions.md, Money
 * operations, "Receipts"; docs/decisions.md, Money operations, "Place of supply"; docs/decisions.md, Money operations,
 * "Credit notes").
 */
import { define } from "@/lib/platform/define.ts";
import { PageHead } from "@/components/PageHead.tsx";
import { assertSignedIn } from "@/lib/http/guards.ts";
import { toRupees } from "@/lib/money.ts";
import { useT } from "@/lib/i18n/context.ts";
import { type CreditNoteView, receiptFor, type ReceiptView } from "@/lib/purchases/receipts.ts";
import { GST_RATE_PERCENT } from "@/lib/purchases/gst.ts";
import { CreditNoteFigures, NumberAndDate, Parties, Row } from "@/components/purchases/TaxDocument.tsx";
import { placeOfSupplyLabel } from "@/lib/purchases/place_of_supply.ts";
import PrintButton from "@/islands/PrintButton.tsx";
import { RefundRequestPanel } from "@/components/purchases/RefundRequestPanel.tsx";
import { BuyerRefundLine } from "@/components/purchases/BuyerRefundLine.tsx";

export const handler = define.handlers<ReceiptView>({
  async GET(_req, ctx) {
    assertSignedIn(ctx.state);
    const { kv, config } = ctx.state.services;
    return ctx.render(
      await receiptFor(kv, { seller: config.seller, viewer: ctx.state.user, purchaseId: ctx.params.id }),
    );
  },
});

/** Each credit note issued against the invoice, printed with it, with a link to its own page (not printed). */
function CreditNoteSection({ note, invoice }: { note: CreditNoteView; invoice: ReceiptView["receipt"] }) {
  const t = useT();
  const heading = `credit-note-${note.number}`;
  return (
    <section aria-labelledby={heading} class="space-y-2 border-t border-slate-200 pt-4">
      <h2 id={heading} class="text-sm font-semibold uppercase tracking-wide text-slate-700">
        {t("toolkits.receipt.creditNote")}
      </h2>
      <NumberAndDate number={note.number} issuedAt={note.issuedAt} />
      <CreditNoteFigures note={note} invoice={invoice} />
      <p class="print:hidden">
        <a href={note.url} class="text-indigo-700 underline hover:text-indigo-900">
          {t("toolkits.creditNote.open", { number: note.number })}
        </a>
      </p>
    </section>
  );
}

export default define.page<ReceiptView>(function ReceiptPage({ data: r }) {
  const t = useT();
  const money = (paise: number) => t.rupees(toRupees(paise));
  const title = t(r.gst ? "toolkits.receipt.taxInvoice" : "toolkits.receipt.receipt");
  const { seller, receipt, gst } = r;
  const half = GST_RATE_PERCENT / 2;
  return (
    <article
      aria-labelledby="page-title"
      class="receipt mx-auto max-w-3xl space-y-6 rounded-lg border border-slate-200 bg-white p-6 shadow-sm print:border-0 print:p-0 print:shadow-none"
    >
      <PageHead title={`${title} ${receipt.number}`} />
      <nav aria-label={t("toolkits.receipt.links")} class="flex flex-wrap gap-x-6 gap-y-1 text-sm print:hidden">
        <a href="/toolkits/mine" class="text-indigo-700 underline hover:text-indigo-900">
          ← {t("toolkits.mine.title")}
        </a>
        <a href={`/toolkits/${r.toolkitId}`} class="text-indigo-700 underline hover:text-indigo-900">
          ← {receipt.toolkitTitle}
        </a>
      </nav>
      <header class="flex flex-wrap items-start justify-between gap-4">
        <div>
          <h1 id="page-title" class="text-2xl font-bold text-slate-900">{title}</h1>
          <NumberAndDate number={receipt.number} issuedAt={receipt.issuedAt} />
          {r.placeOfSupply && (
            <p class="text-slate-700">
              {t("toolkits.receipt.placeOfSupply", { place: placeOfSupplyLabel(r.placeOfSupply) })}
            </p>
          )}
        </div>
        <PrintButton label={t(gst ? "toolkits.receipt.printInvoice" : "toolkits.receipt.printReceipt")} />
      </header>
      <Parties seller={seller} receipt={receipt} />
      <section aria-labelledby="items-heading" class="space-y-2">
        <h2 id="items-heading" class="text-sm font-semibold uppercase tracking-wide text-slate-700">
          {t("toolkits.receipt.item")}
        </h2>
        <p class="text-slate-900">
          {receipt.toolkitTitle}
          {gst && <span class="text-slate-700">{` (SAC ${seller.sac})`}</span>}
        </p>
        <table class="w-full text-sm">
          <tbody class="divide-y divide-slate-200">
            <Row label={t("toolkits.receipt.listPrice")} value={money(r.listPricePaise)} />
            {r.discountPaise > 0 && (
              <Row
                label={r.couponCode
                  ? t("toolkits.receipt.discountCoupon", { code: r.couponCode })
                  : t("toolkits.receipt.discount")}
                value={`− ${money(r.discountPaise)}`}
              />
            )}
            {gst && <Row label={t("toolkits.receipt.taxable")} value={money(gst.taxable)} />}
            {gst && !gst.interState && <Row label={`CGST ${half} %`} value={money(gst.cgst)} />}
            {gst && !gst.interState && <Row label={`SGST ${half} %`} value={money(gst.sgst)} />}
            {gst?.interState && <Row label={`IGST ${GST_RATE_PERCENT} %`} value={money(gst.igst)} />}
            <Row
              label={t(gst ? "toolkits.receipt.amountPaidGst" : "toolkits.receipt.amountPaid")}
              value={money(r.amountPaid)}
              strong
            />
          </tbody>
        </table>
      </section>
      {r.creditNotes.map((note) => <CreditNoteSection key={note.number} note={note} invoice={receipt} />)}
      <section aria-labelledby="payment-heading" class="text-sm text-slate-800">
        <h2 id="payment-heading" class="text-sm font-semibold uppercase tracking-wide text-slate-700">
          {t("toolkits.receipt.payment")}
        </h2>
        {r.paymentId && (
          <p>
            {t.rich("toolkits.receipt.paymentId", {
              id: r.paymentId,
              mono: (chunks) => <span class="font-mono">{chunks}</span>,
            })}
          </p>
        )}
        {r.orderId && (
          <p>
            {t.rich("toolkits.receipt.orderId", {
              id: r.orderId,
              mono: (chunks) => <span class="font-mono">{chunks}</span>,
            })}
          </p>
        )}
        <BuyerRefundLine
          refund={r.refund ?? null}
          parts={r.refundedParts}
          paid={r.amountPaid}
          taxInvoice={!!gst}
          class="mt-2 font-semibold text-amber-900"
        />
        <div class="mt-2">
          <RefundRequestPanel
            purchaseId={r.purchaseId}
            request={r.refundRequest}
            askable={r.refundAskable}
            back="receipt"
          />
        </div>
      </section>
      <p class="text-xs text-slate-700">
        {t(gst ? "toolkits.receipt.noSignatureInvoice" : "toolkits.receipt.noSignatureReceipt")}
      </p>
    </article>
  );
});
