/**
 * The fields of a lesson form in the admin toolkit editor: title, type, the article's HTML (its hint says the most
 * characters, `ARTICLE_MAX`) or the video's address, and whether it is a free preview; each problem shown at its field
 * (`useFormSubmit`).
 */
import { SelectField, TextAreaField, TextField } from "@/components/forms.tsx";
import type { LessonDraft, LessonField } from "@/lib/browser/lesson_draft.ts";
import type { FormSubmit } from "@/lib/browser/use_form_submit.ts";
import type { ContentType } from "@/lib/toolkits/schema.ts";
import { ARTICLE_MAX } from "@/lib/toolkits/limits.ts";
import { useT } from "@/lib/i18n/context.ts";

/** The fields of `draft`; every change goes to `onChange` as a new draft. */
export function LessonFields(
  { form, draft, onChange }: { form: FormSubmit<LessonField>; draft: LessonDraft; onChange: (d: LessonDraft) => void },
) {
  const t = useT();
  const text = (field: "title" | "cdnVideoUrl") =>
    form.textField(field, draft[field], (value) => onChange({ ...draft, [field]: value }));
  return (
    <div class="space-y-3">
      <TextField label={t("admin.lessons.lessonTitle")} maxLength={200} required {...text("title")} />
      <SelectField
        id={form.idOf("type")}
        name="type"
        label={t("admin.lessons.type")}
        placeholder={null}
        options={[
          { value: "article", label: t("admin.lessons.article") },
          { value: "video", label: t("admin.lessons.video") },
        ]}
        value={draft.type}
        error={form.errors.type}
        onChange={(type) => onChange({ ...draft, type: type as ContentType })}
      />
      {draft.type === "article"
        ? (
          <TextAreaField
            id={form.idOf("content")}
            name="content"
            label={t("admin.lessons.html")}
            hint={t("admin.lessons.htmlHint", { max: ARTICLE_MAX })}
            rows={6}
            value={draft.content}
            error={form.errors.content}
            onInput={(e) => onChange({ ...draft, content: e.currentTarget.value })}
            class="font-mono text-sm"
          />
        )
        : <TextField label={t("admin.lessons.videoUrl")} type="url" {...text("cdnVideoUrl")} />}
      <label class="flex items-center gap-2 text-slate-800">
        <input
          type="checkbox"
          name="isPreview"
          checked={draft.isPreview}
          onChange={(e) => onChange({ ...draft, isPreview: e.currentTarget.checked })}
          class="h-4 w-4 accent-indigo-700"
        />
        {t("admin.lessons.preview")}
      </label>
    </div>
  );
}
