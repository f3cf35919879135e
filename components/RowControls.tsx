/**
 * The per-row controls of the admin table islands: an on/off switch (a checkbox with the switch
 * role, named for its row, e.g. "Active: SAVE20") and the Delete button that opens the row's
 * confirmation (its accessible name says which row: "Delete SAVE20").
 */
import { useT } from "@/lib/i18n/context.ts";

/**
 * An on/off switch named `label` (e.g. "Active: SAVE20"); with `name` and `form`, a field (`true` when on) of the row's
 * plain form (the `form` element's id), for the page before its island hydrates.
 */
export function Switch(
  { label, checked, onChange, name, form }: {
    label: string;
    checked: boolean;
    onChange: (checked: boolean) => void;
    name?: string;
    form?: string;
  },
) {
  return (
    <input
      type="checkbox"
      role="switch"
      aria-label={label}
      name={name}
      form={form}
      value="true"
      checked={checked}
      onChange={(e) => onChange(e.currentTarget.checked)}
      class="h-5 w-5 accent-indigo-700"
    />
  );
}

/**
 * The Delete button of the row named `name`. With `confirmAt` (the page's confirmation, e.g. `/admin/coupons#delete`)
 * and `id`, before hydration, it is its form's button that opens that page with `?delete={id}` instead (a `GET`).
 */
export function RowDeleteButton(
  { name, onClick, disabled = false, confirmAt, id }: {
    name: string;
    onClick?: () => void;
    disabled?: boolean;
    confirmAt?: string;
    id?: string;
  },
) {
  const t = useT();
  return (
    <button
      type={confirmAt ? "submit" : "button"}
      formMethod={confirmAt && "get"}
      formAction={confirmAt}
      name={confirmAt && "delete"}
      value={confirmAt && id}
      disabled={disabled}
      onClick={onClick}
      class="rounded-md border border-red-300 bg-white px-3 py-1 text-sm font-medium text-red-700 hover:bg-red-50 disabled:opacity-60"
    >
      {t.rich("common.deleteNamed", { name: () => <span class="sr-only">{` ${name} `}</span> })}
    </button>
  );
}
