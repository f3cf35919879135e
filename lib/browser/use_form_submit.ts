/**
 * The submit flow the islands' forms share: field errors shown beside their fields with the
 * first one focused, a form-level error, and a `busy` flag while the API call runs (the
 * `SubmitButton` shows it). A form whose success leaves the page (`leaves: true`) stays busy
 * after a success so it cannot be sent twice while the next page loads, and is marked
 * `aria-busy` at once, so that leaving with what it sent asks nothing (docs/decisions.md,
 * Islands, "Leaving a typed form"); any other form is ready again once the answer is in.
 */
import type { ComponentChildren, RefObject } from "preact";
import { type StateUpdater, useRef, useState } from "preact/hooks";
import { type ApiFailure, type ApiResult, failureMessage } from "./fetch_json.ts";
import { useT } from "@/lib/i18n/context.ts";
import { fieldText } from "@/lib/i18n/field_text.ts";

/** A message per field, keyed by the field's JSON name (also its control's `name`). */
export type FieldErrors<F extends string> = Partial<Record<F, ComponentChildren>>;

/** What `textField` spreads onto a `TextField`. */
export interface TextFieldBinding<F extends string> {
  id: string;
  name: F;
  value: string;
  error: ComponentChildren;
  onInput: (event: { currentTarget: HTMLInputElement }) => void;
}

/** The state and actions `useFormSubmit` gives a form. */
export interface FormSubmit<F extends string> {
  /** Goes on the `<form>`: the first field in error is looked up inside it. */
  form: RefObject<HTMLFormElement>;
  errors: FieldErrors<F>;
  setErrors: (errors: StateUpdater<FieldErrors<F>>) => void;
  formError: string;
  setFormError: (message: string) => void;
  busy: boolean;
  /** The control id of field `field`: the form's `prefix` and the field's name. */
  idOf: (field: F) => string;
  /**
   * The props that tie a `TextField` to field `name`: its id (`idOf`), its value, its error, and
   * `onInput` calling `setValue`.
   */
  textField: (name: F, value: string, setValue: (value: string) => void) => TextFieldBinding<F>;
  /** Shows `found` (replacing earlier errors) and focuses the first field in error; true if there is one. */
  showErrors: (found: FieldErrors<F>) => boolean;
  /**
   * Shows a refused call: every field problem the server listed beside its field at once (the
   * first focused), a problem of a field the form does not have in the form-level error with
   * its label from `labels` ("Label: sentence"), and the call's refusal when it listed none, in
   * the island's language (`failureMessage`).
   */
  showFailure: (failure: ApiFailure, labels?: Partial<Record<string, string>>) => void;
  /** Runs `call` with `busy` set; resolves to its result. */
  send: <T>(call: () => Promise<ApiResult<T>>) => Promise<ApiResult<T>>;
  /**
   * The `onSubmit` flow: stops the browser's submit, clears the form-level error, shows what
   * `check` finds and, if it finds nothing, runs `call` through `send`. Resolves to null when
   * the check stopped it.
   */
  submit: <T>(
    event: Event,
    steps: { check: () => FieldErrors<F>; call: () => Promise<ApiResult<T>> },
  ) => Promise<ApiResult<T> | null>;
}

/**
 * The submit state of one form. `fields` lists its fields in page order (the first in error
 * gets focus); `leaves` is true when a success navigates away; `initial` holds the errors a
 * server-rendered page already shows (a plain HTML submit that failed); `prefix` starts every
 * control id, for a page with two forms of the same fields (a control's `name` stays the field's).
 */
export function useFormSubmit<F extends string>(
  fields: readonly F[],
  { leaves = false, initial, prefix = "" }: {
    leaves?: boolean;
    initial?: { errors?: FieldErrors<F>; formError?: string };
    prefix?: string;
  } = {},
): FormSubmit<F> {
  const [errors, setErrors] = useState<FieldErrors<F>>(initial?.errors ?? {});
  const [formError, setFormError] = useState(initial?.formError ?? "");
  const [busy, setBusy] = useState(false);
  const form = useRef<HTMLFormElement>(null);
  const t = useT();

  const idOf = (field: F) => `${prefix}${field}`;
  const textField = (name: F, value: string, setValue: (value: string) => void): TextFieldBinding<F> => ({
    id: idOf(name),
    name,
    value,
    error: errors[name],
    onInput: (event) => setValue(event.currentTarget.value),
  });

  const showErrors = (found: FieldErrors<F>): boolean => {
    setErrors(found);
    const first = fields.find((f) => found[f]);
    if (first) form.current?.querySelector<HTMLElement>(`[name="${first}"]`)?.focus();
    return first !== undefined;
  };

  const showFailure = (failure: ApiFailure, labels: Partial<Record<string, string>> = {}) => {
    const found: FieldErrors<F> = {};
    const elsewhere = failure.fields.filter((problem) => {
      if (!(fields as readonly string[]).includes(problem.field)) return true;
      found[problem.field as F] ??= fieldText(t, problem);
      return false;
    });
    showErrors(found);
    const shown = Object.keys(found).length > 0;
    const rest = { ...failure, fields: elsewhere };
    setFormError(shown && elsewhere.length === 0 ? "" : failureMessage(t, rest, labels));
  };

  const send = async <T>(call: () => Promise<ApiResult<T>>): Promise<ApiResult<T>> => {
    setBusy(true);
    const result = await call();
    if (!result.ok || !leaves) setBusy(false);
    // Set now, not at the next render: the caller leaves the page right after this returns.
    else form.current?.setAttribute("aria-busy", "true");
    return result;
  };

  const submit = async <T>(
    event: Event,
    { check, call }: { check: () => FieldErrors<F>; call: () => Promise<ApiResult<T>> },
  ): Promise<ApiResult<T> | null> => {
    event.preventDefault();
    setFormError("");
    if (showErrors(check())) return null;
    return await send(call);
  };

  return {
    form,
    errors,
    setErrors,
    formError,
    setFormError,
    busy,
    idOf,
    textField,
    showErrors,
    showFailure,
    send,
    submit,
  };
}
