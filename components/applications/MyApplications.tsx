/**
 * The applicant's applications in the tracker (docs/decisions.md, Applications, "The tracker follows"): each with its
 * internship, where it stands, until when it waits for an answer at the latest (`answerBy`), every change with the
 * organization's message, and the plain forms (no JavaScript
 * needed) to withdraw it (from `applied` or `shortlisted`; a `<details>` asks first, as a withdrawal cannot be undone)
 * and, 30 days after being hired, to say whether the stipend was paid as listed. When the listing's terms read
 * otherwise now than when the person applied, the terms they applied under and what they read now ("You applied
 * under:"). A page of them: the
 * links to the older ones and back to the newest are plain links, and the forms carry the page's place
 * (`applications-from`) so that their answer comes back to it.
 */
import { Badge } from "@/components/internships/InternshipCard.tsx";
import { statusTone } from "@/lib/browser/application_format.ts";
import { SECONDARY_BUTTON } from "@/lib/browser/styles.ts";
import { useT } from "@/lib/i18n/context.ts";
import { type MyApplication, STIPEND_PAID } from "@/lib/applications/schema.ts";
import { type AppliedTerms, appliedTermsOf, differingTerms, type TermsPart } from "@/lib/internships/applied_terms.ts";
import { stipendText } from "@/lib/internships/stipend.ts";
import { istDayOf } from "@/lib/dates.ts";
import type { ComponentChildren } from "preact";

/**
 * Props: a page of the applications, newest first, and the IST moment now (ms), which decides whether a report is due;
 * the page's place (`from`, a cursor; absent on the newest), and the links to the older ones and back to the newest.
 */
export interface MyApplicationsProps {
  applications: MyApplication[];
  now: number;
  /** An application just changed by a form (its id), to announce: "withdrawn" when it is, else "updated". */
  changed?: string | null;
  from?: string;
  olderHref?: string;
  newestHref?: string;
}

const REPORT_AFTER_MS = 30 * 24 * 60 * 60 * 1000;
const LINK = "text-indigo-700 underline";

/** The hidden field that brings a form's answer back to the page at `from`. */
function PageField({ from }: { from?: string }) {
  return from ? <input type="hidden" name="applications-from" value={from} /> : null;
}

function Application({ application, now, from }: { application: MyApplication; now: number; from?: string }) {
  const t = useT();
  const { internship } = application;
  const hired = application.history.findLast((entry) => entry.status === "hired")?.at;
  const canReport = hired !== undefined && now - Date.parse(hired) >= REPORT_AFTER_MS;
  const base = `application-${application.id}`;
  return (
    <li id={base} class="rounded-lg border border-slate-200 bg-white p-4 shadow-sm [overflow-wrap:anywhere]">
      <div class="flex flex-wrap items-start justify-between gap-3">
        <div>
          <h3 id={`${base}-title`} class="font-semibold text-slate-900">
            {internship
              ? (
                <a href={`/internships/${internship.id}`} class="hover:text-indigo-700 hover:underline">
                  {internship.title}
                </a>
              )
              : t("applications.tracker.gone")}
          </h3>
          {internship && (
            <p class="text-sm text-slate-700">{internship.organization?.name ?? internship.hiringOrganization}</p>
          )}
          <p class="mt-1 text-sm text-slate-700">
            {t.rich("applications.tracker.appliedOn", {
              date: t.date(application.createdAt),
              time: (chunks) => <time datetime={application.createdAt}>{chunks}</time>,
            })}
          </p>
        </div>
        <Badge tone={statusTone(application.status)}>
          {t.dynamic(`applications.status.${application.status}`)}
        </Badge>
      </div>
      {application.answerBy && (
        <p class="mt-2 text-sm text-slate-700">
          {t.rich("applications.tracker.answerBy", {
            date: t.date(application.answerBy),
            time: (chunks) => <time datetime={application.answerBy!}>{chunks}</time>,
          })}
        </p>
      )}
      {internship && application.appliedTerms && (
        <AppliedUnder applied={application.appliedTerms} now={appliedTermsOf(internship)} base={base} />
      )}
      <ol
        aria-label={t("applications.tracker.history")}
        class="mt-3 space-y-2 border-l-2 border-slate-200 pl-3 text-sm"
      >
        {application.history.map((entry) => (
          <li key={entry.at + entry.status}>
            <p class="text-slate-800">
              <span class="font-medium">{t.dynamic(`applications.status.${entry.status}`)}</span>{" "}
              <span class="text-slate-700">
                · {t.dynamic(`applications.by.${entry.by}`)} · <time datetime={entry.at}>{t.date(entry.at)}</time>
              </span>
            </p>
            {entry.message && (
              <p class="mt-1 whitespace-pre-line rounded bg-slate-50 p-2 text-slate-800">{entry.message}</p>
            )}
          </li>
        ))}
      </ol>
      {(application.status === "applied" || application.status === "shortlisted") && (
        <details class="mt-3">
          <summary class={`${SECONDARY_BUTTON} inline-block cursor-pointer`} aria-describedby={`${base}-title`}>
            {t("applications.tracker.withdraw")}
          </summary>
          <form
            method="post"
            action={`/me/applications/${application.id}/withdraw`}
            class="mt-2 rounded-md border border-red-200 bg-red-50 p-3 text-sm"
          >
            <PageField from={from} />
            <p id={`${base}-withdraw-warning`} class="text-slate-900">{t("applications.tracker.withdrawWarning")}</p>
            <button
              type="submit"
              class="mt-2 rounded-md bg-red-700 px-3 py-1.5 text-sm font-medium text-white hover:bg-red-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-red-700"
              aria-describedby={`${base}-title ${base}-withdraw-warning`}
            >
              {t("applications.tracker.withdrawConfirm")}
            </button>
          </form>
        </details>
      )}
      {canReport && (
        <form method="post" action={`/me/applications/${application.id}/stipend-report`} class="mt-3">
          <PageField from={from} />
          <fieldset>
            <legend class="text-sm font-medium text-slate-800">{t("applications.tracker.stipendQuestion")}</legend>
            <div class="mt-2 flex flex-wrap gap-2">
              {STIPEND_PAID.map((paid) => (
                <button
                  key={paid}
                  type="submit"
                  name="paid"
                  value={paid}
                  aria-pressed={application.stipendReport?.paid === paid ? "true" : "false"}
                  class={`${SECONDARY_BUTTON} aria-pressed:border-indigo-700 aria-pressed:bg-indigo-50`}
                >
                  {t.dynamic(`applications.stipend.${paid}`)}
                </button>
              ))}
            </div>
          </fieldset>
        </form>
      )}
    </li>
  );
}

/**
 * "You applied under:" and the parts of the terms `applied` (the application's snapshot) that read otherwise `now`, as
 * they were → as they are: the title, the organization, the stipend, the deadline, the location, the work type; the
 * screening questions as they were asked (docs/decisions.md, Applications, "Terms applied under"); nothing when every
 * part reads the same.
 */
function AppliedUnder({ applied, now, base }: { applied: AppliedTerms; now: AppliedTerms; base: string }) {
  const t = useT();
  const parts = differingTerms(applied, now);
  if (parts.length === 0) return null;
  const value = (terms: AppliedTerms): Record<Exclude<TermsPart, "questions">, ComponentChildren> => {
    const deadline = terms.deadline === null ? null : istDayOf(terms.deadline);
    return {
      title: terms.title,
      organization: terms.organization,
      stipend: terms.stipend === null ? t("applications.tracker.notStated") : stipendText(t, terms.stipend),
      deadline: deadline === null
        ? t("applications.tracker.none")
        : <time datetime={deadline}>{t.date(deadline)}</time>,
      location: terms.location ?? t("applications.tracker.notStated"),
      type: terms.type ? t.dynamic(`internships.type.${terms.type}`) : t("applications.tracker.notStated"),
    };
  };
  const [was, is] = [value(applied), value(now)];
  const questions = applied.questions.length === 0 ? t("applications.tracker.none") : (
    <ol class="list-decimal pl-5">
      {applied.questions.map((question) => (
        <li key={question.id}>
          {question.required ? question.text : t("applications.form.optional", { label: question.text })}
        </li>
      ))}
    </ol>
  );
  const label: Record<TermsPart, string> = {
    title: t("internships.form.title"),
    organization: t("internships.form.hiringOrganization"),
    stipend: t("internships.card.stipend"),
    deadline: t("internships.card.deadline"),
    location: t("internships.card.location"),
    type: t("internships.form.type"),
    questions: t("applications.form.questions"),
  };
  return (
    <section aria-labelledby={`${base}-terms`} class="mt-3 rounded-md bg-amber-50 p-3 text-sm text-slate-900">
      <h4 id={`${base}-terms`} class="font-medium">{t("applications.tracker.appliedUnder")}</h4>
      <p class="text-slate-800">{t("applications.tracker.appliedUnderWhy")}</p>
      <dl class="mt-2 space-y-1">
        {parts.map((part) => (
          <div key={part}>
            <dt class="inline font-medium">{label[part]}:</dt>{" "}
            <dd class="inline">
              {part === "questions"
                ? questions
                : t.rich("applications.tracker.wasNow", { before: was[part], after: is[part] })}
            </dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

export function MyApplications(
  { applications, now, changed, from, olderHref, newestHref }: MyApplicationsProps,
) {
  const t = useT();
  return (
    <section aria-labelledby="applications-heading" class="mt-6">
      <h2 id="applications-heading" class="text-xl font-semibold text-slate-900">
        {t("applications.tracker.heading")}
      </h2>
      {changed && (
        <p role="status" class="mt-2 text-sm font-medium text-green-800">
          {applications.find((application) => application.id === changed)?.status === "withdrawn"
            ? t("applications.tracker.withdrawn")
            : t("applications.tracker.updated")}
        </p>
      )}
      {applications.length === 0
        ? <p class="mt-2 text-slate-700">{t("applications.tracker.empty")}</p>
        : (
          <ul class="mt-3 space-y-3">
            {applications.map((application) => (
              <Application
                key={application.id}
                application={application}
                now={now}
                from={from}
              />
            ))}
          </ul>
        )}
      {(olderHref || newestHref) && (
        <p class="mt-3 flex flex-wrap gap-x-6 gap-y-2 text-sm font-medium">
          {newestHref && <a href={newestHref} class={LINK}>{t("applications.tracker.newest")}</a>}
          {olderHref && <a href={olderHref} class={LINK}>{t("applications.tracker.older")}</a>}
        </p>
      )}
    </section>
  );
}
