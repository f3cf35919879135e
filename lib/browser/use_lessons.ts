/**
 * Browser-safe: the lessons of a toolkit as the admin editor changes them (docs/api.md, Toolkits), through
 * `/api/admin/toolkit-content-items`: add one, edit one, mark it a free preview, move it up or down (the order is
 * renumbered 0, 1, 2, …; the keyboard focus stays on the moved lesson's button, or its other one at the end of the
 * list) and delete it after confirming. Each form's problems, the server's too, are shown at their fields; what the
 * page announces is in `status`, what failed outside a form in `error`.
 */
import { useEffect, useRef, useState } from "preact/hooks";
import { type ApiFailure, type ApiResult, failureMessage, fetchJson } from "./fetch_json.ts";
import { type ConfirmDelete, useConfirmDelete } from "./use_confirm_delete.ts";
import { type FormSubmit, useFormSubmit } from "./use_form_submit.ts";
import { useT } from "@/lib/i18n/context.ts";
import {
  checkLesson,
  draftOf,
  EMPTY_LESSON,
  type Lesson,
  LESSON_FIELDS,
  lessonBody,
  type LessonDraft,
  type LessonField,
} from "./lesson_draft.ts";

/** The editor's lessons and what it can do with them (see the module docstring). */
export interface Lessons {
  lessons: Lesson[];
  busy: boolean;
  status: string;
  error: string;
  /** The list element: a move puts the focus back on a button in it. */
  list: { current: HTMLOListElement | null };
  addForm: FormSubmit<LessonField>;
  draft: LessonDraft;
  setDraft(draft: LessonDraft): void;
  add(event: Event): Promise<void>;
  editForm: FormSubmit<LessonField>;
  /** The lesson being edited and its form's values, or null. */
  editing: { id: string; draft: LessonDraft } | null;
  edit(lesson: Lesson): void;
  setEditDraft(draft: LessonDraft): void;
  cancelEdit(): void;
  save(event: Event): Promise<void>;
  togglePreview(lesson: Lesson): Promise<void>;
  move(from: number, to: number): Promise<void>;
  remove: ConfirmDelete<Lesson>;
}

/** The lessons of toolkit `toolkitId`, starting from `initial`. */
export function useLessons(toolkitId: string, initial: Lesson[]): Lessons {
  const t = useT();
  const [lessons, setLessons] = useState(initial);
  const [draft, setDraft] = useState<LessonDraft>(EMPTY_LESSON);
  const [editing, setEditing] = useState<{ id: string; draft: LessonDraft } | null>(null);
  const [busy, setBusy] = useState(false);
  const addForm = useFormSubmit(LESSON_FIELDS, { prefix: "new-lesson-" });
  const editForm = useFormSubmit(LESSON_FIELDS, { prefix: "edit-lesson-" });
  const [error, setError] = useState("");
  const [status, setStatus] = useState("");
  const list = useRef<HTMLOListElement>(null);
  /** The move button to focus once a move is shown: the moved lesson's, in the direction it went. */
  const refocus = useRef<{ id: string; direction: "up" | "down" } | null>(null);

  useEffect(() => {
    const wanted = refocus.current;
    if (!wanted || !list.current) return;
    refocus.current = null;
    const button = (direction: string) =>
      list.current!.querySelector<HTMLButtonElement>(`button[data-lesson="${wanted.id}"][data-move="${direction}"]`);
    const same = button(wanted.direction);
    (same && !same.disabled ? same : button(wanted.direction === "up" ? "down" : "up"))?.focus();
  }, [lessons]);

  const run = async <T>(call: () => Promise<{ ok: true; data: T } | ApiFailure>) => {
    setBusy(true);
    setError("");
    const result = await call();
    setBusy(false);
    if (!result.ok) {
      setError(failureMessage(t, result));
      return null;
    }
    return result.data;
  };

  const patch = (id: string, body: Record<string, unknown>) =>
    fetchJson<{ contentItem: Lesson }>(`/api/admin/toolkit-content-items/${id}`, { method: "PATCH", body });

  /** Sends a lesson form: problems at their fields; the saved lesson, or null. */
  const send = async (
    event: Event,
    { form, lesson, call }: {
      form: FormSubmit<LessonField>;
      lesson: LessonDraft;
      call: () => Promise<ApiResult<{ contentItem: Lesson }>>;
    },
  ) => {
    setError("");
    setBusy(true);
    const result = await form.submit(event, { check: () => checkLesson(t, lesson), call });
    setBusy(false);
    if (!result) return null;
    if (!result.ok) {
      form.showFailure(result);
      return null;
    }
    return result.data.contentItem;
  };

  const add = async (event: Event) => {
    const created = await send(event, {
      form: addForm,
      lesson: draft,
      call: () =>
        fetchJson<{ contentItem: Lesson }>("/api/admin/toolkit-content-items", {
          body: { toolkitId, orderIndex: lessons.length, ...lessonBody(draft) },
        }),
    });
    if (!created) return;
    setLessons([...lessons, created]);
    setDraft(EMPTY_LESSON);
    setStatus(t("admin.lessons.added", { title: created.title }));
  };

  const edit = (lesson: Lesson) => {
    editForm.setErrors({});
    editForm.setFormError("");
    setEditing({ id: lesson.id, draft: draftOf(lesson) });
  };

  const save = async (event: Event) => {
    if (!editing) return event.preventDefault();
    const saved = await send(event, {
      form: editForm,
      lesson: editing.draft,
      call: () => patch(editing.id, lessonBody(editing.draft)),
    });
    if (!saved) return;
    setLessons(lessons.map((l) => l.id === editing.id ? saved : l));
    setEditing(null);
    setStatus(t("admin.lessons.saved", { title: saved.title }));
  };

  const togglePreview = async (lesson: Lesson) => {
    const saved = await run(() => patch(lesson.id, { isPreview: !lesson.isPreview }));
    if (saved) setLessons(lessons.map((l) => l.id === lesson.id ? saved.contentItem : l));
  };

  const move = async (from: number, to: number) => {
    const order = [...lessons];
    const [moved] = order.splice(from, 1);
    order.splice(to, 0, moved);
    const changed = order.map((l, i) => ({ ...l, orderIndex: i })).filter((l, i) =>
      lessons[i]?.id !== l.id || l.orderIndex !== lessons[i].orderIndex
    );
    const results = await run(async () => {
      for (const lesson of changed) {
        const result = await patch(lesson.id, { orderIndex: lesson.orderIndex });
        if (!result.ok) return result;
      }
      return { ok: true as const, data: true };
    });
    if (results) {
      refocus.current = { id: moved.id, direction: to < from ? "up" : "down" };
      setLessons(order.map((l, i) => ({ ...l, orderIndex: i })));
      setStatus(t("admin.lessons.moved", { title: moved.title, position: to + 1 }));
    }
  };

  const remove = useConfirmDelete<Lesson>({
    path: (lesson) => `/api/admin/toolkit-content-items/${lesson.id}`,
    deleted: (lesson) => {
      setLessons((all) => all.filter((l) => l.id !== lesson.id));
      setStatus(t("admin.lessons.deleted", { title: lesson.title }));
    },
    failed: (_, error) => setError(error),
  });

  return {
    lessons,
    busy,
    status,
    error,
    list,
    addForm,
    draft,
    setDraft,
    add,
    editForm,
    editing,
    edit,
    setEditDraft: (d) => editing && setEditing({ ...editing, draft: d }),
    cancelEdit: () => setEditing(null),
    save,
    togglePreview,
    move,
    remove,
  };
}
