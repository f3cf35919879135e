/**
 * Accessible form parts shared by the islands: fields whose label, hint and error are tied to
 * the control (`for`, `aria-describedby`, `aria-invalid`), a submit button that shows progress, and message boxes for
 * form-level outcomes (choice groups, used by fewer islands, are in `ChoiceGroup.tsx`, so the rest do not carry them).
 * Every control gets the field's JSON name as its `name` (its `id` unless a `name` is given).
 * A control an island writes itself (a table row's select) ties its error with `invalidProps`
 * (`lib/browser/field_props.ts`) and `FieldError`; its classes are in `lib/browser/styles.ts`.
 */
import type { ComponentChildren, InputHTMLAttributes, TextareaHTMLAttributes } from "preact";
import { describedBy } from "@/lib/browser/field_props.ts";
import { CONTROL, INPUT } from "@/lib/browser/styles.ts";
import { useHydrated } from "@/lib/browser/use_hydrated.ts";
import { useT } from "@/lib/i18n/context.ts";

function withClass(base: string, extra?: string): string {
  return extra ? `${base} ${extra}` : base;
}

function controlClass(error?: ComponentChildren): string {
  return error ? `${CONTROL} border-red-700` : INPUT;
}

/** The hint under the label of the control `id` (`${id}-hint`, which the control names); nothing without one. */
export function Hint({ id, hint }: { id: string; hint?: ComponentChildren }) {
  return hint ? <p id={`${id}-hint`} class="mt-1 text-sm text-slate-700">{hint}</p> : null;
}

/** The error sentence of the control `id`, shown under it; nothing without an error. */
export function FieldError({ id, error }: { id: string; error?: ComponentChildren }) {
  return error ? <p id={`${id}-error`} class="mt-1 text-sm font-medium text-red-700">{error}</p> : null;
}

/** Common props of a labelled field. */
export interface FieldProps {
  id: string;
  label: string;
  hint?: ComponentChildren;
  error?: ComponentChildren;
}

/**
 * A text-like `<input>` (text, email, password, url, date, tel) with its label, hint and error;
 * `class` adds classes to the control's own.
 */
export function TextField(
  { id, label, hint, error, class: extra, ...input }:
    & FieldProps
    & Omit<InputHTMLAttributes<HTMLInputElement>, "id" | "label" | "class">
    & { class?: string },
) {
  return (
    <div>
      <label for={id} class="block text-sm font-medium text-slate-800">{label}</label>
      <Hint id={id} hint={hint} />
      <input
        id={id}
        name={id}
        aria-invalid={error ? "true" : undefined}
        aria-describedby={describedBy(id, hint, error)}
        class={withClass(controlClass(error), extra)}
        {...input}
      />
      <FieldError id={id} error={error} />
    </div>
  );
}

/** A `<textarea>` with its label, hint and error, wired like `TextField`. */
export function TextAreaField(
  { id, label, hint, error, class: extra, ...area }:
    & FieldProps
    & Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, "id" | "label" | "class">
    & { class?: string },
) {
  return (
    <div>
      <label for={id} class="block text-sm font-medium text-slate-800">{label}</label>
      <Hint id={id} hint={hint} />
      <textarea
        id={id}
        name={id}
        aria-invalid={error ? "true" : undefined}
        aria-describedby={describedBy(id, hint, error)}
        class={withClass(controlClass(error), extra)}
        {...area}
      />
      <FieldError id={id} error={error} />
    </div>
  );
}

/** One choice of a select or a group. */
export interface Choice {
  value: string;
  label: string;
}

/**
 * A `<select>` with its label, hint and error, and a placeholder first option (the message `common.choose` unless
 * given) unless `placeholder` is null (a field that always has a value).
 */
export function SelectField(
  { id, name = id, label, hint, error, options, value, placeholder, onChange }: FieldProps & {
    name?: string;
    options: Choice[];
    value: string;
    placeholder?: string | null;
    onChange: (value: string) => void;
  },
) {
  const t = useT();
  return (
    <div>
      <label for={id} class="block text-sm font-medium text-slate-800">{label}</label>
      <Hint id={id} hint={hint} />
      <select
        id={id}
        name={name}
        value={value}
        aria-invalid={error ? "true" : undefined}
        aria-describedby={describedBy(id, hint, error)}
        class={controlClass(error)}
        onChange={(e) => onChange(e.currentTarget.value)}
      >
        {placeholder !== null && <option value="">{placeholder ?? t("common.choose")}</option>}
        {options.map((o) => <option key={o.value} value={o.value}>{o.label}</option>)}
      </select>
      <FieldError id={id} error={error} />
    </div>
  );
}

/**
 * The primary button of a form: disabled while `busy`, then shows `busyLabel` (with a spinner that turns only for
 * a person who has not asked for reduced motion). A form that
 * also works as plain HTML (its page handles the POST or GET) sets `worksWithoutScript`; any
 * other form's button stays disabled until hydrated, when its handlers exist.
 */
export function SubmitButton(
  { busy, label, busyLabel, type = "submit", onClick, worksWithoutScript = false }: {
    busy: boolean;
    label: string;
    busyLabel: string;
    type?: "submit" | "button";
    onClick?: () => void;
    worksWithoutScript?: boolean;
  },
) {
  const hydrated = useHydrated();
  return (
    <button
      type={type}
      disabled={(!hydrated && !worksWithoutScript) || busy}
      aria-busy={busy ? "true" : undefined}
      onClick={onClick}
      class="inline-flex items-center justify-center gap-2 rounded-md bg-indigo-700 px-4 py-2 font-medium text-white hover:bg-indigo-800 disabled:cursor-not-allowed disabled:opacity-70"
    >
      {busy && (
        <span
          aria-hidden="true"
          class="h-4 w-4 motion-safe:animate-spin rounded-full border-2 border-white border-t-transparent"
        />
      )}
      {busy ? busyLabel : label}
    </button>
  );
}

/** A message box: `error` is announced as an alert, `success` and `info` as a status. */
export function Notice(
  { kind, title, children }: { kind: "error" | "success" | "info"; title?: string; children?: ComponentChildren },
) {
  const styles = {
    error: "border-red-300 bg-red-50 text-red-800",
    success: "border-green-300 bg-green-50 text-green-800",
    info: "border-sky-300 bg-sky-50 text-sky-900",
  }[kind];
  return (
    <div role={kind === "error" ? "alert" : "status"} class={`rounded-md border px-4 py-3 text-sm ${styles}`}>
      {title && <p class="font-semibold">{title}</p>}
      {children && <div class={title ? "mt-1" : ""}>{children}</div>}
    </div>
  );
}
