/**
 * The lessons of a toolkit in the admin editor (docs/api.md, Toolkits; docs/decisions.md,
 * Toolkits and payments): add an article (HTML, sanitized by the server) or a video (CDN URL), edit one, mark it a
 * free preview, move it up or down (the order is renumbered 0, 1, 2, …; the keyboard focus stays
 * on the moved lesson's button, or its other one at the end of the list), and delete it after
 * confirming. An http video address is refused before sending; each problem, the server's too,
 * is shown at its field. The work is `useLessons`; each lesson is a `LessonRow`.
 */
import { useLessons } from "@/lib/browser/use_lessons.ts";
import type { Lesson } from "@/lib/browser/lesson_draft.ts";
import { ConfirmDialog } from "@/components/ConfirmDialog.tsx";
import { Notice } from "@/components/forms.tsx";
import { LessonFields } from "@/components/toolkits/LessonFields.tsx";
import { LessonRow } from "@/components/toolkits/LessonRow.tsx";
import { PRIMARY_BUTTON } from "@/lib/browser/styles.ts";
import { useT } from "@/lib/i18n/context.ts";
import { IslandTextProvider } from "@/lib/i18n/island_text.ts";
import type { IslandText } from "@/lib/i18n/translator.ts";
import { DELETE_DIALOG_TEXT } from "@/lib/browser/use_confirm_delete.ts";
import { refusalPrefixes } from "@/lib/browser/fetch_json.ts";

/** The messages this island uses (its `text`). */
export const LESSON_MANAGER_TEXT = [
  "admin.lessons.",
  "admin.checks.httpVideo",
  ...DELETE_DIALOG_TEXT,
  "common.errors.",
  "fields.",
  ...refusalPrefixes("toolkitNotFound", "lessonNotFound", "videoNeedsUrl", "lessonTooLong"),
] as const;

/** Props: the toolkit, its lessons in order, and the messages (`LESSON_MANAGER_TEXT`). */
export interface LessonManagerProps {
  toolkitId: string;
  lessons: Lesson[];
  text: IslandText;
}

export default function LessonManager({ text, ...props }: LessonManagerProps) {
  return (
    <IslandTextProvider text={text}>
      <Lessons {...props} />
    </IslandTextProvider>
  );
}

function Lessons({ toolkitId, lessons: initial }: Omit<LessonManagerProps, "text">) {
  const t = useT();
  const lessons = useLessons(toolkitId, initial);
  const { addForm, busy, remove } = lessons;
  return (
    <div class="space-y-6">
      <p role="status" class="min-h-5 text-sm text-slate-700">{lessons.status}</p>
      {lessons.error && <Notice kind="error" title={t("admin.lessons.failed")}>{lessons.error}</Notice>}
      {lessons.lessons.length === 0
        ? <p class="text-slate-700">{t("admin.lessons.none")}</p>
        : (
          <ol ref={lessons.list} class="divide-y divide-slate-200 rounded-lg border border-slate-200 bg-white">
            {lessons.lessons.map((lesson, index) => (
              <LessonRow key={lesson.id} lesson={lesson} index={index} lessons={lessons} />
            ))}
          </ol>
        )}
      <form
        ref={addForm.form}
        onSubmit={lessons.add}
        noValidate
        class="space-y-3 rounded-lg border border-slate-200 bg-white p-4 shadow-sm"
        aria-labelledby="add-lesson-heading"
      >
        <h3 id="add-lesson-heading" class="text-lg font-semibold text-slate-900">{t("admin.lessons.addHeading")}</h3>
        {addForm.formError && <Notice kind="error" title={t("admin.lessons.notAdded")}>{addForm.formError}</Notice>}
        <LessonFields form={addForm} draft={lessons.draft} onChange={lessons.setDraft} />
        <button type="submit" class={PRIMARY_BUTTON} disabled={busy}>
          {t(busy ? "admin.lessons.saving" : "admin.lessons.add")}
        </button>
      </form>
      <ConfirmDialog {...remove.dialog} title={t("admin.lessons.deleteTitle")}>
        {t("admin.lessons.deleteText", { title: remove.target?.title ?? "" })}
      </ConfirmDialog>
    </div>
  );
}
