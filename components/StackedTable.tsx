/**
 * Tables that stack on a phone or tablet: below `lg` (1024 px) a table marked `STACKED_TABLE` (its classes, in
 * `lib/browser/styles.ts`) draws each row as a
 * block, its row heading first, then each cell on a line of its own, named by `Cell`'s label, since a narrow screen
 * (or the admin area beside its menu) has no room for the columns, and a column scrolled off-screen hides what is in
 * it (a Refund button, a receipt link). Stacked, a word longer than the line may break anywhere; as a table, no cell
 * breaks a word, so no column is squeezed. The column headings stay for screen readers, which keep the table's
 * semantics. From `lg` up it is a plain table.
 */
import type { ComponentChildren } from "preact";

/**
 * A cell of a `STACKED_TABLE`. With `label` (its column's heading) the label leads the value where rows stack, beside
 * it when both fit and above it when not; screen readers hear the column heading instead. Without it (a comment's
 * text, a row's buttons) the value has the whole line. `note`, a paragraph about the value (a refund request under a
 * payment's status), follows on lines of its own, so that its length does not push the value under its label.
 */
export function Cell({ label, class: className = "", note, children }: {
  label?: string;
  class?: string;
  note?: ComponentChildren;
  children?: ComponentChildren;
}) {
  return (
    <td class={`px-4 py-3 ${className}`}>
      {label
        ? (
          <div class="max-lg:flex max-lg:flex-wrap max-lg:gap-x-3">
            <span aria-hidden="true" class="w-24 shrink-0 font-medium text-slate-700 lg:hidden">{label}</span>
            <div class="min-w-0 grow">{children}</div>
          </div>
        )
        : children}
      {note}
    </td>
  );
}
