/**
 * The admin coupons table (docs/api.md, Toolkits; docs/decisions.md, Toolkits and payments): search by code
 * (debounced), create a coupon (percentage or fixed rupees, limits, expiry), uses shown against
 * the usage limit, the active switch to deactivate one, and delete after confirming.
 */
import type { ComponentChildren } from "preact";
import { useEffect, useRef, useState } from "preact/hooks";
import { fetchJson } from "@/lib/browser/fetch_json.ts";
import { ConfirmDialog } from "@/components/ConfirmDialog.tsx";
import { useDebouncedValue } from "@/lib/browser/use_debounced_value.ts";
import { Notice } from "@/components/forms.tsx";
import { formatDateTime, fromIstInput } from "@/lib/dates.ts";
import { couponWarnings, EXPIRY_PASSED } from "@/lib/browser/admin_checks.ts";
import { formatRupees } from "@/lib/money.ts";
import { RowDeleteButton, Switch } from "@/components/RowControls.tsx";

interface Coupon {
  id: string;
  code: string;
  discountType: "percentage" | "fixed";
  discountValue: number;
  isActive: boolean;
  expiresAt: string | null;
  perUserLimit: number;
  usageLimit: number | null;
  usedCount: number;
}

const SEARCH_DELAY_MS = 300;
const CONTROL = "mt-1 block w-full rounded-md border border-slate-400 bg-white px-3 py-2 text-slate-900 shadow-sm " +
  "focus:border-indigo-600 focus:outline-none focus:ring-2 focus:ring-indigo-600/40";

const EMPTY = {
  code: "",
  discountType: "percentage",
  discountValue: "",
  usageLimit: "",
  perUserLimit: "1",
  expiresAt: "",
};

function discountText(c: Coupon): string {
  return c.discountType === "percentage" ? `${c.discountValue} % off` : `${formatRupees(c.discountValue)} off`;
}

function Field(
  { id, label, children }: { id: string; label: string; children: ComponentChildren },
) {
  return (
    <div>
      <label for={id} class="block text-sm font-medium text-slate-800">{label}</label>
      {children}
    </div>
  );
}

export default function AdminCouponsTable() {
  const [search, setSearch] = useState("");
  const query = useDebouncedValue(search, SEARCH_DELAY_MS);
  const [deleting, setDeleting] = useState<Coupon | null>(null);
  const [deletingBusy, setDeletingBusy] = useState(false);
  const [coupons, setCoupons] = useState<Coupon[] | null>(null);
  const [form, setForm] = useState(EMPTY);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState("");
  const [status, setStatus] = useState("");
  const latest = useRef(0);

  useEffect(() => {
    const request = ++latest.current;
    const params = query ? `?${new URLSearchParams({ search: query })}` : "";
    fetchJson<{ coupons: Coupon[] }>(`/api/admin/coupons${params}`).then((result) => {
      if (request !== latest.current) return;
      if (result.ok) setCoupons(result.data.coupons);
      else setError(result.error);
    });
  }, [query]);

  const set = (field: keyof typeof EMPTY) => (e: { currentTarget: { value: string } }) =>
    setForm({ ...form, [field]: e.currentTarget.value });

  const create = async (event: Event) => {
    event.preventDefault();
    setError("");
    const expiresAt = fromIstInput(form.expiresAt);
    if (expiresAt !== null && Date.parse(expiresAt) <= Date.now()) return setError(`Expiry: ${EXPIRY_PASSED}`);
    setBusy(true);
    const result = await fetchJson<{ coupon: Coupon }>("/api/admin/coupons", {
      body: {
        code: form.code.trim(),
        discountType: form.discountType,
        discountValue: Number(form.discountValue),
        usageLimit: form.usageLimit.trim() === "" ? null : Number(form.usageLimit),
        perUserLimit: Number(form.perUserLimit || "1"),
        expiresAt,
      },
    });
    setBusy(false);
    if (!result.ok) return setError(result.error);
    setCoupons([result.data.coupon, ...(coupons ?? [])]);
    setForm(EMPTY);
    setStatus(`Coupon ${result.data.coupon.code} created.`);
  };

  const setActive = async (coupon: Coupon, isActive: boolean) => {
    setError("");
    const result = await fetchJson<{ coupon: Coupon }>(`/api/admin/coupons/${coupon.id}`, {
      method: "PATCH",
      body: { isActive },
    });
    if (!result.ok) return setError(result.error);
    setCoupons((list) => list && list.map((c) => c.id === coupon.id ? result.data.coupon : c));
    setStatus(`Coupon ${coupon.code} ${isActive ? "activated" : "deactivated"}.`);
  };

  const remove = async () => {
    const coupon = deleting;
    if (!coupon) return;
    setDeletingBusy(true);
    const result = await fetchJson(`/api/admin/coupons/${coupon.id}`, { method: "DELETE" });
    setDeletingBusy(false);
    setDeleting(null);
    if (!result.ok) return setError(result.error);
    setCoupons((list) => list && list.filter((c) => c.id !== coupon.id));
    setStatus(`Coupon ${coupon.code} deleted.`);
  };

  const warnings = couponWarnings({
    discountType: form.discountType,
    discountValue: Number(form.discountValue),
    expiresAt: fromIstInput(form.expiresAt),
  });

  return (
    <div class="space-y-6">
      <form
        onSubmit={create}
        class="space-y-4 rounded-lg border border-slate-200 bg-white p-4 shadow-sm"
        aria-labelledby="new-coupon-heading"
      >
        <h2 id="new-coupon-heading" class="text-lg font-semibold text-slate-900">New coupon</h2>
        <div class="grid gap-4 sm:grid-cols-3">
          <Field id="coupon-code" label="Code">
            <input
              id="coupon-code"
              value={form.code}
              onInput={set("code")}
              maxLength={40}
              required
              class={`${CONTROL} uppercase`}
            />
          </Field>
          <Field id="coupon-type" label="Discount type">
            <select id="coupon-type" value={form.discountType} onChange={set("discountType")} class={CONTROL}>
              <option value="percentage">Percentage</option>
              <option value="fixed">Fixed amount (₹)</option>
            </select>
          </Field>
          <Field id="coupon-value" label={form.discountType === "percentage" ? "Percent off" : "Rupees off"}>
            <input
              id="coupon-value"
              type="number"
              min={0}
              step="0.01"
              value={form.discountValue}
              onInput={set("discountValue")}
              required
              class={CONTROL}
            />
          </Field>
          <Field id="coupon-limit" label="Usage limit (empty: unlimited)">
            <input
              id="coupon-limit"
              type="number"
              min={1}
              step={1}
              value={form.usageLimit}
              onInput={set("usageLimit")}
              class={CONTROL}
            />
          </Field>
          <Field id="coupon-per-user" label="Uses per user">
            <input
              id="coupon-per-user"
              type="number"
              min={1}
              step={1}
              value={form.perUserLimit}
              onInput={set("perUserLimit")}
              class={CONTROL}
            />
          </Field>
          <Field id="coupon-expires" label="Expires (IST, optional)">
            <input
              id="coupon-expires"
              type="datetime-local"
              value={form.expiresAt}
              onInput={set("expiresAt")}
              class={CONTROL}
            />
          </Field>
        </div>
        {warnings.length > 0 && (
          <Notice kind="info" title="Check before creating">
            <ul class="list-disc pl-5">{warnings.map((w) => <li key={w}>{w}</li>)}</ul>
          </Notice>
        )}
        <button
          type="submit"
          disabled={busy}
          class="rounded-md bg-indigo-700 px-4 py-2 font-medium text-white hover:bg-indigo-800 disabled:opacity-70"
        >
          {busy ? "Creating…" : "Create coupon"}
        </button>
      </form>

      <div role="search">
        <label for="coupon-search" class="block text-sm font-medium text-slate-800">Search by code</label>
        <input
          id="coupon-search"
          type="search"
          value={search}
          maxLength={40}
          onInput={(e) => setSearch(e.currentTarget.value)}
          class={`${CONTROL} max-w-md`}
        />
      </div>
      <p role="status" class="min-h-5 text-sm text-slate-700">{coupons === null ? "Loading coupons…" : status}</p>
      {error && <Notice kind="error" title="That did not work">{error}</Notice>}
      <div
        class="relative overflow-x-auto rounded-lg border border-slate-200 bg-white shadow-sm"
        role="region"
        aria-label="Coupons"
        tabIndex={0}
      >
        <table class="min-w-full divide-y divide-slate-200 text-left text-sm">
          <caption class="sr-only">Coupons, newest first</caption>
          <thead class="bg-slate-100 text-slate-800">
            <tr>
              <th scope="col" class="px-4 py-3 font-semibold">Code</th>
              <th scope="col" class="px-4 py-3 font-semibold">Discount</th>
              <th scope="col" class="px-4 py-3 font-semibold">Uses</th>
              <th scope="col" class="hidden px-4 py-3 font-semibold sm:table-cell">Expires</th>
              <th scope="col" class="px-4 py-3 font-semibold">Active</th>
              <th scope="col" class="px-4 py-3 font-semibold">
                <span class="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody class="divide-y divide-slate-200 text-slate-800">
            {(coupons ?? []).map((c) => (
              <tr key={c.id}>
                <th scope="row" class="px-4 py-3 font-mono font-medium">{c.code}</th>
                <td class="px-4 py-3">{discountText(c)}</td>
                <td class="px-4 py-3 whitespace-nowrap">{`${c.usedCount} / ${c.usageLimit ?? "∞"}`}</td>
                <td class="hidden px-4 py-3 sm:table-cell">
                  {c.expiresAt ? formatDateTime(c.expiresAt) : "Never"}
                </td>
                <td class="px-4 py-3">
                  <Switch label={`Active: ${c.code}`} checked={c.isActive} onChange={(on) => setActive(c, on)} />
                </td>
                <td class="px-4 py-3 text-right">
                  <RowDeleteButton name={c.code} onClick={() => setDeleting(c)} />
                </td>
              </tr>
            ))}
            {coupons !== null && coupons.length === 0 && (
              <tr>
                <td colSpan={6} class="px-4 py-8 text-center text-slate-700">
                  {query ? "No coupons match this code." : "There are no coupons yet."}
                </td>
              </tr>
            )}
          </tbody>
        </table>
      </div>
      <ConfirmDialog
        open={deleting !== null}
        title="Delete this coupon?"
        confirmLabel="Yes, delete"
        busyLabel="Deleting…"
        busy={deletingBusy}
        tone="danger"
        onConfirm={remove}
        onCancel={() => setDeleting(null)}
      >
        The coupon {deleting?.code} will be removed for good. Purchases that used it keep their history.
      </ConfirmDialog>
    </div>
  );
}
