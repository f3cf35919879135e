/**
 * The admin purchase table (docs/api.md, Money operations; docs/decisions.md, Money operations): status tabs with
 * counts, search over buyer, toolkit, order and payment ids (debounced), pages of 20, and a full refund per paid
 * purchase (or per extra payment) through a confirmation dialog that shows the amount and takes an optional reason
 * (`useRefund`, `RefundDialog`); each purchase is a `PurchaseRow`.
 */
import { useState } from "preact/hooks";
import { useAdminList } from "@/lib/browser/use_admin_list.ts";
import { useRefund } from "@/lib/browser/use_refund.ts";
import { AdminTable, ListPages, ListSearch } from "@/components/AdminList.tsx";
import { PurchaseRow } from "@/components/purchases/PurchaseRow.tsx";
import { RefundDialog } from "@/components/purchases/RefundDialog.tsx";
import type { AdminPurchasePage, AdminPurchaseRow } from "@/lib/purchases/admin.ts";

/** Rows per page. */
const PAGE_SIZE = 20;
const TABS = [
  ["all", "All"],
  ["paid", "Paid"],
  ["pending", "Pending"],
  ["failed", "Failed"],
  ["refunded", "Refunded"],
] as const;
type Tab = typeof TABS[number][0];

export default function AdminPurchasesTable() {
  const [tab, setTab] = useState<Tab>("all");
  const list = useAdminList<AdminPurchaseRow, AdminPurchasePage>({
    path: ({ query, offset }) => {
      const params = new URLSearchParams({ limit: String(PAGE_SIZE), offset: String(offset) });
      if (query) params.set("search", query);
      if (tab !== "all") params.set("status", tab);
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
          label="Search by buyer, toolkit, order or payment id"
          list={list}
          maxLength={100}
        />
      </div>
      <div role="group" aria-label="Payment status" class="flex flex-wrap gap-2">
        {TABS.map(([value, label]) => (
          <button
            key={value}
            type="button"
            aria-pressed={tab === value}
            onClick={() => setTab(value)}
            class={`rounded-full px-3 py-1.5 text-sm font-medium ${
              tab === value ? "bg-indigo-700 text-white" : "border border-slate-400 bg-white text-slate-800"
            }`}
          >
            {label}
            {page && ` (${page.counts[value]})`}
          </button>
        ))}
      </div>

      <AdminTable
        list={list}
        loadingText="Loading purchases…"
        loadErrorTitle="We could not load the purchases"
        retry
        label="Purchases"
        caption="Purchases, newest first"
        columns={[
          { label: "Buyer" },
          { label: "Date" },
          { label: "Toolkit" },
          { label: "Amount" },
          { label: "Status" },
          { label: "Actions" },
        ]}
        empty={list.query !== "" || tab !== "all" ? "No purchases match." : "There are no purchases yet."}
      >
        {purchases.map((p) => <PurchaseRow key={p.id} p={p} busy={refund.saving} onRefund={refund.pick} />)}
      </AdminTable>

      <ListPages
        label="Pages of purchases"
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
