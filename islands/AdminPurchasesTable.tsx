/**
 * The admin purchase table (docs/api.md, Money operations; docs/decisions.md, Money operations): status tabs with
 * counts, "Refund asked" and "Partly refunded", search over buyer, toolkit, order and payment ids (debounced), pages of 20, and a full
 * refund per paid purchase (or per extra payment) through a confirmation dialog that shows the amount, the buyer's
 * request and the refund policy's facts, and takes an optional reason, or the decline of a refund request with a note
 * (`useRefund`, `RefundDialog`); each purchase is a `PurchaseRow`.
 */
import { useState } from "preact/hooks";
import { ADMIN_LIST_TEXT, useAdminList } from "@/lib/browser/use_admin_list.ts";
import { useRefund } from "@/lib/browser/use_refund.ts";
import { AdminTable, ListPages, ListSearch } from "@/components/AdminList.tsx";
import { PurchaseRow } from "@/components/purchases/PurchaseRow.tsx";
import { RefundDialog } from "@/components/purchases/RefundDialog.tsx";
import type { AdminPurchasePage, AdminPurchaseRow } from "@/lib/purchases/admin.ts";
import { useT } from "@/lib/i18n/context.ts";
import { IslandTextProvider } from "@/lib/i18n/island_text.ts";
import type { IslandText } from "@/lib/i18n/translator.ts";
import { refusalPrefixes } from "@/lib/browser/fetch_json.ts";

/** The messages this island uses (its `text`). */
export const ADMIN_PURCHASES_TEXT = [
  "admin.purchases.",
  "admin.refund.",
  ...ADMIN_LIST_TEXT,
  ...refusalPrefixes(
    "onlyPaidRefundable",
    "freeNotRefundable",
    "alreadyRefunded",
    "purchaseNotFound",
    "paymentNotFound",
    "gatewayUnknownPayment",
    "gatewayUnknownOrder",
    "noCapturedPayment",
    "gatewayRefusedRefund",
    "gatewayRefusedOrderPayments",
    "noOpenRefundRequest",
  ),
] as const;

/** Rows per page. */
const PAGE_SIZE = 20;
/**
 * The tabs: every purchase, each state, those whose refund request waits (`asked`) and those with a payment refunded
 * in part at the gateway (`partly`).
 */
export const PURCHASE_TABS = ["all", "paid", "pending", "failed", "refunded", "asked", "partly"] as const;
/** One of `PURCHASE_TABS`. */
export type PurchaseTab = typeof PURCHASE_TABS[number];

/** Props: the messages (`ADMIN_PURCHASES_TEXT`) and the tab to open on (default all). */
export default function AdminPurchasesTable({ text, tab = "all" }: { text: IslandText; tab?: PurchaseTab }) {
  return (
    <IslandTextProvider text={text}>
      <PurchasesTable initialTab={tab} />
    </IslandTextProvider>
  );
}

function PurchasesTable({ initialTab }: { initialTab: PurchaseTab }) {
  const t = useT();
  const [tab, setTab] = useState<PurchaseTab>(initialTab);
  const list = useAdminList<AdminPurchaseRow, AdminPurchasePage>({
    path: ({ query, offset }) => {
      const params = new URLSearchParams({ limit: String(PAGE_SIZE), offset: String(offset) });
      if (query) params.set("search", query);
      if (tab === "asked") params.set("refundRequest", "open");
      else if (tab === "partly") params.set("gatewayRefund", "partial");
      else if (tab !== "all") params.set("status", tab);
      return `/api/admin/purchases?${params}`;
    },
    rowsOf: (data) => data.purchases,
    filters: [tab],
  });
  const { data: page } = list;
  const refund = useRefund(list);

  const purchases = list.rows ?? [];
  const total = page?.pagination.total ?? 0;

  return (
    <div class="space-y-4">
      <div class="flex flex-col gap-3" role="search">
        <ListSearch
          id="purchase-search"
          label={t("admin.purchases.search")}
          list={list}
          maxLength={100}
        />
      </div>
      <div role="group" aria-label={t("admin.purchases.statusGroup")} class="flex flex-wrap gap-2">
        {PURCHASE_TABS.map((value) => (
          <button
            key={value}
            type="button"
            aria-pressed={tab === value}
            onClick={() => setTab(value)}
            class={`rounded-full px-3 py-1.5 text-sm font-medium ${
              tab === value ? "bg-indigo-700 text-white" : "border border-slate-400 bg-white text-slate-800"
            }`}
          >
            {t.dynamic(`admin.purchases.tab.${value}`)}
            {page && ` (${t.number(page.counts[value === "partly" ? "partlyRefunded" : value])})`}
          </button>
        ))}
      </div>

      <AdminTable
        list={list}
        loadingText={t("admin.purchases.loading")}
        loadErrorTitle={t("admin.purchases.loadError")}
        retry
        label={t("admin.purchases.label")}
        caption={t("admin.purchases.caption")}
        columns={[
          { label: t("admin.purchases.buyer") },
          { label: t("admin.purchases.date") },
          { label: t("admin.purchases.toolkit") },
          { label: t("admin.purchases.amount") },
          { label: t("admin.purchases.status") },
          { label: t("admin.list.actions") },
        ]}
        empty={t(list.query !== "" || tab !== "all" ? "admin.purchases.noMatch" : "admin.purchases.none")}
      >
        {purchases.map((p) => <PurchaseRow key={p.id} p={p} busy={refund.saving} onRefund={refund.pick} />)}
      </AdminTable>

      <ListPages
        label={t("admin.purchases.pages")}
        list={list}
        pageSize={PAGE_SIZE}
        shown={purchases.length}
        total={total}
        hasMore={page?.pagination.hasMore ?? false}
      />

      <RefundDialog refund={refund} />
    </div>
  );
}
