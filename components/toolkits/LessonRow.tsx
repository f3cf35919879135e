/**
 * One lesson in the admin toolkit editor's list (`useLessons`): its position, title and kind, the buttons that move
 * it, lock it or make it a free preview, edit and delete it, and, while it is edited, its form.
 */
import { Notice } from "@/components/forms.tsx";
import { LessonFields } from "@/components/toolkits/LessonFields.tsx";
import { PRIMARY_BUTTON, SECONDARY_BUTTON } from "@/lib/browser/styles.ts";
import type { Lesson } from "@/lib/browser/lesson_draft.ts";
import type { Lessons } from "@/lib/browser/use_lessons.ts";
import { useT } from "@/lib/i18n/context.ts";

/** The row of `lesson`, at `index` of the list that `lessons` holds. */
export function LessonRow({ lesson, index, lessons }: { lesson: Lesson; index: number; lessons: Lessons }) {
  const { busy, editing, editForm } = lessons;
  const t = useT();
  const title = () => <span class="sr-only">{`: ${lesson.title}`}</span>;
  return (
    <li class="space-y-3 p-4">
      <div class="flex flex-wrap items-center justify-between gap-3">
        <p class="font-medium text-slate-900">
          {index + 1}. {lesson.title}{" "}
          <span class="text-sm font-normal text-slate-700">
            {t("admin.lessons.kind", { type: lesson.type, preview: lesson.isPreview ? "yes" : "no" })}
          </span>
        </p>
        <div class="flex flex-wrap gap-2">
          <button
            type="button"
            class={SECONDARY_BUTTON}
            disabled={busy || index === 0}
            data-lesson={lesson.id}
            data-move="up"
            onClick={() => lessons.move(index, index - 1)}
          >
            {t.rich("admin.lessons.up", { title })}
          </button>
          <button
            type="button"
            class={SECONDARY_BUTTON}
            disabled={busy || index === lessons.lessons.length - 1}
            data-lesson={lesson.id}
            data-move="down"
            onClick={() => lessons.move(index, index + 1)}
          >
            {t.rich("admin.lessons.down", { title })}
          </button>
          <button type="button" class={SECONDARY_BUTTON} disabled={busy} onClick={() => lessons.togglePreview(lesson)}>
            {t.rich(lesson.isPreview ? "admin.lessons.removePreview" : "admin.lessons.makePreview", { title })}
          </button>
          <button type="button" class={SECONDARY_BUTTON} disabled={busy} onClick={() => lessons.edit(lesson)}>
            {t.rich("admin.lessons.edit", { title })}
          </button>
          <button type="button" class={SECONDARY_BUTTON} disabled={busy} onClick={() => lessons.remove.ask(lesson)}>
            {t.rich("admin.lessons.delete", { title })}
          </button>
        </div>
      </div>
      {editing?.id === lesson.id && (
        <form ref={editForm.form} onSubmit={lessons.save} noValidate class="space-y-3 rounded-md bg-slate-50 p-4">
          {editForm.formError && <Notice kind="error" title={t("admin.lessons.notSaved")}>{editForm.formError}</Notice>}
          <LessonFields form={editForm} draft={editing.draft} onChange={lessons.setEditDraft} />
          <div class="flex gap-2">
            <button type="submit" class={PRIMARY_BUTTON} disabled={busy}>{t("admin.lessons.save")}</button>
            <button type="button" class={SECONDARY_BUTTON} onClick={lessons.cancelEdit}>{t("common.cancel")}</button>
          </div>
        </form>
      )}
    </li>
  );
}
