/**
 * `/purchases/{id}/credit-notes/{number}`: one credit note issued against a purchase's tax invoice, as a document of its
 * own to keep and print, for the buyer or an admin (others 404, a guest is sent to sign in): its number and date, the
 * invoice it is against (number and date), the seller with their GSTIN, the buyer, the place of supply, the item, the
 * reason (a refund, and when it was made), "issued late" when it was, and the taxable value, GST and amount credited;
 * a link back to the invoice (not printed). docs/decisions.md, Money operations, "Credit notes".
 */
import { define } from "@/lib/platform/define.ts";
import { PageHead } from "@/components/PageHead.tsx";
import { assertSignedIn } from "@/lib/http/guards.ts";
import { useT } from "@/lib/i18n/context.ts";
import { creditNoteFor, type CreditNotePage } from "@/lib/purchases/receipts.ts";
import { placeOfSupplyLabel } from "@/lib/purchases/place_of_supply.ts";
import { receiptPath } from "@/lib/purchases/purchases.ts";
import PrintButton from "@/islands/PrintButton.tsx";
import { CreditNoteFigures, NumberAndDate, Parties } from "@/components/purchases/TaxDocument.tsx";

export const handler = define.handlers<CreditNotePage>({
  async GET(_req, ctx) {
    assertSignedIn(ctx.state);
    const { kv, config } = ctx.state.services;
    const { id: purchaseId, number } = ctx.params;
    return ctx.render(await creditNoteFor(kv, { seller: config.seller, viewer: ctx.state.user, purchaseId, number }));
  },
});

export default define.page<CreditNotePage>(function CreditNoteDocument({ data: { invoice, note } }) {
  const t = useT();
  const title = t("toolkits.receipt.creditNote");
  return (
    <article
      aria-labelledby="page-title"
      class="receipt mx-auto max-w-3xl space-y-6 rounded-lg border border-slate-200 bg-white p-6 shadow-sm print:border-0 print:p-0 print:shadow-none"
    >
      <PageHead title={`${title} ${note.number}`} />
      <nav aria-label={t("toolkits.creditNote.links")} class="text-sm print:hidden">
        <a href={receiptPath(invoice.purchaseId)} class="text-indigo-700 underline hover:text-indigo-900">
          ← {t("toolkits.creditNote.backToInvoice", { number: invoice.receipt.number })}
        </a>
      </nav>
      <header class="flex flex-wrap items-start justify-between gap-4">
        <div>
          <h1 id="page-title" class="text-2xl font-bold text-slate-900">{title}</h1>
          <NumberAndDate number={note.number} issuedAt={note.issuedAt} />
          {invoice.placeOfSupply && (
            <p class="text-slate-700">
              {t("toolkits.receipt.placeOfSupply", { place: placeOfSupplyLabel(invoice.placeOfSupply) })}
            </p>
          )}
        </div>
        <PrintButton label={t("toolkits.creditNote.print")} />
      </header>
      <Parties seller={invoice.seller} receipt={invoice.receipt} />
      <section aria-labelledby="items-heading" class="space-y-2">
        <h2 id="items-heading" class="text-sm font-semibold uppercase tracking-wide text-slate-700">
          {t("toolkits.receipt.item")}
        </h2>
        <p class="text-slate-900">
          {invoice.receipt.toolkitTitle}
          <span class="text-slate-700">{` (SAC ${invoice.seller.sac})`}</span>
        </p>
        <p class="text-slate-700">{t("toolkits.creditNote.reason")}</p>
        <CreditNoteFigures note={note} invoice={invoice.receipt} />
      </section>
      <p class="text-xs text-slate-700">{t("toolkits.creditNote.noSignature")}</p>
    </article>
  );
});
