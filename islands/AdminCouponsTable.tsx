/**
 * The admin coupons table (docs/api.md, Toolkits; docs/decisions.md, Toolkits and payments): search by code
 * (debounced), create a coupon (percentage or fixed rupees, limits, expiry), uses shown against
 * the usage limit, the active switch to deactivate one, and delete after confirming. The new
 * coupon form shows each problem at its field (an expiry that has passed is refused before
 * sending, the server's refusals from its `fields`).
 */
import { useState } from "preact/hooks";
import { fetchJson } from "@/lib/browser/fetch_json.ts";
import { ConfirmDialog } from "@/components/ConfirmDialog.tsx";
import { AdminTable, ListSearch } from "@/components/AdminList.tsx";
import { Cell } from "@/components/StackedTable.tsx";
import { Notice, SelectField, SubmitButton, TextField } from "@/components/forms.tsx";
import { formatDateTime, fromIstInput } from "@/lib/dates.ts";
import { couponWarnings, EXPIRY_PASSED } from "@/lib/browser/admin_checks.ts";
import { useAdminList } from "@/lib/browser/use_admin_list.ts";
import { useConfirmDelete } from "@/lib/browser/use_confirm_delete.ts";
import { useFormSubmit } from "@/lib/browser/use_form_submit.ts";
import { formatRupees } from "@/lib/money.ts";
import { RowDeleteButton, Switch } from "@/components/RowControls.tsx";
import type { Coupon } from "@/lib/coupons/coupons.ts";

const EMPTY = {
  code: "",
  discountType: "percentage",
  discountValue: "",
  usageLimit: "",
  perUserLimit: "1",
  expiresAt: "",
};

type Field = keyof typeof EMPTY;
const FIELDS = Object.keys(EMPTY) as Field[];

/** The whole-number limits of the form: field, label. */
const LIMITS: [Field, string][] = [
  ["usageLimit", "Usage limit (empty: unlimited)"],
  ["perUserLimit", "Uses per user"],
];

function discountText(c: Coupon): string {
  return c.discountType === "percentage" ? `${c.discountValue} % off` : `${formatRupees(c.discountValue)} off`;
}

export default function AdminCouponsTable() {
  const list = useAdminList<Coupon, { coupons: Coupon[] }>({
    path: ({ query }) => `/api/admin/coupons${query ? `?${new URLSearchParams({ search: query })}` : ""}`,
    rowsOf: (data) => data.coupons,
  });
  const remove = useConfirmDelete<Coupon>({
    path: (coupon) => `/api/admin/coupons/${coupon.id}`,
    deleted: (coupon) => {
      list.dropRow(coupon.id);
      list.announce(`Coupon ${coupon.code} deleted.`);
    },
    failed: (_, error) => list.setRowError(error),
  });
  const [form, setForm] = useState(EMPTY);
  const submit = useFormSubmit(FIELDS, { prefix: "coupon-" });

  const set = (field: Field) => (value: string) => setForm((current) => ({ ...current, [field]: value }));

  const create = async (event: Event) => {
    const expiresAt = fromIstInput(form.expiresAt);
    const result = await submit.submit(event, {
      check: () => expiresAt !== null && Date.parse(expiresAt) <= Date.now() ? { expiresAt: EXPIRY_PASSED } : {},
      call: () =>
        fetchJson<{ coupon: Coupon }>("/api/admin/coupons", {
          body: {
            code: form.code.trim(),
            discountType: form.discountType,
            discountValue: Number(form.discountValue),
            usageLimit: form.usageLimit.trim() === "" ? null : Number(form.usageLimit),
            perUserLimit: Number(form.perUserLimit || "1"),
            expiresAt,
          },
        }),
    });
    if (!result) return;
    if (!result.ok) return submit.showFailure(result);
    const { coupon } = result.data;
    list.setRows((rows) => [coupon, ...(rows ?? [])]);
    setForm(EMPTY);
    list.announce(`Coupon ${coupon.code} created.`);
  };

  const setActive = async (coupon: Coupon, isActive: boolean) => {
    const saved = await list.run(
      fetchJson<{ coupon: Coupon }>(`/api/admin/coupons/${coupon.id}`, { method: "PATCH", body: { isActive } }),
    );
    if (!saved) return;
    list.replaceRow(saved.coupon);
    list.announce(`Coupon ${coupon.code} ${isActive ? "activated" : "deactivated"}.`);
  };

  const warnings = couponWarnings({
    discountType: form.discountType,
    discountValue: Number(form.discountValue),
    expiresAt: fromIstInput(form.expiresAt),
  });
  const bound = (field: Field) => submit.textField(field, form[field], set(field));

  return (
    <div class="space-y-6">
      <form
        ref={submit.form}
        onSubmit={create}
        class="space-y-4 rounded-lg border border-slate-200 bg-white p-4 shadow-sm"
        aria-labelledby="new-coupon-heading"
      >
        <h2 id="new-coupon-heading" class="text-lg font-semibold text-slate-900">New coupon</h2>
        {submit.formError && <Notice kind="error" title="The coupon was not created">{submit.formError}</Notice>}
        <div class="grid gap-4 sm:grid-cols-3">
          <TextField label="Code" {...bound("code")} maxLength={40} required class="uppercase" />
          <SelectField
            id={submit.idOf("discountType")}
            name="discountType"
            label="Discount type"
            placeholder={null}
            options={[{ value: "percentage", label: "Percentage" }, { value: "fixed", label: "Fixed amount (₹)" }]}
            value={form.discountType}
            error={submit.errors.discountType}
            onChange={set("discountType")}
          />
          <TextField
            label={form.discountType === "percentage" ? "Percent off" : "Rupees off"}
            type="number"
            min={0}
            step="0.01"
            required
            {...bound("discountValue")}
          />
          {LIMITS.map(([field, label]) => (
            <TextField key={field} label={label} type="number" min={1} step={1} {...bound(field)} />
          ))}
          <TextField label="Expires (IST, optional)" type="datetime-local" {...bound("expiresAt")} />
        </div>
        {warnings.length > 0 && (
          <Notice kind="info" title="Check before creating">
            <ul class="list-disc pl-5">{warnings.map((w) => <li key={w}>{w}</li>)}</ul>
          </Notice>
        )}
        <SubmitButton busy={submit.busy} label="Create coupon" busyLabel="Creating…" />
      </form>

      <div role="search" class="max-w-md">
        <ListSearch id="coupon-search" label="Search by code" list={list} maxLength={40} />
      </div>
      <AdminTable
        list={list}
        loadingText="Loading coupons…"
        loadErrorTitle="We could not load the coupons"
        rowErrorTitle="That did not work"
        label="Coupons"
        caption="Coupons, newest first"
        columns={[
          { label: "Code" },
          { label: "Discount" },
          { label: "Uses" },
          { label: "Expires" },
          { label: "Active" },
          { label: "Actions", hidden: true },
        ]}
        empty={list.query ? "No coupons match this code." : "There are no coupons yet."}
      >
        {(list.rows ?? []).map((c) => (
          <tr key={c.id}>
            <th scope="row" class="px-4 py-3 font-mono font-medium">{c.code}</th>
            <Cell label="Discount">{discountText(c)}</Cell>
            <Cell label="Uses" class="whitespace-nowrap">{`${c.usedCount} / ${c.usageLimit ?? "∞"}`}</Cell>
            <Cell label="Expires">{c.expiresAt ? formatDateTime(c.expiresAt) : "Never"}</Cell>
            <Cell label="Active">
              <Switch label={`Active: ${c.code}`} checked={c.isActive} onChange={(on) => setActive(c, on)} />
            </Cell>
            <Cell class="lg:text-right">
              <RowDeleteButton name={c.code} onClick={() => remove.ask(c)} />
            </Cell>
          </tr>
        ))}
      </AdminTable>
      <ConfirmDialog {...remove.dialog} title="Delete this coupon?">
        The coupon {remove.target?.code} will be removed for good. Purchases that used it keep their history.
      </ConfirmDialog>
    </div>
  );
}
