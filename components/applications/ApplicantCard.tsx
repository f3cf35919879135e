/**
 * One application in the poster's list (docs/decisions.md, Applications, "The poster's list"): a checkbox that selects
 * it for the move form, the applicant as they applied (contact details only from shortlisting on), their answers,
 * cover note and resume (none of these once they withdrew: a sentence says so), while it waits the day it is closed
 * unanswered at the latest (`answerBy`), what happened so far, and a folded form that moves it alone.
 */
import { Badge } from "@/components/internships/InternshipCard.tsx";
import { statusTone } from "@/lib/browser/application_format.ts";
import { useT } from "@/lib/i18n/context.ts";
import { type ApplicationStatus, MESSAGE_MAX, type PosterApplication } from "@/lib/applications/schema.ts";
import { CONTROL, PRIMARY_BUTTON } from "@/lib/browser/styles.ts";

/**
 * Where the card's own move form posts (the page's URL), the statuses this application may go to, and what that form
 * sent when it was refused (its fields, and the problems by field), shown again in it.
 */
export interface ApplicantMove {
  action: string;
  statuses: readonly ApplicationStatus[];
  sent?: { status: string; message: string; errors: Record<string, string> };
}

/**
 * Props: the application, the id of the form its checkbox belongs to (none: no checkbox, nothing to move) and whether
 * it is checked (a refused move keeps what was selected), whether its resume is withheld from the reader (a listing an
 * admin took down: no link, a sentence saying so), and its own move form's target (none: no such form).
 */
export interface ApplicantCardProps {
  application: PosterApplication;
  form?: string;
  selected?: boolean;
  resumeWithheld?: boolean;
  move?: ApplicantMove;
}

export function ApplicantCard(
  { application, form, selected = false, resumeWithheld = false, move }: ApplicantCardProps,
) {
  const t = useT();
  const { applicant } = application;
  const base = `applicant-${application.id}`;
  const name = applicant.name ?? t("common.formerMember");
  const about = [applicant.collegeInstitute, applicant.currentRole, applicant.fieldOfStudy].filter(Boolean).join(" · ");
  return (
    <li id={base} class="rounded-lg border border-slate-200 bg-white p-4 shadow-sm [overflow-wrap:anywhere]">
      <div class="flex items-start gap-3">
        {form && (
          <input
            id={`${base}-select`}
            type="checkbox"
            name="ids"
            value={application.id}
            form={form}
            checked={selected}
            class="mt-1 size-5 shrink-0 rounded border-slate-400 text-indigo-700"
          />
        )}
        <div class="min-w-0 flex-1">
          <div class="flex flex-wrap items-start justify-between gap-2">
            <div>
              {form
                ? (
                  <label for={`${base}-select`} class="font-semibold text-slate-900">
                    <span class="sr-only">{t("applications.pipeline.select", { name })}</span>
                    <span aria-hidden="true">{name}</span>
                  </label>
                )
                : <p class="font-semibold text-slate-900">{name}</p>}
              {about && <p class="text-sm text-slate-700">{about}</p>}
              <p class="text-sm text-slate-700">
                {t.rich("applications.pipeline.appliedOn", {
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
            <p class="mt-1 text-sm font-medium text-amber-900">
              {t.rich("applications.pipeline.answerBy", {
                date: t.date(application.answerBy),
                time: (chunks) => <time datetime={application.answerBy!}>{chunks}</time>,
              })}
            </p>
          )}
          <div class="mt-3 space-y-3 text-sm">
            {application.status === "withdrawn"
              ? <p class="text-slate-700">{t("applications.pipeline.withdrawnHidden")}</p>
              : (
                <>
                  <div>
                    <h3 class="font-medium text-slate-900">{t("applications.pipeline.contact")}</h3>
                    {applicant.email
                      ? (
                        <p class="text-slate-800">
                          <a href={`mailto:${applicant.email}`} class="text-indigo-700 underline">{applicant.email}</a>
                          {" · "}
                          {applicant.contactNumber
                            ? (
                              <a href={`tel:${applicant.contactNumber}`} class="text-indigo-700 underline">
                                {applicant.contactNumber}
                              </a>
                            )
                            : t("applications.pipeline.noPhone")}
                        </p>
                      )
                      : <p class="text-slate-700">{t("applications.pipeline.contactHidden")}</p>}
                  </div>
                  <p>
                    {resumeWithheld && application.resume
                      ? <span class="text-slate-700">{t("applications.pipeline.resumeWithheld")}</span>
                      : application.resume
                      ? (
                        <a
                          href={`/api/applications/${application.id}/resume`}
                          target="_blank"
                          class="font-medium text-indigo-700 underline"
                        >
                          {t("applications.pipeline.resume", { name: application.resume.name })}
                          <span class="sr-only">{t("applications.form.opensInNewTab")}</span>
                        </a>
                      )
                      : <span class="text-slate-700">{t("applications.pipeline.noResume")}</span>}
                  </p>
                </>
              )}
            {application.answers.length > 0 && (
              <div>
                <h3 class="font-medium text-slate-900">{t("applications.pipeline.answers")}</h3>
                <dl class="mt-1 space-y-2">
                  {application.answers.map((answer) => (
                    <div key={answer.questionId}>
                      <dt class="text-slate-700">{answer.question}</dt>
                      <dd class="whitespace-pre-line text-slate-900">{answer.answer}</dd>
                    </div>
                  ))}
                </dl>
              </div>
            )}
            {application.coverNote && (
              <div>
                <h3 class="font-medium text-slate-900">{t("applications.pipeline.coverNote")}</h3>
                <p class="whitespace-pre-line text-slate-900">{application.coverNote}</p>
              </div>
            )}
            {application.history.length > 1 && (
              <details>
                <summary class="cursor-pointer font-medium text-slate-900">
                  {t("applications.pipeline.history")}
                </summary>
                <ol class="mt-2 space-y-2 border-l-2 border-slate-200 pl-3">
                  {application.history.map((entry) => (
                    <li key={entry.at + entry.status}>
                      <span class="font-medium">{t.dynamic(`applications.status.${entry.status}`)}</span> ·{" "}
                      <time datetime={entry.at}>{t.date(entry.at)}</time>
                      {entry.message && <p class="mt-1 whitespace-pre-line text-slate-800">{entry.message}</p>}
                    </li>
                  ))}
                </ol>
              </details>
            )}
            {move && move.statuses.length > 0 && <MoveOne application={application} name={name} move={move} />}
          </div>
        </div>
      </div>
    </li>
  );
}

/**
 * The card's own plain form that moves this one application, folded under a summary (the page's batch form moves
 * many): the statuses it may go to (`move.statuses`), an optional message, posted to `move.action` as the batch form
 * posts (`ids` its one id, `one` saying it is the card's), so it works without JavaScript; open, with what was sent and
 * why it was refused, after a refusal (`move.sent`), which shows it: the form posts to its own fragment.
 */
function MoveOne(
  { application, name, move }: { application: PosterApplication; name: string; move: ApplicantMove },
) {
  const t = useT();
  const base = `move-${application.id}`;
  const sent = move.sent;
  const errors = sent?.errors ?? {};
  return (
    <details id={base} open={sent !== undefined} class="scroll-mt-20">
      <summary class="cursor-pointer font-medium text-indigo-800">
        {t("applications.pipeline.moveOne", { name })}
      </summary>
      <form
        method="post"
        action={`${move.action}#${base}`}
        noValidate
        data-keep-typed
        data-unsaved={(sent !== undefined && sent.message.trim() !== "") || undefined}
        class="mt-2 space-y-3"
      >
        <input type="hidden" name="ids" value={application.id} />
        <input type="hidden" name="one" value={application.id} />
        <div>
          <label for={`${base}-status`} class="block font-medium text-slate-800">
            {t("applications.pipeline.statusOne", { name })}
          </label>
          <select
            id={`${base}-status`}
            name="status"
            required
            aria-invalid={errors.status ? "true" : undefined}
            aria-describedby={errors.status ? `${base}-status-error` : undefined}
            class={`${CONTROL} ${errors.status ? "border-red-700" : "border-slate-400"}`}
          >
            <option value="">{t("common.choose")}</option>
            {move.statuses.map((status) => (
              <option key={status} value={status} selected={sent?.status === status}>
                {t.dynamic(`applications.status.${status}`)}
              </option>
            ))}
          </select>
          {errors.status && <p id={`${base}-status-error`} class="mt-1 font-medium text-red-800">{errors.status}</p>}
        </div>
        <div>
          <label for={`${base}-message`} class="block font-medium text-slate-800">
            {t("applications.pipeline.messageOne", { name })}
          </label>
          <textarea
            id={`${base}-message`}
            name="message"
            rows={3}
            maxLength={MESSAGE_MAX}
            aria-invalid={errors.message ? "true" : undefined}
            aria-describedby={errors.message ? `${base}-message-error ${base}-hint` : `${base}-hint`}
            class={`${CONTROL} ${errors.message ? "border-red-700" : "border-slate-400"}`}
            value={sent?.message ?? ""}
          />
          {errors.message && <p id={`${base}-message-error`} class="mt-1 font-medium text-red-800">{errors.message}</p>}
          <p id={`${base}-hint`} class="mt-1 text-slate-700">
            {t("applications.pipeline.messageHint", { max: t.number(MESSAGE_MAX) })}
          </p>
        </div>
        <button type="submit" class={PRIMARY_BUTTON}>{t("applications.pipeline.moveOneButton")}</button>
      </form>
    </details>
  );
}
