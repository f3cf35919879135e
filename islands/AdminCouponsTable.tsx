/**
 * The admin coupons table (docs/api.md, Toolkits; docs/decisions.md, Toolkits and payments): search by code
 * (debounced), create a coupon (percentage or fixed rupees, limits, expiry), uses shown against
 * the usage limit, its expiry ("Expired …" once passed), the active switch to deactivate one, and delete after confirming. The new
 * coupon form shows each problem at its field (an expiry that has passed is refused before
 * sending, the server's refusals from its `fields`). The page renders the coupons first; until hydrated the new
 * coupon form posts to the page, a row's Active switch is a plain form with a Save button and its Delete a link to the
 * page's confirmation (`routes/admin/coupons.tsx`), both carrying the search the page answers (`search`), so they
 * return to it. Leaving with a new coupon typed and not created asks first (`data-unsaved`; docs/decisions.md, Islands,
 * "Leaving a typed form").
 */
import { useState } from "preact/hooks";
import { fetchJson, refusalPrefixes } from "@/lib/browser/fetch_json.ts";
import { ConfirmDialog } from "@/components/ConfirmDialog.tsx";
import { AdminTable, ListSearch } from "@/components/AdminList.tsx";
import { Cell } from "@/components/StackedTable.tsx";
import { Notice, SelectField, SubmitButton, TextField } from "@/components/forms.tsx";
import { fromIstInput } from "@/lib/dates.ts";
import { couponWarnings, EXPIRY_PASSED } from "@/lib/browser/coupon_checks.ts";
import { ADMIN_LIST_TEXT, useAdminList } from "@/lib/browser/use_admin_list.ts";
import { DELETE_DIALOG_TEXT, useConfirmDelete } from "@/lib/browser/use_confirm_delete.ts";
import { useFormSubmit } from "@/lib/browser/use_form_submit.ts";
import { RowDeleteButton, Switch } from "@/components/RowControls.tsx";
import { useHydrated } from "@/lib/browser/use_hydrated.ts";
import { SECONDARY_BUTTON } from "@/lib/browser/styles.ts";
import type { Coupon } from "@/lib/coupons/coupons.ts";
import { useT } from "@/lib/i18n/context.ts";
import { IslandTextProvider } from "@/lib/i18n/island_text.ts";
import type { IslandText, MessageKey, Translate } from "@/lib/i18n/translator.ts";

/** The messages this island uses (its `text`). */
export const ADMIN_COUPONS_TEXT = [
  "admin.coupons.",
  "admin.checks.",
  "fields.",
  ...ADMIN_LIST_TEXT,
  ...DELETE_DIALOG_TEXT,
  ...refusalPrefixes("duplicateCode", "expiredAtCreation", "couponNotFound"),
] as const;

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
const LIMITS: [Field, MessageKey][] = [
  ["usageLimit", "admin.coupons.usageLimit"],
  ["perUserLimit", "admin.coupons.perUser"],
];

function discountText(t: Translate, c: Coupon): string {
  return c.discountType === "percentage"
    ? t("admin.coupons.percentOff", { value: c.discountValue })
    : t("admin.coupons.rupeesOff", { amount: t.rupees(c.discountValue) });
}

/** A new coupon form the page refused: the fields as sent, each field's problem and the form's, worded. */
export interface RefusedCoupon {
  values: Record<Field, string>;
  errors: Partial<Record<string, string>>;
  error: string;
}

/** Props: the coupons as the server read them, a refused new coupon form, and the messages (`ADMIN_COUPONS_TEXT`). */
export interface AdminCouponsTableProps {
  initial: Coupon[];
  /** The search `initial` answers ("": none); before hydration the search is a `GET` form to the page. */
  search: string;
  refused?: RefusedCoupon;
  text: IslandText;
}

export default function AdminCouponsTable({ text, ...props }: AdminCouponsTableProps) {
  return (
    <IslandTextProvider text={text}>
      <CouponsTable {...props} />
    </IslandTextProvider>
  );
}

function CouponsTable({ initial, search, refused }: Omit<AdminCouponsTableProps, "text">) {
  const t = useT();
  const hydrated = useHydrated();
  const list = useAdminList<Coupon, { coupons: Coupon[] }>({
    path: ({ query }) => `/api/admin/coupons${query ? `?${new URLSearchParams({ search: query })}` : ""}`,
    rowsOf: (data) => data.coupons,
    initial,
    start: { query: search, offset: 0 },
  });
  const remove = useConfirmDelete<Coupon>({
    path: (coupon) => `/api/admin/coupons/${coupon.id}`,
    deleted: (coupon) => {
      list.dropRow(coupon.id);
      list.announce(t("admin.coupons.deleted", { code: coupon.code }));
    },
    failed: (_, error) => list.setRowError(error),
  });
  const [form, setForm] = useState(refused?.values ?? EMPTY);
  const submit = useFormSubmit(FIELDS, {
    prefix: "coupon-",
    initial: refused && { errors: refused.errors, formError: refused.error },
  });

  const set = (field: Field) => (value: string) => setForm((current) => ({ ...current, [field]: value }));

  const create = async (event: Event) => {
    const expiresAt = fromIstInput(form.expiresAt);
    const result = await submit.submit(event, {
      check: () => expiresAt !== null && Date.parse(expiresAt) <= Date.now() ? { expiresAt: t(EXPIRY_PASSED) } : {},
      call: () =>
        fetchJson<{ coupon: Coupon }>("/api/admin/coupons", {
          body: {
            code: form.code,
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
    list.announce(t("admin.coupons.created", { code: coupon.code }));
  };

  const setActive = async (coupon: Coupon, isActive: boolean) => {
    const saved = await list.run(
      fetchJson<{ coupon: Coupon }>(`/api/admin/coupons/${coupon.id}`, { method: "PATCH", body: { isActive } }),
    );
    if (!saved) return;
    list.replaceRow(saved.coupon);
    list.announce(t(isActive ? "admin.coupons.activated" : "admin.coupons.deactivated", { code: coupon.code }));
  };

  const warnings = couponWarnings(t, {
    discountType: form.discountType,
    discountValue: Number(form.discountValue),
    expiresAt: fromIstInput(form.expiresAt),
  });
  const bound = (field: Field) => submit.textField(field, form[field], set(field));

  return (
    <div class="space-y-6">
      <form
        ref={submit.form}
        method="post"
        action="/admin/coupons"
        noValidate
        onSubmit={create}
        data-unsaved={FIELDS.some((field) => form[field] !== EMPTY[field]) || undefined}
        class="space-y-4 rounded-lg border border-slate-200 bg-white p-4 shadow-sm"
        aria-labelledby="new-coupon-heading"
      >
        <h2 id="new-coupon-heading" class="text-lg font-semibold text-slate-900">{t("admin.coupons.new")}</h2>
        <input type="hidden" name="intent" value="create" />
        {submit.formError && <Notice kind="error" title={t("admin.coupons.notCreated")}>{submit.formError}</Notice>}
        <div class="grid gap-4 sm:grid-cols-3">
          <TextField label={t("admin.coupons.code")} {...bound("code")} maxLength={40} required class="uppercase" />
          <SelectField
            id={submit.idOf("discountType")}
            name="discountType"
            label={t("admin.coupons.discountType")}
            placeholder={null}
            options={[
              { value: "percentage", label: t("admin.coupons.percentage") },
              { value: "fixed", label: t("admin.coupons.fixed") },
            ]}
            value={form.discountType}
            error={submit.errors.discountType}
            onChange={set("discountType")}
          />
          <TextField
            label={t(form.discountType === "percentage" ? "admin.coupons.percentLabel" : "admin.coupons.rupeesLabel")}
            type="number"
            min={0}
            step="0.01"
            required
            {...bound("discountValue")}
          />
          {LIMITS.map(([field, label]) => (
            <TextField key={field} label={t(label)} type="number" min={1} {...bound(field)} />
          ))}
          <TextField label={t("admin.coupons.expires")} type="datetime-local" {...bound("expiresAt")} />
        </div>
        {warnings.length > 0 && (
          <Notice kind="info" title={t("admin.coupons.checkFirst")}>
            <ul class="list-disc pl-5">{warnings.map((w) => <li key={w}>{w}</li>)}</ul>
          </Notice>
        )}
        <SubmitButton
          busy={submit.busy}
          label={t("admin.coupons.create")}
          busyLabel={t("admin.coupons.creating")}
          worksWithoutScript
        />
      </form>

      <form method="get" onSubmit={(e) => e.preventDefault()} role="search" class="flex max-w-md items-end gap-3">
        <div class="flex-1">
          <ListSearch id="search" label={t("admin.coupons.search")} list={list} maxLength={40} />
        </div>
        {!hydrated && <button type="submit" class={SECONDARY_BUTTON}>{t("admin.coupons.searchSubmit")}</button>}
      </form>
      <AdminTable
        list={list}
        loadingText={t("admin.coupons.loading")}
        loadErrorTitle={t("admin.coupons.loadError")}
        rowErrorTitle={t("admin.list.rowFailed")}
        label={t("admin.coupons.label")}
        caption={t("admin.coupons.caption")}
        columns={[
          { label: t("admin.coupons.code") },
          { label: t("admin.coupons.discount") },
          { label: t("admin.coupons.uses") },
          { label: t("admin.coupons.expiresColumn") },
          { label: t("admin.list.active") },
          { label: t("admin.list.actions"), hidden: true },
        ]}
        empty={t(list.query ? "admin.coupons.noMatch" : "admin.coupons.none")}
      >
        {(list.rows ?? []).map((c) => (
          <tr key={c.id}>
            <th scope="row" class="px-4 py-3 font-mono font-medium">{c.code}</th>
            <Cell label={t("admin.coupons.discount")}>{discountText(t, c)}</Cell>
            <Cell label={t("admin.coupons.uses")} class="whitespace-nowrap">
              {`${t.number(c.usedCount)} / ${c.usageLimit === null ? "∞" : t.number(c.usageLimit)}`}
            </Cell>
            <Cell label={t("admin.coupons.expiresColumn")}>
              {!c.expiresAt
                ? t("admin.coupons.never")
                : Date.parse(c.expiresAt) <= Date.now()
                ? t("admin.coupons.expired", { date: t.dateTime(c.expiresAt) })
                : t.dateTime(c.expiresAt)}
            </Cell>
            <Cell label={t("admin.list.active")}>
              <Switch
                label={t("admin.list.activeSwitch", { name: c.code })}
                checked={c.isActive}
                onChange={(on) => setActive(c, on)}
                name="isActive"
                form={`coupon-row-${c.id}`}
              />
            </Cell>
            <Cell class="lg:text-right">
              <form
                id={`coupon-row-${c.id}`}
                method="post"
                action="/admin/coupons"
                onSubmit={(e) => e.preventDefault()}
                class="flex flex-wrap gap-2 lg:justify-end"
              >
                <input type="hidden" name="intent" value="update" />
                <input type="hidden" name="id" value={c.id} />
                {search && <input type="hidden" name="search" value={search} />}
                {hydrated ? <RowDeleteButton name={c.code} onClick={() => remove.ask(c)} /> : (
                  <>
                    <button type="submit" class={SECONDARY_BUTTON}>
                      {t.rich("admin.coupons.saveNamed", { name: () => <span class="sr-only">{` ${c.code} `}</span> })}
                    </button>
                    <RowDeleteButton name={c.code} confirmAt="/admin/coupons#delete-coupon" id={c.id} />
                  </>
                )}
              </form>
            </Cell>
          </tr>
        ))}
      </AdminTable>
      <ConfirmDialog {...remove.dialog} title={t("admin.coupons.deleteTitle")}>
        {t("admin.coupons.deleteText", { code: remove.target?.code ?? "" })}
      </ConfirmDialog>
    </div>
  );
}
