/**
 * Delete with confirmation: a button that opens a modal `<dialog>` asking to confirm, then
 * calls `DELETE /api/internships/{id}` (a soft delete, docs/api.md, Internships) and goes
 * to `redirectTo`. Failures are shown inside the dialog.
 */
import { useRef, useState } from "preact/hooks";
import { failureMessage, fetchJson, refusalPrefixes } from "@/lib/browser/fetch_json.ts";
import { Notice } from "@/components/forms.tsx";
import { useHydrated } from "@/lib/browser/use_hydrated.ts";
import { type IslandText, translatorOf } from "@/lib/i18n/translator.ts";
import { DELETE_DIALOG_TEXT } from "@/lib/browser/use_confirm_delete.ts";

/** The messages this island uses (its `text`). */
export const INTERNSHIP_DELETE_TEXT = [
  "internships.delete.",
  ...DELETE_DIALOG_TEXT,
  "common.errors.",
  ...refusalPrefixes("internshipNotFound"),
] as const;

/** Props: the internship, where to go after deleting it, and its messages. */
export interface InternshipDeleteButtonProps {
  id: string;
  title: string;
  redirectTo: string;
  text: IslandText;
}

export default function InternshipDeleteButton({ id, title, redirectTo, text }: InternshipDeleteButtonProps) {
  const t = translatorOf(text);
  const hydrated = useHydrated();
  const dialog = useRef<HTMLDialogElement>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | undefined>();
  const headingId = `delete-${id}-title`;

  const confirm = async () => {
    setBusy(true);
    setError(undefined);
    const res = await fetchJson<{ success: boolean }>(`/api/internships/${id}`, { method: "DELETE" });
    if (res.ok) {
      location.assign(redirectTo);
      return;
    }
    setBusy(false);
    setError(failureMessage(t, res));
  };

  return (
    <>
      <button
        type="button"
        disabled={!hydrated}
        onClick={() => {
          setError(undefined);
          dialog.current?.showModal();
        }}
        class="rounded-md border border-red-300 bg-white px-3 py-1.5 text-sm font-medium text-red-700 hover:bg-red-50 disabled:opacity-70"
      >
        {t.rich("internships.delete.button", {
          title,
          sr: (chunks: unknown[]) => <span class="sr-only">{chunks}</span>,
        })}
      </button>
      <dialog
        ref={dialog}
        aria-labelledby={headingId}
        class="m-auto w-[calc(100%-2rem)] max-w-md rounded-lg border border-slate-200 bg-white p-6 text-left shadow-xl backdrop:bg-slate-900/50"
      >
        <h2 id={headingId} class="text-lg font-semibold text-slate-900">{t("internships.delete.title")}</h2>
        <p class="mt-2 text-slate-700">{t("internships.delete.body", { title })}</p>
        {error && (
          <div class="mt-4">
            <Notice kind="error">{error}</Notice>
          </div>
        )}
        <div class="mt-6 flex justify-end gap-3">
          <button
            type="button"
            autofocus
            onClick={() => dialog.current?.close()}
            class="rounded-md border border-slate-300 bg-white px-4 py-2 font-medium text-slate-800 hover:bg-slate-100"
          >
            {t("common.cancel")}
          </button>
          <button
            type="button"
            disabled={busy}
            aria-busy={busy ? "true" : undefined}
            onClick={confirm}
            class="rounded-md bg-red-700 px-4 py-2 font-medium text-white hover:bg-red-800 disabled:opacity-70"
          >
            {t(busy ? "common.deleting" : "common.yesDelete")}
          </button>
        </div>
      </dialog>
    </>
  );
}
