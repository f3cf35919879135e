/**
 * `/toolkits/mine`: "My toolkits", the toolkits the signed-in user bought, each with its progress
 * and a link to resume, and their payment history (`purchaseHistory`, as `GET /api/purchases`), each paid purchase
 * with its refund request or "Ask for a refund" (`RefundRequestPanel`).
 */
import { certificatePath, certificatesOf } from "@/lib/certificates/certificates.ts";
import { define } from "@/lib/platform/define.ts";
import { PageHead } from "@/components/PageHead.tsx";
import { Cell } from "@/components/StackedTable.tsx";
import { STACKED_TABLE } from "@/lib/browser/styles.ts";
import { assertSignedIn } from "@/lib/http/guards.ts";
import { toRupees } from "@/lib/money.ts";
import { useT } from "@/lib/i18n/context.ts";
import { RefundRequestPanel } from "@/components/purchases/RefundRequestPanel.tsx";
import { BuyerRefundLine } from "@/components/purchases/BuyerRefundLine.tsx";
import { isRefundable } from "@/lib/purchases/refund_policy.ts";
import {
  type OwnedToolkit,
  ownedToolkits,
  purchaseHistory,
  type PurchaseHistoryItem,
} from "@/lib/toolkits/learning.ts";

interface MyToolkitsData {
  owned: OwnedToolkit[];
  purchases: PurchaseHistoryItem[];
  /** Certificate pages by toolkit id (not revoked ones only). */
  certificates: Record<string, string>;
}

export const handler = define.handlers<MyToolkitsData>({
  async GET(_req, ctx) {
    assertSignedIn(ctx.state);
    const { kv } = ctx.state.services;
    const [owned, purchases, issued] = await Promise.all([
      ownedToolkits(kv, ctx.state.user),
      purchaseHistory(kv, ctx.state.user.id),
      certificatesOf(kv, ctx.state.user.id),
    ]);
    const certificates = Object.fromEntries(
      issued.filter((c) => c.revokedAt === null).map((c) => [c.toolkitId, certificatePath(c.id)]),
    );
    return ctx.render({ owned, purchases, certificates });
  },
});

function PaymentHistory({ purchases }: { purchases: PurchaseHistoryItem[] }) {
  const t = useT();
  const money = (paise: number) => t.rupees(toRupees(paise));
  return (
    <section class="space-y-3">
      <h2 id="payments-heading" class="text-xl font-semibold text-slate-900">
        {t("toolkits.mine.payments")}
      </h2>
      {/* On a phone the rows stack; on a wide screen too narrow for the table, it scrolls inside this region. */}
      <div
        role="region"
        aria-labelledby="payments-heading"
        tabIndex={0}
        class="relative overflow-x-auto rounded-lg border border-slate-200 bg-white shadow-sm focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-600"
      >
        <table class={`min-w-full divide-y divide-slate-200 text-left text-sm ${STACKED_TABLE}`}>
          <thead class="bg-slate-100 text-slate-800">
            <tr>
              <th scope="col" class="px-4 py-3 font-semibold">{t("toolkits.mine.toolkit")}</th>
              <th scope="col" class="px-4 py-3 font-semibold">{t("toolkits.mine.date")}</th>
              <th scope="col" class="px-4 py-3 font-semibold">{t("toolkits.mine.amount")}</th>
              <th scope="col" class="px-4 py-3 font-semibold">{t("toolkits.mine.status")}</th>
              <th scope="col" class="px-4 py-3 font-semibold">{t("toolkits.mine.receipt")}</th>
            </tr>
          </thead>
          <tbody class="divide-y divide-slate-200 text-slate-800">
            {purchases.map((p) => (
              <tr key={p.id} id={`purchase-${p.id}`}>
                <th scope="row" class="px-4 py-3 font-medium text-slate-900">
                  {p.toolkit?.title ?? t("toolkits.mine.removedToolkit")}
                </th>
                <Cell label={t("toolkits.mine.date")} class="whitespace-nowrap">
                  <time datetime={p.createdAt}>{t.date(p.createdAt)}</time>
                </Cell>
                <Cell label={t("toolkits.mine.amount")} class="whitespace-nowrap">{money(p.amountPaid)}</Cell>
                <Cell
                  label={t("toolkits.mine.status")}
                  note={
                    <div class="mt-1">
                      <BuyerRefundLine
                        refund={p.refund ?? null}
                        parts={p.refundedParts}
                        paid={p.amountPaid}
                        class="text-xs text-slate-700"
                      />
                      <RefundRequestPanel
                        purchaseId={p.id}
                        request={p.refundRequest ?? null}
                        askable={isRefundable(p)}
                        back="mine"
                      />
                    </div>
                  }
                >
                  {p.paymentStatus === "paid" && p.amountPaid === 0
                    ? t("toolkits.mine.status.free")
                    : t(`toolkits.mine.status.${p.paymentStatus}`)}
                </Cell>
                <Cell label={t("toolkits.mine.receipt")} class="whitespace-nowrap">
                  {p.receiptUrl
                    ? (
                      <a href={p.receiptUrl} class="text-indigo-700 underline">
                        {t.rich("toolkits.mine.receiptFor", {
                          toolkit: p.toolkit?.title ?? t("toolkits.mine.removedToolkitLower"),
                          for: (chunks) => <span class="sr-only">{chunks}</span>,
                        })}
                      </a>
                    )
                    : <span class="text-slate-600">—</span>}
                </Cell>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}

export default define.page<MyToolkitsData>(function MyToolkitsPage({ data: { owned, purchases, certificates } }) {
  const t = useT();
  return (
    <section aria-labelledby="page-title" class="space-y-6">
      <PageHead title={t("toolkits.mine.title")} />
      <h1 id="page-title" class="text-3xl font-bold tracking-tight text-slate-900">{t("toolkits.mine.title")}</h1>
      {owned.length === 0
        ? (
          <div class="rounded-lg border border-dashed border-slate-300 bg-white p-10 text-center">
            <h2 class="text-lg font-semibold text-slate-900">{t("toolkits.mine.none")}</h2>
            <p class="mt-1 text-slate-700">
              {t.rich("toolkits.mine.noneHint", {
                link: (chunks) => <a href="/toolkits" class="text-indigo-700 underline">{chunks}</a>,
              })}
            </p>
          </div>
        )
        : (
          <ul class="grid gap-4 sm:grid-cols-2">
            {owned.map(({ toolkit, completedCount }) => {
              const percent = toolkit.lessonCount === 0 ? 0 : Math.round(completedCount / toolkit.lessonCount * 100);
              return (
                <li key={toolkit.id} class="space-y-3 rounded-lg border border-slate-200 bg-white p-5 shadow-sm">
                  <h2 class="text-lg font-semibold text-slate-900">{toolkit.title}</h2>
                  <p id={`progress-${toolkit.id}`} class="text-sm text-slate-700">
                    {t("toolkits.mine.progress", { done: completedCount, count: toolkit.lessonCount })}
                  </p>
                  <div
                    role="progressbar"
                    aria-labelledby={`progress-${toolkit.id}`}
                    aria-valuemin={0}
                    aria-valuemax={100}
                    aria-valuenow={percent}
                    class="h-2.5 w-full overflow-hidden rounded-full bg-slate-200"
                  >
                    <div class="h-full rounded-full bg-green-700" style={{ width: `${percent}%` }} />
                  </div>
                  <a
                    href={`/toolkits/${toolkit.id}/learn`}
                    class="inline-block rounded-md bg-indigo-700 px-4 py-2 font-medium text-white hover:bg-indigo-800"
                  >
                    {t(
                      percent === 100
                        ? "toolkits.mine.review"
                        : completedCount > 0
                        ? "toolkits.mine.resume"
                        : "toolkits.mine.start",
                    )}
                    <span class="sr-only">{` ${toolkit.title}`}</span>
                  </a>
                  {certificates[toolkit.id] && (
                    <a
                      href={certificates[toolkit.id]}
                      class="ml-3 inline-block rounded-md border border-indigo-700 px-4 py-2 font-medium text-indigo-800 hover:bg-indigo-50"
                    >
                      {t.rich("toolkits.mine.certificate", {
                        toolkit: toolkit.title,
                        for: (chunks) => <span class="sr-only">{chunks}</span>,
                      })}
                    </a>
                  )}
                </li>
              );
            })}
          </ul>
        )}
      {purchases.length > 0 && <PaymentHistory purchases={purchases} />}
    </section>
  );
});
