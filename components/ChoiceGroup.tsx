/**
 * A group of checkboxes or radio buttons in a `fieldset` with a `legend`, its hint and error tied to it as the fields
 * of `forms.tsx` are; apart from them, so that the islands without a group do not carry it.
 */
import { describedBy } from "@/lib/browser/field_props.ts";
import { type Choice, FieldError, type FieldProps, Hint } from "@/components/forms.tsx";

/**
 * A group of checkboxes (`multiple`) or radio buttons in a fieldset. `value` is the list of
 * checked values (one at most for radios); `onChange` receives the new list.
 */
export function ChoiceGroup(
  { id, label, hint, error, options, value, multiple, onChange, columns = 2 }: FieldProps & {
    options: Choice[];
    value: string[];
    multiple: boolean;
    onChange: (value: string[]) => void;
    columns?: 1 | 2 | 3;
  },
) {
  const grid = { 1: "", 2: "sm:grid-cols-2", 3: "sm:grid-cols-3" }[columns];
  return (
    <fieldset aria-describedby={describedBy(id, hint, error)} aria-invalid={error ? "true" : undefined}>
      <legend class="text-sm font-medium text-slate-800">{label}</legend>
      <Hint id={id} hint={hint} />
      <div class={`mt-2 grid gap-2 ${grid}`}>
        {options.map((o, i) => {
          const checked = value.includes(o.value);
          return (
            <label
              key={o.value}
              class={`flex cursor-pointer items-center gap-3 rounded-md border px-3 py-2 text-slate-800 ${
                checked ? "border-indigo-600 bg-indigo-50" : "border-slate-300 bg-white hover:bg-slate-50"
              }`}
            >
              <input
                type={multiple ? "checkbox" : "radio"}
                id={`${id}-${i}`}
                name={id}
                value={o.value}
                checked={checked}
                class="h-4 w-4 accent-indigo-700"
                onChange={(e) => {
                  const on = e.currentTarget.checked;
                  if (!multiple) onChange(on ? [o.value] : []);
                  else onChange(on ? [...value, o.value] : value.filter((v) => v !== o.value));
                }}
              />
              <span>{o.label}</span>
            </label>
          );
        })}
      </div>
      <FieldError id={id} error={error} />
    </fieldset>
  );
}
