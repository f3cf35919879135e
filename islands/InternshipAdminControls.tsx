/**
 * Admin moderation of one internship: switches for `isVerified` and `isActive`, each saved at
 * once with `PUT /api/internships/{id}` (admin-only fields, docs/api.md, Internships).
 * A failed save puts the switch back and says why; the outcome is announced politely. Until hydrated the switches are
 * a plain form with a Save button posting to `/admin/internships` (docs/decisions.md, Islands, "Forms work without
 * JavaScript"), with the values they were drawn with so it saves only what was changed, which answers 303 back to `back` (this page) with `moderated={id}`: then the island says "Saved.".
 */
import { useState } from "preact/hooks";
import { failureMessage, fetchJson, refusalPrefixes } from "@/lib/browser/fetch_json.ts";
import { useHydrated } from "@/lib/browser/use_hydrated.ts";
import { LEGEND_INSIDE, SECONDARY_BUTTON } from "@/lib/browser/styles.ts";
import type { InternshipView } from "@/lib/internships/schema.ts";
import { type IslandText, type MessageKey, translatorOf } from "@/lib/i18n/translator.ts";

/** The messages this island uses (its `text`). */
export const INTERNSHIP_ADMIN_TEXT = [
  "admin.internshipControls.",
  "common.errors.",
  ...refusalPrefixes("internshipNotFound"),
] as const;

/**
 * Props: the internship's id, title (for labels) and current moderation state, the page the plain form returns to
 * (`back`, a path), whether that form has just saved (`saved`), and the messages.
 */
export type InternshipAdminControlsProps = Pick<InternshipView, "id" | "title" | "isVerified" | "isActive"> & {
  back: string;
  saved?: boolean;
  text: IslandText;
};

type Field = "isVerified" | "isActive";

const LABELS: Record<Field, { label: MessageKey; on: MessageKey; off: MessageKey }> = {
  isVerified: {
    label: "admin.internshipControls.verified",
    on: "admin.internshipControls.verifiedOn",
    off: "admin.internshipControls.verifiedOff",
  },
  isActive: {
    label: "admin.internshipControls.active",
    on: "admin.internshipControls.activeOn",
    off: "admin.internshipControls.activeOff",
  },
};

export default function InternshipAdminControls(
  { id, title, back, saved = false, text, ...initial }: InternshipAdminControlsProps,
) {
  const t = translatorOf(text);
  const hydrated = useHydrated();
  const [state, setState] = useState<Record<Field, boolean>>(initial);
  const [busy, setBusy] = useState<Field | null>(null);
  const [message, setMessage] = useState(saved ? t("admin.internshipControls.saved") : "");

  const toggle = async (field: Field, value: boolean) => {
    setBusy(field);
    setState((s) => ({ ...s, [field]: value }));
    const res = await fetchJson(`/api/internships/${id}`, { method: "PUT", body: { [field]: value } });
    setBusy(null);
    if (res.ok) setMessage(t(value ? LABELS[field].on : LABELS[field].off));
    else {
      setState((s) => ({ ...s, [field]: !value }));
      setMessage(t("admin.internshipControls.notSaved", { error: failureMessage(t, res) }));
    }
  };

  return (
    <form method="post" action="/admin/internships" onSubmit={(e) => e.preventDefault()}>
      <input type="hidden" name="intent" value="moderate" />
      <input type="hidden" name="id" value={id} />
      <input type="hidden" name="back" value={back} />
      {(Object.keys(LABELS) as Field[]).map((field) => (
        <input key={field} type="hidden" name={`was_${field}`} value={String(initial[field])} />
      ))}
      <fieldset class={`rounded-lg border border-amber-300 bg-amber-50 p-4 ${LEGEND_INSIDE}`}>
        <legend class="mb-3 text-sm font-semibold text-amber-900">
          {t("admin.internshipControls.legend", { title })}
        </legend>
        <div class="flex flex-wrap gap-6">
          {(Object.keys(LABELS) as Field[]).map((field) => (
            <label key={field} class="flex items-center gap-2 text-slate-900">
              <input
                type="checkbox"
                name={field}
                value="true"
                checked={state[field]}
                disabled={busy !== null}
                onChange={(e) =>
                  toggle(field, e.currentTarget.checked)}
                class="h-4 w-4 accent-indigo-700"
              />
              {t(LABELS[field].label)}
            </label>
          ))}
          {!hydrated && (
            <button type="submit" class={SECONDARY_BUTTON}>
              {t("admin.internshipControls.save")}
              <span class="sr-only">{` ${title}`}</span>
            </button>
          )}
        </div>
        <p role="status" aria-live="polite" class="mt-2 min-h-5 text-sm text-slate-800">{message}</p>
      </fieldset>
    </form>
  );
}
