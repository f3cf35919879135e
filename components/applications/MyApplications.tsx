/**
 * The applicant's applications in the tracker (docs/decisions.md, Applications, "The tracker follows"): each with its
 * internship, where it stands, every change with the organization's message, and the plain forms (no JavaScript
 * needed) to withdraw it (from `applied` or `shortlisted`) and, 30 days after being hired, to say whether the stipend
 * was paid as listed.
 */
import { Badge } from "@/components/internships/InternshipCard.tsx";
import { formatDate } from "@/lib/dates.ts";
import { APPLICATION_STATUS_LABELS, statusTone, STIPEND_LABELS } from "@/lib/browser/application_format.ts";
import { SECONDARY_BUTTON } from "@/lib/browser/styles.ts";
import type { MyApplication } from "@/lib/applications/schema.ts";

/** Props: the applications, newest first, and the IST moment now (ms), which decides whether a report is due. */
export interface MyApplicationsProps {
  applications: MyApplication[];
  now: number;
  /** An application just changed by a form (its id), to announce. */
  changed?: string | null;
}

const REPORT_AFTER_MS = 30 * 24 * 60 * 60 * 1000;

/** Who made a change, as the history says it. */
const BY = { applicant: "You", poster: "The organization", system: "Career Community" } as const;

function Application({ application, now }: { application: MyApplication; now: number }) {
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
              : "An internship no longer listed"}
          </h3>
          {internship && (
            <p class="text-sm text-slate-700">{internship.organization?.name ?? internship.hiringOrganization}</p>
          )}
          <p class="mt-1 text-sm text-slate-700">
            Applied on <time datetime={application.createdAt}>{formatDate(application.createdAt)}</time>
          </p>
        </div>
        <Badge tone={statusTone(application.status)}>{APPLICATION_STATUS_LABELS[application.status]}</Badge>
      </div>
      <ol aria-label="What happened" class="mt-3 space-y-2 border-l-2 border-slate-200 pl-3 text-sm">
        {application.history.map((entry) => (
          <li key={entry.at + entry.status}>
            <p class="text-slate-800">
              <span class="font-medium">{APPLICATION_STATUS_LABELS[entry.status]}</span>{" "}
              <span class="text-slate-700">
                · {BY[entry.by]} · <time datetime={entry.at}>{formatDate(entry.at)}</time>
              </span>
            </p>
            {entry.message && (
              <p class="mt-1 whitespace-pre-line rounded bg-slate-50 p-2 text-slate-800">{entry.message}</p>
            )}
          </li>
        ))}
      </ol>
      {(application.status === "applied" || application.status === "shortlisted") && (
        <form method="post" action={`/me/applications/${application.id}/withdraw`} class="mt-3">
          <button type="submit" class={SECONDARY_BUTTON} aria-describedby={`${base}-title`}>
            Withdraw application
          </button>
        </form>
      )}
      {canReport && (
        <form method="post" action={`/me/applications/${application.id}/stipend-report`} class="mt-3">
          <fieldset>
            <legend class="text-sm font-medium text-slate-800">Was the stipend paid as listed?</legend>
            <div class="mt-2 flex flex-wrap gap-2">
              {(Object.keys(STIPEND_LABELS) as (keyof typeof STIPEND_LABELS)[]).map((paid) => (
                <button
                  key={paid}
                  type="submit"
                  name="paid"
                  value={paid}
                  aria-pressed={application.stipendReport?.paid === paid ? "true" : "false"}
                  class={`${SECONDARY_BUTTON} aria-pressed:border-indigo-700 aria-pressed:bg-indigo-50`}
                >
                  {STIPEND_LABELS[paid]}
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
  return (
    <section aria-labelledby="applications-heading" class="mt-6">
      <h2 id="applications-heading" class="text-xl font-semibold text-slate-900">Sent here</h2>
      {changed && <p role="status" class="mt-2 text-sm font-medium text-green-800">Your application is updated.</p>}
      {applications.length === 0
        ? (
          <p class="mt-2 text-slate-700">
            You have not applied to an internship here yet. Internships with an "Apply" button take applications on this
            site, and you follow them here.
          </p>
        )
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
