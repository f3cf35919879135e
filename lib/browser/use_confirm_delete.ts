/**
 * Browser-safe: delete a row only after confirming (docs/decisions.md, Admin lists). `ask(row)` opens
 * the confirmation; confirming sends `DELETE path(row)`, shows "Deleting…" while it runs, closes
 * the dialog, and reports the outcome to `deleted` or `failed`. Spread `dialog` into
 * `ConfirmDialog` (`components/ConfirmDialog.tsx`) with the island's own title and text.
 */
import { useState } from "preact/hooks";
import { failureMessage, fetchJson } from "@/lib/browser/fetch_json.ts";
import { useT } from "@/lib/i18n/context.ts";

/**
 * The messages of a delete button and its confirmation (`ConfirmDialog` with this hook's labels): an island that
 * deletes something spreads them into its `text`.
 */
export const DELETE_DIALOG_TEXT = ["common.cancel", "common.delete", "common.yesDelete", "common.deleting"] as const;

/** Options of `useConfirmDelete`. */
export interface ConfirmDeleteOptions<T> {
  /** The API path that deletes `row`. */
  path: (row: T) => string;
  /** Called once the server deleted `row`. */
  deleted: (row: T) => void;
  /** Called with the refusal, in the island's language (`failureMessage`), when `row` was not deleted. */
  failed: (row: T, error: string) => void;
}

/** The confirmation's state and the `ConfirmDialog` props that run it. */
export interface ConfirmDelete<T> {
  /** The row awaiting confirmation, or null. */
  target: T | null;
  ask: (row: T) => void;
  dialog: {
    open: boolean;
    busy: boolean;
    confirmLabel: string;
    busyLabel: string;
    tone: "danger";
    onConfirm: () => void;
    onCancel: () => void;
  };
}

export function useConfirmDelete<T>(options: ConfirmDeleteOptions<T>): ConfirmDelete<T> {
  const t = useT();
  const [target, setTarget] = useState<T | null>(null);
  const [busy, setBusy] = useState(false);
  const confirm = async () => {
    const row = target;
    if (row === null) return;
    setBusy(true);
    const result = await fetchJson(options.path(row), { method: "DELETE" });
    setBusy(false);
    setTarget(null);
    if (result.ok) options.deleted(row);
    else options.failed(row, failureMessage(t, result));
  };
  return {
    target,
    ask: setTarget,
    dialog: {
      open: target !== null,
      busy,
      confirmLabel: t("common.yesDelete"),
      busyLabel: t("common.deleting"),
      tone: "danger",
      onConfirm: confirm,
      onCancel: () => setTarget(null),
    },
  };
}
