/**
 * The applicant's applications in the tracker (docs/decisions.md, Applications, "The tracker follows"): each with its
 * internship, where it stands, every change with the organization's message, and the plain forms (no JavaScript
 * needed) to withdraw it (from `applied` or `shortlisted`; a `<details>` asks first, as a withdrawal cannot be undone)
 * and, 30 days after being hired, to say whether the stipend was paid as listed.
 */
import { Badge } from "@/components/internships/InternshipCard.tsx";
import { statusTone } from "@/lib/browser/application_format.ts";
import { SECONDARY_BUTTON } from "@/lib/browser/styles.ts";
import { useT } from "@/lib/i18n/context.ts";
import { type MyApplication, STIPEND_PAID } from "@/lib/applications/schema.ts";

/** Props: the applications, newest first, and the IST moment now (ms), which decides whether a report is due. */
export interface MyApplicationsProps {
  applications: MyApplication[];
  now: number;
  /** An application just changed by a form (its id), to announce. */
  changed?: string | null;
}

const REPORT_AFTER_MS = 30 * 24 * 60 * 60 * 1000;

function Application({ application, now }: { application: MyApplication; now: number }) {
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

export function MyApplications({ applications, now, changed }: MyApplicationsProps) {
  const t = useT();
  return (
    <section aria-labelledby="applications-heading" class="mt-6">
      <h2 id="applications-heading" class="text-xl font-semibold text-slate-900">
        {t("applications.tracker.heading")}
      </h2>
      {changed && (
        <p role="status" class="mt-2 text-sm font-medium text-green-800">{t("applications.tracker.updated")}</p>
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
              />
            ))}
          </ul>
        )}
    </section>
  );
}
