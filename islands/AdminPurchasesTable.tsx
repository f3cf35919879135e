/**
 * The admin purchase table (docs/api.md, Money operations; docs/decisions.md, Money operations): status tabs with
 * counts, search over buyer, toolkit, order and payment ids (debounced), pages of 20, and a full refund per paid
 * purchase (or per extra payment) through a confirmation dialog that shows the amount and takes an optional reason.
 */
import { useState } from "preact/hooks";
import { formatDate } from "@/lib/dates.ts";
import { formatMinorUnits } from "@/lib/money.ts";
import { fetchJson } from "@/lib/browser/fetch_json.ts";
import { useAdminList } from "@/lib/browser/use_admin_list.ts";
import { ConfirmDialog } from "@/components/ConfirmDialog.tsx";
import { AdminTable, ListPages, ListSearch } from "@/components/AdminList.tsx";
import { Cell } from "@/components/StackedTable.tsx";
import { Notice } from "@/components/forms.tsx";
import { INPUT, SECONDARY_BUTTON } from "@/lib/browser/styles.ts";
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
const LABELS: Record<AdminPurchaseRow["paymentStatus"], string> = {
  pending: "Pending",
  paid: "Paid",
  failed: "Failed",
  refunded: "Refunded",
};
const STATUS_STYLE: Record<AdminPurchaseRow["paymentStatus"], string> = {
  pending: "bg-amber-100 text-amber-900",
  paid: "bg-green-100 text-green-900",
  failed: "bg-slate-200 text-slate-900",
  refunded: "bg-red-100 text-red-900",
};

/** An amount in the smallest unit of `currency` (paise for INR, the default). */
const money = (minor: number, currency?: string) => formatMinorUnits(minor, currency);

/** A refund waiting for the admin's confirmation: of the purchase, or of one of its extra payments. */
interface PendingRefund {
  row: AdminPurchaseRow;
  amount: number;
  /** The payment's currency when it is not INR (an extra payment the gateway reported in another currency). */
  currency?: string;
  extraPaymentId: string | null;
}

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
  const [pending, setPending] = useState<PendingRefund | null>(null);
  const [reason, setReason] = useState("");
  const [saving, setSaving] = useState(false);
  const [refundError, setRefundError] = useState("");

  const cancel = () => {
    setPending(null);
    setRefundError("");
    setReason("");
  };

  const confirm = async () => {
    if (!pending) return;
    setSaving(true);
    setRefundError("");
    const id = encodeURIComponent(pending.row.id);
    const path = pending.extraPaymentId
      ? `/api/admin/purchases/${id}/extra-payments/${encodeURIComponent(pending.extraPaymentId)}/refund`
      : `/api/admin/purchases/${id}/refund`;
    const result = await fetchJson<{ purchase: AdminPurchaseRow }>(path, {
      method: "POST",
      body: reason.trim() ? { reason: reason.trim() } : {},
    });
    setSaving(false);
    if (!result.ok) {
      setRefundError(result.error);
      return;
    }
    list.announce(
      `Refunded ${money(pending.amount, pending.currency)} to ${pending.row.user?.name ?? "a deleted user"}.`,
    );
    cancel();
    list.reload();
  };

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
        {purchases.map((p) => (
          <tr key={p.id}>
            <th scope="row" class="px-4 py-3 font-medium text-slate-900">
              {p.user?.name ?? "Deleted user"}
              {p.user && <span class="block font-normal text-slate-700">{p.user.email}</span>}
            </th>
            <Cell label="Date" class="whitespace-nowrap">{formatDate(p.createdAt)}</Cell>
            <Cell label="Toolkit">
              {p.toolkit?.title ?? "Removed toolkit"}
              {p.couponCode && <span class="block text-xs text-slate-700">{`Coupon ${p.couponCode}`}</span>}
            </Cell>
            <Cell label="Amount" class="whitespace-nowrap">{money(p.amountPaid)}</Cell>
            <Cell label="Status">
              <span
                class={`inline-block rounded-full px-2 py-0.5 text-xs font-semibold ${STATUS_STYLE[p.paymentStatus]}`}
              >
                {LABELS[p.paymentStatus]}
              </span>
              {p.refund && (
                <span class="block text-xs text-slate-700">
                  {`${money(p.refund.amount)} on ${formatDate(p.refund.at)} (${p.refund.status})`}
                </span>
              )}
            </Cell>
            <Cell>
              <div class="flex flex-wrap gap-2">
                {p.paymentStatus === "paid" && p.amountPaid > 0 && (
                  <button
                    type="button"
                    class={SECONDARY_BUTTON}
                    disabled={saving}
                    onClick={() => setPending({ row: p, amount: p.amountPaid, extraPaymentId: null })}
                  >
                    Refund<span class="sr-only">{` ${p.user?.name ?? "deleted user"}'s purchase`}</span>
                  </button>
                )}
                {p.extraPayments.map((extra) =>
                  extra.paymentId && extra.amount && !extra.refund
                    ? (
                      <button
                        key={extra.paymentId}
                        type="button"
                        class={SECONDARY_BUTTON}
                        disabled={saving}
                        onClick={() =>
                          setPending({
                            row: p,
                            amount: extra.amount!,
                            currency: extra.currency,
                            extraPaymentId: extra.paymentId,
                          })}
                      >
                        {`Refund extra ${money(extra.amount, extra.currency)}`}
                      </button>
                    )
                    : null
                )}
                {p.receiptUrl && (
                  <a href={p.receiptUrl} class="px-1 py-1.5 text-sm text-indigo-700 underline">
                    Receipt<span class="sr-only">{` ${p.receiptNumber}`}</span>
                  </a>
                )}
              </div>
            </Cell>
          </tr>
        ))}
      </AdminTable>

      <ListPages
        label="Pages of purchases"
        list={list}
        pageSize={PAGE_SIZE}
        shown={purchases.length}
        total={total}
        hasMore={page?.pagination.hasMore ?? false}
      />

      <ConfirmDialog
        open={pending !== null}
        title="Refund this payment?"
        confirmLabel={pending ? `Refund ${money(pending.amount, pending.currency)}` : ""}
        busyLabel="Refunding…"
        busy={saving}
        tone="danger"
        notice={
          <>
            <label for="refund-reason" class="block text-sm font-medium text-slate-800">Reason (optional)</label>
            <textarea
              id="refund-reason"
              maxLength={500}
              rows={2}
              value={reason}
              onInput={(e) => setReason(e.currentTarget.value)}
              class={INPUT}
            />
            {refundError && <Notice kind="error" title="Nothing was refunded">{refundError}</Notice>}
          </>
        }
        onConfirm={confirm}
        onCancel={cancel}
      >
        {pending && (
          <>
            Refund <strong>{money(pending.amount, pending.currency)}</strong> to{" "}
            <strong>{pending.row.user?.name ?? "a deleted user"}</strong> for{" "}
            <strong>{pending.row.toolkit?.title ?? "a removed toolkit"}</strong>? {pending.extraPaymentId
              ? "This extra payment goes back; the purchase stays paid."
              : "The buyer loses access to the toolkit and any coupon use is given back."}
          </>
        )}
      </ConfirmDialog>
    </div>
  );
}
