/**
 * The report form (docs/decisions.md, Trust, "Reports"): the reasons for its kind as radio buttons, the details, and a submit
 * button; a plain form posting to `/report`, so it works without JavaScript. `ReportControl` folds it under a
 * "Report" summary on listing and post pages, or says when the person reported it (one report is open at a time).
 * Leaving a page with a reason chosen or details typed and not sent asks first (`data-keep-typed`; docs/decisions.md,
 * Islands, "Leaving a typed form"), also once the form was sent back with details typed (`data-unsaved`: `details` is
 * given only then).
 */
import { reasonsFor, type ReportKind } from "@/lib/reports/schema.ts";
import { REASON_KEYS, reportHref } from "@/lib/browser/report_format.ts";
import { TextAreaField } from "@/components/forms.tsx";
import { useT } from "@/lib/i18n/context.ts";

/** What is reported, where to come back, and (when the form is sent back) what was chosen and what went wrong. */
export interface ReportFormProps {
  kind: ReportKind;
  id: string;
  /** The page to come back to (a path of this site). */
  back: string;
  /** A prefix for the fields' ids, unique on the page. */
  prefix?: string;
  reason?: string;
  details?: string;
  error?: string;
}

export function ReportForm({ kind, id, back, prefix = "report", reason, details, error }: ReportFormProps) {
  const t = useT();
  return (
    <form
      method="post"
      action="/report"
      noValidate
      data-keep-typed
      data-unsaved={details?.trim() ? true : undefined}
      class="space-y-3"
    >
      <input type="hidden" name="kind" value={kind} />
      <input type="hidden" name="id" value={id} />
      <input type="hidden" name="back" value={back} />
      <fieldset>
        <legend class="text-sm font-medium text-slate-800">{t("trust.report.reasons")}</legend>
        <div class="mt-2 space-y-2">
          {reasonsFor(kind).map((value) => (
            <label key={value} class="flex items-start gap-2 text-sm text-slate-800">
              <input
                type="radio"
                name="reason"
                value={value}
                required
                checked={reason === value}
                class="mt-0.5 h-4 w-4 accent-indigo-700"
              />
              <span>{t(REASON_KEYS[value])}</span>
            </label>
          ))}
        </div>
      </fieldset>
      <TextAreaField
        id={`${prefix}-details`}
        name="details"
        label={t("trust.report.details")}
        rows={3}
        maxLength={1000}
        value={details ?? ""}
        error={error}
        hint={t("trust.report.detailsHint")}
      />
      <button
        type="submit"
        class="rounded-md bg-indigo-700 px-4 py-2 text-sm font-medium text-white hover:bg-indigo-800 focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-600 focus-visible:ring-offset-2"
      >
        {t("trust.report.send")}
      </button>
    </form>
  );
}

/**
 * "Report" folded open into the form, for listing pages, posts and organizations; for a guest (`signedIn` false) a
 * link to `/report`, which asks them to sign in first and comes back to the form; for someone whose report of it is
 * open (`reportedAt`, ISO), "You reported this on …" instead of the form.
 */
export function ReportControl(
  props: ReportFormProps & { label?: string; signedIn: boolean; reportedAt?: string | null },
) {
  const t = useT();
  const label = props.label ?? t("trust.report.report");
  if (props.signedIn && props.reportedAt) {
    return (
      <p class="text-sm text-slate-700">
        {t.rich("trust.report.reportedOn", {
          date: t.date(props.reportedAt),
          time: (chunks) => <time datetime={props.reportedAt!}>{chunks}</time>,
        })}
      </p>
    );
  }
  if (!props.signedIn) {
    return (
      <a
        href={reportHref(props.kind, props.id, props.back)}
        class="text-sm text-slate-700 underline decoration-slate-400 underline-offset-2 hover:text-red-800"
      >
        {label}
      </a>
    );
  }
  return (
    <details class="group text-sm">
      <summary class="cursor-pointer text-slate-700 underline decoration-slate-400 underline-offset-2 hover:text-red-800">
        {label}
      </summary>
      <div class="mt-3 rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
        <ReportForm
          kind={props.kind}
          id={props.id}
          back={props.back}
          prefix={props.prefix}
          reason={props.reason}
          details={props.details}
          error={props.error}
        />
      </div>
    </details>
  );
}
