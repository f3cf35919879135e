/**
 * Browser-safe: how a form control is tied to its hint and error for assistive technology (`aria-describedby`,
 * `aria-invalid`), shared by the field components of `components/forms.tsx` and the controls an island writes itself
 * (a table row's select), which pair `invalidProps` with `FieldError`.
 */
import type { ComponentChildren } from "preact";

/** The ids that describe control `id`: its hint's and its error's, when they are shown; undefined for none. */
export function describedBy(id: string, hint?: ComponentChildren, error?: ComponentChildren): string | undefined {
  return [hint ? `${id}-hint` : "", error ? `${id}-error` : ""].filter(Boolean).join(" ") || undefined;
}

/**
 * The attributes that mark the control `id` invalid and described by its `FieldError`, when `error` is set, and by its
 * hint (`${id}-hint`), when `hint` is.
 */
export function invalidProps(id: string, error?: ComponentChildren, hint?: ComponentChildren) {
  return { "aria-invalid": error ? "true" as const : undefined, "aria-describedby": describedBy(id, hint, error) };
}
