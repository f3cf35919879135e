/**
 * The admin purchase table (docs/api.md, Money operations; docs/decisions.md, Money operations): status tabs with
 * counts, "Refund asked" and "Partly refunded", search over buyer, toolkit, order and payment ids (debounced), pages of
 * 20, and a full refund per paid purchase (or per extra payment) through a confirmation dialog that shows the amount,
 * the buyer's request and the refund policy's facts, and takes an optional reason, or the decline of a refund request
 * with a note (`RefundDialog`, loaded on demand when a payment is first picked); each purchase is a `PurchaseRow`,
 * whose actions open the page's own confirmation without JavaScript (`routes/admin/purchases.tsx`). Without
 * JavaScript the search and the tabs are a `GET` form to the page (the tabs its submit buttons, "Search" keeping the
 * tab) and Previous and Next links to it; the island starts from the search and page the server rendered.
 */
import { useState } from "preact/hooks";
import { SECONDARY_BUTTON } from "@/lib/browser/styles.ts";
import { useHydrated } from "@/lib/browser/use_hydrated.ts";
import { ADMIN_LIST_TEXT, useAdminList } from "@/lib/browser/use_admin_list.ts";
import { AdminTable, ListSearch } from "@/components/AdminList.tsx";
import { ListPages } from "@/components/ListPages.tsx";
import { PurchaseRow } from "@/components/purchases/PurchaseRow.tsx";
import type { PendingRefund } from "@/lib/browser/pending_refund.ts";
import type { AdminPurchasePage, AdminPurchaseRow } from "@/lib/purchases/admin.ts";
import { useT } from "@/lib/i18n/context.ts";
import { IslandTextProvider } from "@/lib/i18n/island_text.ts";
import type { IslandText } from "@/lib/i18n/translator.ts";
import { refusalPrefixes } from "@/lib/browser/fetch_json.ts";

/** The messages this island uses (its `text`). */
export const ADMIN_PURCHASES_TEXT = [
  "admin.purchases.",
  "admin.refund.",
  // A decline's note left empty is told at its field.
  "fields.required",
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
    "gatewayUnavailable",
    "paymentsNotConfigured",
  ),
] as const;

/** The refund dialog with its hook, loaded when a payment is first picked (most visits refund nothing). */
const refundDialog = () => import("@/components/purchases/RefundDialog.tsx");
type DialogModule = Awaited<ReturnType<typeof refundDialog>>;

/** Rows per page. */
export const PAGE_SIZE = 20;
/**
 * The tabs: every purchase, each state, those whose refund request waits (`asked`), those with a payment refunded
 * in part at the gateway (`partly`) and those with a payment owed back not refunded yet (`owed`).
 */
export const PURCHASE_TABS = ["all", "paid", "pending", "failed", "refunded", "asked", "partly", "owed"] as const;
/** One of `PURCHASE_TABS`. */
export type PurchaseTab = typeof PURCHASE_TABS[number];

/**
 * Props: the messages (`ADMIN_PURCHASES_TEXT`), the tab to open on (default all), the search the page answers (default
 * none) and the page as the server read it (its rows are in the page's HTML, so the list and its row actions work
 * without JavaScript).
 */
export default function AdminPurchasesTable({ text, tab = "all", search = "", page }: {
  text: IslandText;
  tab?: PurchaseTab;
  search?: string;
  page: AdminPurchasePage;
}) {
  return (
    <IslandTextProvider text={text}>
      <PurchasesTable initialTab={tab} search={search} initialPage={page} />
    </IslandTextProvider>
  );
}

/** The query of the list's API for `tab` (besides the search and the page). */
export function tabQuery(tab: PurchaseTab): Record<string, string> {
  if (tab === "asked") return { refundRequest: "open" };
  if (tab === "partly") return { gatewayRefund: "partial" };
  if (tab === "owed") return { owedBack: "open" };
  return tab === "all" ? {} : { status: tab };
}

function PurchasesTable({ initialTab, search, initialPage }: {
  initialTab: PurchaseTab;
  search: string;
  initialPage: AdminPurchasePage;
}) {
  const t = useT();
  const [tab, setTab] = useState<PurchaseTab>(initialTab);
  const hydrated = useHydrated();
  const { offset } = initialPage.pagination;
  /** The address of the page the server rendered, at `at` (its links before hydration). */
  const href = (at: number) => {
    const params = { tab: initialTab === "all" ? "" : initialTab, search, offset: at ? `${at}` : "" };
    return `/admin/purchases?${new URLSearchParams(Object.entries(params).filter(([, value]) => value))}`;
  };
  const list = useAdminList<AdminPurchaseRow, AdminPurchasePage>({
    path: ({ query, offset }) => {
      const params = new URLSearchParams({ limit: String(PAGE_SIZE), offset: String(offset), ...tabQuery(tab) });
      if (query) params.set("search", query);
      return `/api/admin/purchases?${params}`;
    },
    rowsOf: (data) => data.purchases,
    filters: [tab],
    initial: initialPage.purchases,
    start: { query: search, offset },
  });
  const page = list.data ?? initialPage;
  const [pending, setPending] = useState<PendingRefund | null>(null);
  const [dialog, setDialog] = useState<DialogModule | null>(null);
  const pick = (refund: PendingRefund) => {
    setPending(refund);
    if (!dialog) void refundDialog().then(setDialog);
  };

  const purchases = list.rows ?? [];
  const total = page.pagination.total;

  return (
    <div class="space-y-4">
      <form
        id="purchase-filters"
        method="get"
        action="/admin/purchases"
        onSubmit={(e) => e.preventDefault()}
        class="flex flex-col gap-3 sm:flex-row sm:items-end"
        role="search"
      >
        <div class="flex-1">
          <ListSearch id="search" label={t("admin.purchases.search")} list={list} maxLength={100} />
        </div>
        {!hydrated && (
          <button type="submit" name="tab" value={tab} class={SECONDARY_BUTTON}>
            {t("admin.purchases.searchSubmit")}
          </button>
        )}
      </form>
      <div role="group" aria-label={t("admin.purchases.statusGroup")} class="flex flex-wrap gap-2">
        {PURCHASE_TABS.map((value) => (
          <button
            key={value}
            type={hydrated ? "button" : "submit"}
            form="purchase-filters"
            name="tab"
            value={value}
            aria-pressed={tab === value}
            onClick={() => setTab(value)}
            class={`rounded-full px-3 py-1.5 text-sm font-medium ${
              tab === value ? "bg-indigo-700 text-white" : "border border-slate-400 bg-white text-slate-800"
            }`}
          >
            {t.dynamic(`admin.purchases.tab.${value}`)}
            {` (${t.number(page.counts[value === "partly" ? "partlyRefunded" : value])})`}
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
        {purchases.map((p) => <PurchaseRow key={p.id} p={p} busy={pending !== null} onRefund={pick} tab={tab} />)}
      </AdminTable>

      <ListPages
        label={t("admin.purchases.pages")}
        list={list}
        pageSize={PAGE_SIZE}
        shown={purchases.length}
        total={total}
        hasMore={page.pagination.hasMore}
        hrefOf={hydrated ? undefined : href}
      />

      {dialog && <dialog.RefundDialog list={list} pending={pending} close={() => setPending(null)} />}
    </div>
  );
}
