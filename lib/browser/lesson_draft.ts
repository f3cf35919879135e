/**
 * Browser-safe: a toolkit lesson as the admin editor's forms hold it (docs/api.md, Toolkits): its draft, the check
 * made before sending (an http video address is refused, in the language of its `t`), and the body the admin API
 * takes.
 */
import type { ContentItem, ContentType } from "@/lib/toolkits/schema.ts";
import { HTTP_VIDEO, isHttpAddress } from "./admin_checks.ts";
import type { FieldErrors } from "./use_form_submit.ts";
import type { Translate } from "@/lib/i18n/translator.ts";

/** A lesson as the admin page passes it and the admin API returns it (extra fields of the API kept as they come). */
export type Lesson = Pick<
  ContentItem,
  "id" | "title" | "type" | "content" | "cdnVideoUrl" | "orderIndex" | "isPreview"
>;

/** A lesson form's values. */
export interface LessonDraft {
  title: string;
  type: ContentType;
  content: string;
  cdnVideoUrl: string;
  isPreview: boolean;
}

/** The form of a new lesson: an article, not a preview. */
export const EMPTY_LESSON: LessonDraft = { title: "", type: "article", content: "", cdnVideoUrl: "", isPreview: false };

/** The fields of a lesson form, in page order. */
export const LESSON_FIELDS = ["title", "type", "content", "cdnVideoUrl", "isPreview"] as const;
/** A field of a lesson form. */
export type LessonField = typeof LESSON_FIELDS[number];

/** What cannot work, found before sending: no title, or an http video address. */
export function checkLesson(t: Translate, draft: LessonDraft): FieldErrors<LessonField> {
  if (!draft.title.trim()) return { title: t("admin.lessons.titleRequired") };
  return draft.type === "video" && isHttpAddress(draft.cdnVideoUrl) ? { cdnVideoUrl: t(HTTP_VIDEO) } : {};
}

/** The body of `POST`/`PATCH /api/admin/toolkit-content-items` for `draft`: only its type's content. */
export function lessonBody(draft: LessonDraft) {
  return {
    title: draft.title.trim(),
    type: draft.type,
    content: draft.type === "article" ? draft.content : null,
    cdnVideoUrl: draft.type === "video" ? draft.cdnVideoUrl.trim() || null : null,
    isPreview: draft.isPreview,
  };
}

/** The form values of a saved `lesson`, to edit it. */
export function draftOf(lesson: Lesson): LessonDraft {
  return {
    title: lesson.title,
    type: lesson.type,
    content: lesson.content ?? "",
    cdnVideoUrl: lesson.cdnVideoUrl ?? "",
    isPreview: lesson.isPreview,
  };
}
