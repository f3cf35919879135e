/**
 * The profile's resume section (docs/decisions.md, Applications, "Resumes"): the stored PDF (view it), a plain
 * multipart form that uploads or replaces it and one that deletes it; both post to `/profile/resume` and work without
 * JavaScript, and the outcome shows beside the file field after the redirect.
 */
import { FieldError } from "@/components/forms.tsx";
import { useT } from "@/lib/i18n/context.ts";
import { formatBytes, RESUME_OUTCOMES, type ResumeOutcome } from "@/lib/browser/application_format.ts";
import { INPUT, SECONDARY_BUTTON } from "@/lib/browser/styles.ts";
import type { Resume } from "@/lib/resumes/resumes.ts";

/** Props: the stored resume (null for none) and the outcome of the last post, if any. */
export interface ResumeSectionProps {
  resume: Resume | null;
  outcome: ResumeOutcome | null;
}

const PRIMARY = "rounded-md bg-indigo-700 px-4 py-2 text-sm font-medium text-white hover:bg-indigo-800 " +
  "focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-600 focus-visible:ring-offset-2";

export function ResumeSection({ resume, outcome }: ResumeSectionProps) {
  const t = useT();
  const said = outcome ? RESUME_OUTCOMES[outcome] : null;
  const error = said?.kind === "error" ? t(said.key) : undefined;
  const hint = t("applications.resume.hint");
  return (
    <section id="resume" aria-labelledby="resume-heading" class="mt-8">
      <h2 id="resume-heading" class="text-lg font-semibold text-slate-900">{t("applications.resume.heading")}</h2>
      {resume
        ? (
          <p class="mt-2 text-sm text-slate-700 [overflow-wrap:anywhere]">
            {t.rich("applications.resume.yours", {
              file: (
                <a href="/api/me/resume/file" target="_blank" class="font-medium text-indigo-700 underline">
                  {resume.name} <span class="sr-only">{t("common.newTab")}</span>
                </a>
              ),
              size: formatBytes(t, resume.size),
              date: <time datetime={resume.uploadedAt}>{t.date(resume.uploadedAt)}</time>,
            })}
          </p>
        )
        : <p class="mt-2 text-sm text-slate-700">{t("applications.resume.none")}</p>}
      {said?.kind === "success" && <p role="status" class="mt-2 text-sm font-medium text-green-800">{t(said.key)}</p>}
      <form
        method="post"
        action="/profile/resume"
        enctype="multipart/form-data"
        noValidate
        class="mt-3 flex flex-wrap items-end gap-3"
      >
        <div class="min-w-0 flex-1">
          <label for="resume-file" class="block text-sm font-medium text-slate-800">
            {t(resume ? "applications.resume.replaceLabel" : "applications.resume.uploadLabel")}
          </label>
          <p id="resume-file-hint" class="mt-1 text-sm text-slate-700">{hint}</p>
          <input
            id="resume-file"
            name="file"
            type="file"
            accept="application/pdf,.pdf"
            aria-invalid={error ? "true" : undefined}
            aria-describedby={error ? "resume-file-hint resume-file-error" : "resume-file-hint"}
            class={`${INPUT} ${error ? "border-red-700" : ""}`}
          />
          <FieldError id="resume-file" error={error} />
        </div>
        <button type="submit" class={PRIMARY}>
          {t(resume ? "applications.resume.replace" : "applications.resume.upload")}
        </button>
      </form>
      {resume && (
        <form method="post" action="/profile/resume" class="mt-3">
          <input type="hidden" name="intent" value="delete" />
          <button type="submit" class={SECONDARY_BUTTON}>{t("applications.resume.delete")}</button>
        </form>
      )}
    </section>
  );
}
