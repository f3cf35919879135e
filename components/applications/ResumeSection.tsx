/**
 * The profile's resume section (docs/decisions.md, Applications, "Resumes"): the stored PDF (view it), a plain
 * multipart form that uploads or replaces it and one that deletes it; both post to `/profile/resume` and work without
 * JavaScript, and the outcome shows beside the file field after the redirect.
 */
import { FieldError } from "@/components/forms.tsx";
import { formatDate } from "@/lib/dates.ts";
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
  const said = outcome ? RESUME_OUTCOMES[outcome] : null;
  const error = said?.kind === "error" ? said.text : undefined;
  const hint = "A PDF of at most 2 MB. Organizations you apply to here see the resume you applied with.";
  return (
    <section id="resume" aria-labelledby="resume-heading" class="mt-8">
      <h2 id="resume-heading" class="text-lg font-semibold text-slate-900">Resume</h2>
      {resume
        ? (
          <p class="mt-2 text-sm text-slate-700 [overflow-wrap:anywhere]">
            Your resume:{" "}
            <a href="/api/me/resume/file" target="_blank" class="font-medium text-indigo-700 underline">
              {resume.name}
              <span class="sr-only">(opens in a new tab)</span>
            </a>{" "}
            ({formatBytes(resume.size)}, uploaded on{" "}
            <time datetime={resume.uploadedAt}>{formatDate(resume.uploadedAt)}</time>)
          </p>
        )
        : <p class="mt-2 text-sm text-slate-700">You have not uploaded a resume yet. You need one to apply here.</p>}
      {said?.kind === "success" && <p role="status" class="mt-2 text-sm font-medium text-green-800">{said.text}</p>}
      <form
        method="post"
        action="/profile/resume"
        enctype="multipart/form-data"
        noValidate
        class="mt-3 flex flex-wrap items-end gap-3"
      >
        <div class="min-w-0 flex-1">
          <label for="resume-file" class="block text-sm font-medium text-slate-800">
            {resume ? "Replace your resume" : "Upload your resume"}
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
        <button type="submit" class={PRIMARY}>{resume ? "Replace" : "Upload"}</button>
      </form>
      {resume && (
        <form method="post" action="/profile/resume" class="mt-3">
          <input type="hidden" name="intent" value="delete" />
          <button type="submit" class={SECONDARY_BUTTON}>Delete resume</button>
        </form>
      )}
    </section>
  );
}
