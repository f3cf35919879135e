/**
 * A modal confirmation for a consequential action in an island (changing a role, deleting a
 * toolkit or a coupon): the native `<dialog>` (focus kept inside, Escape cancels unless busy),
 * a title and a description it is labelled by, an error slot, Cancel and a confirm button that
 * shows `busyLabel` while the action runs. Open while `open` is true. Its Cancel is the message `common.cancel` of the
 * island that renders it (`DELETE_DIALOG_TEXT` holds it).
 */
import type { ComponentChildren } from "preact";
import { useEffect, useId, useRef } from "preact/hooks";
import { SECONDARY_BUTTON } from "@/lib/browser/styles.ts";
import { useT } from "@/lib/i18n/context.ts";

/** Props of `ConfirmDialog`. */
export interface ConfirmDialogProps {
  open: boolean;
  title: string;
  /** What will happen, shown under the title and read as the dialog's description. */
  children: ComponentChildren;
  confirmLabel: string;
  busyLabel: string;
  busy: boolean;
  /** `danger` for an action that removes something (a red button). */
  tone?: "primary" | "danger";
  /** Shown between the description and the buttons, e.g. an error notice. */
  notice?: ComponentChildren;
  onConfirm: () => void;
  onCancel: () => void;
}

const PRIMARY = {
  primary: "bg-indigo-700 hover:bg-indigo-800",
  danger: "bg-red-700 hover:bg-red-800",
};

export function ConfirmDialog(props: ConfirmDialogProps) {
  const { open, title, children, confirmLabel, busyLabel, busy, tone = "primary", notice, onConfirm, onCancel } = props;
  const dialog = useRef<HTMLDialogElement>(null);
  const id = useId();
  const t = useT();
  useEffect(() => {
    if (open && !dialog.current?.open) dialog.current?.showModal();
    if (!open && dialog.current?.open) dialog.current.close();
  }, [open]);
  return (
    <dialog
      ref={dialog}
      aria-labelledby={`${id}-title`}
      aria-describedby={`${id}-text`}
      onCancel={(e) => {
        e.preventDefault();
        if (!busy) onCancel();
      }}
      class="m-auto w-[calc(100%-2rem)] max-w-md rounded-lg border border-slate-200 bg-white p-6 text-slate-900 shadow-xl backdrop:bg-slate-900/50"
    >
      {open && (
        <div class="space-y-4">
          <h2 id={`${id}-title`} class="text-lg font-semibold">{title}</h2>
          <p id={`${id}-text`} class="text-slate-700">{children}</p>
          {notice}
          <div class="flex justify-end gap-2">
            <button type="button" class={SECONDARY_BUTTON} disabled={busy} onClick={onCancel}>
              {t("common.cancel")}
            </button>
            <button
              type="button"
              disabled={busy}
              aria-busy={busy ? "true" : undefined}
              onClick={onConfirm}
              class={`rounded-md px-3 py-1.5 text-sm font-medium text-white disabled:opacity-70 ${PRIMARY[tone]}`}
            >
              {busy ? busyLabel : confirmLabel}
            </button>
          </div>
        </div>
      )}
    </dialog>
  );
}
