/**
 * The lesson viewer's progress (`POST /api/toolkits/{id}/progress`; docs/decisions.md, Toolkits and payments): a
 * progress bar over the toolkit's lessons and the "Mark as complete" toggle of the open lesson; marking it moves the
 * bar and the page's lesson list at once and offers the next lesson; completing the last one says the toolkit is finished
 * and links the certificate. Without JavaScript (or before it arrives) the toggle is a plain form posting
 * `completed` to the lesson's page, which records it and shows the page again (docs/decisions.md, Islands, "Forms work
 * without JavaScript").
 */
import { useState } from "preact/hooks";
import { failureMessage, fetchJson, refusalPrefixes } from "@/lib/browser/fetch_json.ts";
import { Notice } from "@/components/forms.tsx";
import { type IslandText, translatorOf } from "@/lib/i18n/translator.ts";
import type { ProgressResult } from "@/lib/toolkits/learning.ts";

/** The messages this island uses (its `text`). */
export const LESSON_PROGRESS_TEXT = [
  "toolkits.progress.",
  "common.errors.",
  ...refusalPrefixes("toolkitNotFound", "lessonNotFound", "buyToTrack"),
] as const;

/**
 * Props: the lesson, whether it is complete, the toolkit's lesson ids that are, where "next" goes, and the messages
 * (`LESSON_PROGRESS_TEXT`).
 */
export interface LessonProgressProps {
  toolkitId: string;
  itemId: string;
  lessonIds: string[];
  completedItemIds: string[];
  nextUrl: string | null;
  /** The learner's certificate page, once every lesson is complete (the last lesson's completion issues it). */
  certificateUrl: string | null;
  text: IslandText;
}

/**
 * Ticks the page's lesson list (`data-lesson-mark` markers, rendered by the page around this island) to `completed`,
 * as the page renders it after a reload: "✓" for a completed lesson, its number otherwise.
 */
function markLessonList(completed: string[]) {
  for (const mark of document.querySelectorAll<HTMLElement>("[data-lesson-mark]")) {
    const done = completed.includes(mark.dataset.lessonMark!);
    mark.textContent = done ? "✓" : mark.dataset.lessonNumber!;
    mark.nextElementSibling?.toggleAttribute("hidden", !done);
  }
}

export default function LessonProgress(
  { toolkitId, itemId, lessonIds, completedItemIds, nextUrl, certificateUrl, text }: LessonProgressProps,
) {
  const t = translatorOf(text);
  const [completed, setCompleted] = useState(completedItemIds);
  const [certificate, setCertificate] = useState(certificateUrl);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState("");
  const done = completed.includes(itemId);
  const count = lessonIds.filter((id) => completed.includes(id)).length;
  const percent = lessonIds.length === 0 ? 0 : Math.round(count / lessonIds.length * 100);

  const toggle = async () => {
    setBusy(true);
    setError("");
    const result = await fetchJson<ProgressResult>(
      `/api/toolkits/${encodeURIComponent(toolkitId)}/progress`,
      { body: { contentItemId: itemId, completed: !done } },
    );
    setBusy(false);
    if (result.ok) {
      setCompleted(result.data.completedItemIds);
      setCertificate(result.data.certificateUrl);
      markLessonList(result.data.completedItemIds);
    } else setError(failureMessage(t, result));
  };

  return (
    <div class="space-y-3">
      <div>
        <p id="progress-label" class="text-sm font-medium text-slate-800">
          {t("toolkits.progress.count", { done: count, count: lessonIds.length, percent })}
        </p>
        <div
          role="progressbar"
          aria-labelledby="progress-label"
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={percent}
          class="mt-1 h-2.5 w-full overflow-hidden rounded-full bg-slate-200"
        >
          <div class="h-full rounded-full bg-green-700 transition-all" style={{ width: `${percent}%` }} />
        </div>
      </div>
      <form
        method="post"
        class="flex flex-wrap items-center gap-3"
        onSubmit={(event) => {
          event.preventDefault();
          toggle();
        }}
      >
        <input type="hidden" name="completed" value={done ? "false" : "true"} />
        <button
          type="submit"
          disabled={busy}
          aria-pressed={done ? "true" : "false"}
          class={`rounded-md px-4 py-2 font-medium disabled:opacity-70 ${
            done
              ? "border border-green-700 bg-green-50 text-green-900 hover:bg-green-100"
              : "bg-green-700 text-white hover:bg-green-800"
          }`}
        >
          {t(done ? "toolkits.progress.completed" : "toolkits.progress.mark")}
        </button>
        {done && nextUrl && (
          <a href={nextUrl} class="font-medium text-indigo-700 underline hover:text-indigo-900">
            {t("toolkits.progress.next")}
          </a>
        )}
        {certificate && (
          <a
            href={certificate}
            class="inline-flex items-center gap-1 font-medium text-indigo-700 underline hover:text-indigo-900"
          >
            <svg aria-hidden="true" viewBox="0 0 20 20" class="h-4 w-4 shrink-0 fill-current">
              <path d="M10 1a6 6 0 1 1 0 12 6 6 0 0 1 0-12Zm0 2.5a3.5 3.5 0 1 0 0 7 3.5 3.5 0 0 0 0-7ZM6.2 13.4l-1.7 5.4 2.9-1.2 1.9 2.2.9-4.6a7.5 7.5 0 0 1-4-1.8Zm7.6 0a7.5 7.5 0 0 1-4 1.8l.9 4.6 1.9-2.2 2.9 1.2-1.7-5.4Z" />
            </svg>
            {t("toolkits.progress.certificate")}
          </a>
        )}
      </form>
      {certificate && count === lessonIds.length && (
        <Notice kind="success" title={t("toolkits.progress.finishedTitle")}>
          {t.rich("toolkits.progress.finishedText", {
            link: (chunks) => <a href={certificate} class="font-medium underline">{chunks}</a>,
          })}
        </Notice>
      )}
      {error && <Notice kind="error">{error}</Notice>}
    </div>
  );
}
