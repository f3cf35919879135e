/**
 * The admin's form that resolves every open report of a target (docs/decisions.md, Trust, "Reports"): the action as
 * radio buttons (an organization is never deleted, so it is not offered one), a note the reporters and the owner read,
 * and a submit button; a plain form posting to the page it is on, `from` (`resolveFromForm`,
 * `lib/http/report_resolution.ts`), which answers back to it (with `held=1` when a dismissed listing stays held:
 * `StillHeld`), or draws it again with `refused`: the sentence at its actions (none chosen) or at its note (too long),
 * the note as it was typed, the page scrolled to the form (it posts to its own fragment; a resolution done answers a
 * page without it). Leaving with an action chosen or a note typed and not sent asks first (`data-keep-typed`;
 * docs/decisions.md, Islands, "Leaving a typed form"), also the note drawn again with `refused` (`data-unsaved`).
 */
import { DETAILS_MAX, type ReportKind, RESOLVE_ACTIONS } from "@/lib/reports/schema.ts";
import { FieldError, Notice, TextAreaField } from "@/components/forms.tsx";
import { useT } from "@/lib/i18n/context.ts";

export function ResolveForm(
  { kind, targetId, from, refused }: {
    kind: ReportKind;
    targetId: string;
    from: string;
    refused?: { note: string; actionError?: string; noteError?: string };
  },
) {
  const prefix = `resolve-${kind}-${targetId}`;
  const t = useT();
  const actions = RESOLVE_ACTIONS.filter((action) => !(kind === "organization" && action === "delete"));
  return (
    <form
      id={prefix}
      method="post"
      action={`${from}#${prefix}`}
      noValidate
      data-keep-typed
      data-unsaved={refused?.note.trim() ? true : undefined}
      class="scroll-mt-20 space-y-3"
    >
      <input type="hidden" name="kind" value={kind} />
      <input type="hidden" name="targetId" value={targetId} />
      <input type="hidden" name="from" value={from} />
      <fieldset aria-describedby={refused?.actionError ? `${prefix}-action-error` : undefined}>
        <legend class="text-sm font-medium text-slate-800">{t("admin.reports.resolveLegend")}</legend>
        <div class="mt-2 flex flex-wrap gap-x-5 gap-y-2">
          {actions.map((action) => (
            <label key={action} class="flex items-center gap-2 text-sm text-slate-800">
              <input type="radio" name="action" value={action} required class="h-4 w-4 accent-indigo-700" />
              {kind === "organization" && action === "hide"
                ? t("admin.reports.action.unverify")
                : t.dynamic(`admin.reports.action.${action}`)}
            </label>
          ))}
        </div>
        <FieldError id={`${prefix}-action`} error={refused?.actionError} />
      </fieldset>
      <TextAreaField
        id={`${prefix}-note`}
        name="note"
        label={t("admin.reports.resolveNote")}
        rows={2}
        maxLength={DETAILS_MAX}
        value={refused?.note}
        error={refused?.noteError}
      />
      <button
        type="submit"
        class="rounded-md bg-indigo-700 px-3 py-1.5 text-sm font-medium text-white hover:bg-indigo-800"
      >
        {t("admin.reports.resolve")}
      </button>
    </form>
  );
}

/**
 * The notice of what stopped a resolution the form's post answered back with (`problem=`, `resolveFromForm`): an
 * organization cannot be deleted (`organization`), another admin is resolving the reports (`resolving`), or they were
 * resolved already (`resolved`); any other value reads as a missing action.
 */
export function ResolveProblem({ problem }: { problem: string }) {
  const t = useT();
  const key = problem === "organization"
    ? "admin.reports.problemOrganization"
    : problem === "resolving"
    ? "common.refusal.reportsBeingResolved"
    : problem === "resolved"
    ? "admin.reports.alreadyResolved"
    : "admin.reports.problemAction";
  return <Notice kind="error">{t(key)}</Notice>;
}

/** The notice after a dismissal that left the listing held for the never-pay rule, leading to the moderation queue. */
export function StillHeld() {
  const t = useT();
  return (
    <Notice kind="info">
      {t.rich("admin.reports.stillHeld", {
        link: (chunks) => <a href="/admin/moderation" class="font-medium text-indigo-700 underline">{chunks}</a>,
      })}
    </Notice>
  );
}
