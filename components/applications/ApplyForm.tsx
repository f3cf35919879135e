/**
 * The application form of `/internships/{id}/apply` (docs/decisions.md, Applications, "Applying"): a plain multipart
 * form that works without JavaScript. The resume (the stored one, or a file to upload with the application), one answer
 * per screening question, and a cover note; every problem shows beside its field at once, listed with links in a
 * summary at the top (a file chosen with a form sent back is asked for again, by name: the page cannot hold it).
 * Leaving it with something typed or chosen asks first (`data-keep-typed`, docs/decisions.md, Islands, "Leaving a
 * typed form"), as does leaving it sent back with words typed (`data-unsaved`: drawn again, they are its defaults).
 */
import { FieldError, Notice, TextAreaField } from "@/components/forms.tsx";
import { useT } from "@/lib/i18n/context.ts";
import { formatBytes } from "@/lib/browser/application_format.ts";
import { INPUT, LEGEND_INSIDE } from "@/lib/browser/styles.ts";
import type { Question } from "@/lib/internships/schema.ts";
import type { Resume } from "@/lib/resumes/resumes.ts";
import { ANSWER_MAX, COVER_NOTE_MAX } from "@/lib/applications/schema.ts";

/** What was typed: the answers by question id and the cover note. */
export interface ApplyValues {
  answers: Record<string, string>;
  coverNote: string;
}

/** Props: where the form posts, the questions, the stored resume, what was typed and what went wrong, by field. */
export interface ApplyFormProps {
  action: string;
  questions: Question[];
  resume: Resume | null;
  values: ApplyValues;
  /** Problems by field: `file`, `answers.{questionId}`, `coverNote`. */
  errors: Record<string, string>;
  /** A problem of the whole application (already applied, closed meanwhile). */
  formError?: string;
}

/** The control id of a field. */
function idOf(field: string): string {
  return `apply-${field.replace(".", "-")}`;
}

const PRIMARY = "rounded-md bg-indigo-700 px-5 py-2.5 font-medium text-white hover:bg-indigo-800 focus:outline-none " +
  "focus-visible:ring-2 focus-visible:ring-indigo-600 focus-visible:ring-offset-2";

export function ApplyForm({ action, questions, resume, values, errors, formError }: ApplyFormProps) {
  const t = useT();
  const labels: Record<string, string> = {
    file: t("applications.form.resume"),
    ...Object.fromEntries(
      questions.map((q, i) => [`answers.${q.id}`, t("applications.form.question", { number: i + 1 })]),
    ),
    coverNote: t("applications.form.coverNote"),
  };
  const listed = Object.keys(labels).filter((field) => errors[field]);
  const fileError = errors.file;
  const fileHint = resume ? t("applications.form.storedHint") : t("applications.form.newHint");
  // Sent back with words typed: they are the page's defaults now, and still not sent.
  const typed = values.coverNote.trim() !== "" || Object.values(values.answers).some((answer) => answer.trim() !== "");
  const sentBack = (listed.length > 0 || Boolean(formError)) && typed;
  return (
    <form
      method="post"
      action={action}
      enctype="multipart/form-data"
      noValidate
      data-keep-typed
      data-unsaved={sentBack || undefined}
      class="space-y-6"
    >
      {(listed.length > 0 || formError) && (
        <Notice kind="error" title={listed.length > 0 ? t("applications.form.correct") : undefined}>
          {formError && <p>{formError}</p>}
          {listed.length > 0 && (
            <ul class="list-disc pl-5">
              {listed.map((field) => (
                <li key={field} class="[overflow-wrap:anywhere]">
                  <a href={`#${idOf(field)}`} class="underline">{labels[field]}</a>: {errors[field]}
                </li>
              ))}
            </ul>
          )}
        </Notice>
      )}
      <fieldset class={`space-y-3 rounded-lg border border-slate-200 bg-white p-5 shadow-sm ${LEGEND_INSIDE}`}>
        <legend class="text-lg font-semibold text-slate-900">{t("applications.form.resume")}</legend>
        {resume && (
          <p class="text-slate-800 [overflow-wrap:anywhere]">
            <a href="/api/me/resume/file" target="_blank" class="font-medium text-indigo-700 underline">
              {resume.name}
              <span class="sr-only">{t("applications.form.opensInNewTab")}</span>
            </a>{" "}
            {t.rich("applications.form.resumeMeta", {
              size: formatBytes(t, resume.size),
              date: t.date(resume.uploadedAt),
              time: (chunks) => <time datetime={resume.uploadedAt}>{chunks}</time>,
            })}
          </p>
        )}
        <div class="[overflow-wrap:anywhere]">
          <label for={idOf("file")} class="block text-sm font-medium text-slate-800">
            {resume ? t("applications.form.sendAnother") : t("applications.form.yourResume")}
          </label>
          <p id={`${idOf("file")}-hint`} class="mt-1 text-sm text-slate-700">{fileHint}</p>
          <input
            id={idOf("file")}
            name="file"
            type="file"
            accept="application/pdf,.pdf"
            aria-invalid={fileError ? "true" : undefined}
            aria-describedby={`${idOf("file")}-hint${fileError ? ` ${idOf("file")}-error` : ""}`}
            class={`${INPUT} ${fileError ? "border-red-700" : ""}`}
          />
          <FieldError id={idOf("file")} error={fileError} />
        </div>
      </fieldset>
      {questions.length > 0 && (
        <fieldset class={`space-y-4 rounded-lg border border-slate-200 bg-white p-5 shadow-sm ${LEGEND_INSIDE}`}>
          <legend class="text-lg font-semibold text-slate-900">{t("applications.form.questions")}</legend>
          {questions.map((question, i) => {
            const field = `answers.${question.id}`;
            return (
              <TextAreaField
                key={question.id}
                id={idOf(field)}
                name={field}
                label={question.required
                  ? `${i + 1}. ${question.text}`
                  : t("applications.form.optional", { label: `${i + 1}. ${question.text}` })}
                hint={t(question.required ? "applications.form.requiredHint" : "applications.form.maxHint", {
                  max: t.number(ANSWER_MAX),
                })}
                rows={4}
                value={values.answers[question.id] ?? ""}
                error={errors[field]}
              />
            );
          })}
        </fieldset>
      )}
      <fieldset class={`space-y-4 rounded-lg border border-slate-200 bg-white p-5 shadow-sm ${LEGEND_INSIDE}`}>
        <legend class="text-lg font-semibold text-slate-900">{t("applications.form.coverNote")}</legend>
        <TextAreaField
          id={idOf("coverNote")}
          name="coverNote"
          label={t("applications.form.coverNoteLabel")}
          hint={t("applications.form.maxHint", { max: t.number(COVER_NOTE_MAX) })}
          rows={6}
          value={values.coverNote}
          error={errors.coverNote}
        />
      </fieldset>
      <button type="submit" class={PRIMARY}>{t("applications.form.send")}</button>
    </form>
  );
}
