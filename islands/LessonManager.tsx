/**
 * The lessons of a toolkit in the admin editor (docs/api.md, Toolkits; docs/decisions.md,
 * Toolkits and payments): add an article (HTML, sanitized by the server) or a video (CDN URL), edit one, mark it a
 * free preview, move it up or down (the order is renumbered 0, 1, 2, …; the keyboard focus stays
 * on the moved lesson's button, or its other one at the end of the list), and delete it after
 * confirming. An http video address is refused before sending; each problem, the server's too,
 * is shown at its field. Calls `/api/admin/toolkit-content-items`.
 */
import { useEffect, useRef, useState } from "preact/hooks";
import { type ApiResult, fetchJson } from "@/lib/browser/fetch_json.ts";
import { useConfirmDelete } from "@/lib/browser/use_confirm_delete.ts";
import { type FieldErrors, type FormSubmit, useFormSubmit } from "@/lib/browser/use_form_submit.ts";
import { ConfirmDialog } from "@/components/ConfirmDialog.tsx";
import { Notice, SelectField, TextAreaField, TextField } from "@/components/forms.tsx";
import { SECONDARY_BUTTON } from "@/lib/browser/styles.ts";
import { HTTP_VIDEO, isHttpAddress } from "@/lib/browser/admin_checks.ts";
import type { ContentItem, ContentType } from "@/lib/toolkits/schema.ts";

/** A lesson as the admin page passes it and the admin API returns it (extra fields of the API kept as they come). */
export type Lesson = Pick<
  ContentItem,
  "id" | "title" | "type" | "content" | "cdnVideoUrl" | "orderIndex" | "isPreview"
>;

interface Draft {
  title: string;
  type: ContentType;
  content: string;
  cdnVideoUrl: string;
  isPreview: boolean;
}

const EMPTY: Draft = { title: "", type: "article", content: "", cdnVideoUrl: "", isPreview: false };
const PRIMARY = "rounded-md bg-indigo-700 px-4 py-2 font-medium text-white hover:bg-indigo-800 disabled:opacity-70";

/** The fields of a lesson form, in page order. */
const FIELDS = ["title", "type", "content", "cdnVideoUrl", "isPreview"] as const;
type Field = typeof FIELDS[number];

/** What cannot work, found before sending. */
function check(draft: Draft): FieldErrors<Field> {
  if (!draft.title.trim()) return { title: "Enter a lesson title." };
  return draft.type === "video" && isHttpAddress(draft.cdnVideoUrl) ? { cdnVideoUrl: HTTP_VIDEO } : {};
}

function LessonFields(
  { form, draft, onChange }: { form: FormSubmit<Field>; draft: Draft; onChange: (d: Draft) => void },
) {
  const text = (field: "title" | "cdnVideoUrl") =>
    form.textField(field, draft[field], (value) => onChange({ ...draft, [field]: value }));
  return (
    <div class="space-y-3">
      <TextField label="Lesson title" maxLength={200} required {...text("title")} />
      <SelectField
        id={form.idOf("type")}
        name="type"
        label="Type"
        placeholder={null}
        options={[{ value: "article", label: "Article" }, { value: "video", label: "Video" }]}
        value={draft.type}
        error={form.errors.type}
        onChange={(type) => onChange({ ...draft, type: type as ContentType })}
      />
      {draft.type === "article"
        ? (
          <TextAreaField
            id={form.idOf("content")}
            name="content"
            label="Article (HTML)"
            rows={6}
            value={draft.content}
            error={form.errors.content}
            onInput={(e) => onChange({ ...draft, content: e.currentTarget.value })}
            class="font-mono text-sm"
          />
        )
        : <TextField label="Video URL" type="url" {...text("cdnVideoUrl")} />}
      <label class="flex items-center gap-2 text-slate-800">
        <input
          type="checkbox"
          name="isPreview"
          checked={draft.isPreview}
          onChange={(e) => onChange({ ...draft, isPreview: e.currentTarget.checked })}
          class="h-4 w-4 accent-indigo-700"
        />
        Free preview (anyone may read it)
      </label>
    </div>
  );
}

function bodyOf(draft: Draft) {
  return {
    title: draft.title.trim(),
    type: draft.type,
    content: draft.type === "article" ? draft.content : null,
    cdnVideoUrl: draft.type === "video" ? draft.cdnVideoUrl.trim() || null : null,
    isPreview: draft.isPreview,
  };
}

export default function LessonManager({ toolkitId, lessons: initial }: { toolkitId: string; lessons: Lesson[] }) {
  const [lessons, setLessons] = useState(initial);
  const [draft, setDraft] = useState<Draft>(EMPTY);
  const [editing, setEditing] = useState<{ id: string; draft: Draft } | null>(null);
  const [busy, setBusy] = useState(false);
  const addForm = useFormSubmit(FIELDS, { prefix: "new-lesson-" });
  const editForm = useFormSubmit(FIELDS, { prefix: "edit-lesson-" });
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

  const run = async <T,>(call: () => Promise<{ ok: true; data: T } | { ok: false; error: string }>) => {
    setBusy(true);
    setError("");
    const result = await call();
    setBusy(false);
    if (!result.ok) {
      setError(result.error);
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
      form: FormSubmit<Field>;
      lesson: Draft;
      call: () => Promise<ApiResult<{ contentItem: Lesson }>>;
    },
  ) => {
    setError("");
    setBusy(true);
    const result = await form.submit(event, { check: () => check(lesson), call });
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
          body: { toolkitId, orderIndex: lessons.length, ...bodyOf(draft) },
        }),
    });
    if (!created) return;
    setLessons([...lessons, created]);
    setDraft(EMPTY);
    setStatus(`Lesson “${created.title}” added.`);
  };

  const save = async (event: Event) => {
    if (!editing) return event.preventDefault();
    const saved = await send(event, {
      form: editForm,
      lesson: editing.draft,
      call: () => patch(editing.id, bodyOf(editing.draft)),
    });
    if (!saved) return;
    setLessons(lessons.map((l) => l.id === editing.id ? saved : l));
    setEditing(null);
    setStatus(`Lesson “${saved.title}” saved.`);
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
      setStatus(`“${moved.title}” moved to position ${to + 1}.`);
    }
  };

  const remove = useConfirmDelete<Lesson>({
    path: (lesson) => `/api/admin/toolkit-content-items/${lesson.id}`,
    deleted: (lesson) => {
      setLessons((all) => all.filter((l) => l.id !== lesson.id));
      setStatus(`Lesson “${lesson.title}” deleted.`);
    },
    failed: (_, error) => setError(error),
  });

  return (
    <div class="space-y-6">
      <p role="status" class="min-h-5 text-sm text-slate-700">{status}</p>
      {error && <Notice kind="error" title="That did not work">{error}</Notice>}
      {lessons.length === 0
        ? <p class="text-slate-700">No lessons yet. Add the first one below.</p>
        : (
          <ol ref={list} class="divide-y divide-slate-200 rounded-lg border border-slate-200 bg-white">
            {lessons.map((lesson, index) => (
              <li key={lesson.id} class="space-y-3 p-4">
                <div class="flex flex-wrap items-center justify-between gap-3">
                  <p class="font-medium text-slate-900">
                    {index + 1}. {lesson.title}{" "}
                    <span class="text-sm font-normal text-slate-700">
                      ({lesson.type === "video" ? "Video" : "Article"}
                      {lesson.isPreview ? ", free preview" : ""})
                    </span>
                  </p>
                  <div class="flex flex-wrap gap-2">
                    <button
                      type="button"
                      class={SECONDARY_BUTTON}
                      disabled={busy || index === 0}
                      data-lesson={lesson.id}
                      data-move="up"
                      onClick={() => move(index, index - 1)}
                    >
                      Up<span class="sr-only">{`: ${lesson.title}`}</span>
                    </button>
                    <button
                      type="button"
                      class={SECONDARY_BUTTON}
                      disabled={busy || index === lessons.length - 1}
                      data-lesson={lesson.id}
                      data-move="down"
                      onClick={() => move(index, index + 1)}
                    >
                      Down<span class="sr-only">{`: ${lesson.title}`}</span>
                    </button>
                    <button
                      type="button"
                      class={SECONDARY_BUTTON}
                      disabled={busy}
                      onClick={() => togglePreview(lesson)}
                    >
                      {lesson.isPreview ? "Lock" : "Make preview"}
                      <span class="sr-only">{`: ${lesson.title}`}</span>
                    </button>
                    <button
                      type="button"
                      class={SECONDARY_BUTTON}
                      disabled={busy}
                      onClick={() => {
                        editForm.setErrors({});
                        editForm.setFormError("");
                        setEditing({
                          id: lesson.id,
                          draft: {
                            title: lesson.title,
                            type: lesson.type,
                            content: lesson.content ?? "",
                            cdnVideoUrl: lesson.cdnVideoUrl ?? "",
                            isPreview: lesson.isPreview,
                          },
                        });
                      }}
                    >
                      Edit<span class="sr-only">{`: ${lesson.title}`}</span>
                    </button>
                    <button type="button" class={SECONDARY_BUTTON} disabled={busy} onClick={() => remove.ask(lesson)}>
                      Delete<span class="sr-only">{`: ${lesson.title}`}</span>
                    </button>
                  </div>
                </div>
                {editing?.id === lesson.id && (
                  <form ref={editForm.form} onSubmit={save} noValidate class="space-y-3 rounded-md bg-slate-50 p-4">
                    {editForm.formError && (
                      <Notice kind="error" title="The lesson was not saved">{editForm.formError}</Notice>
                    )}
                    <LessonFields
                      form={editForm}
                      draft={editing.draft}
                      onChange={(d) =>
                        setEditing({ ...editing, draft: d })}
                    />
                    <div class="flex gap-2">
                      <button type="submit" class={PRIMARY} disabled={busy}>Save lesson</button>
                      <button
                        type="button"
                        class={SECONDARY_BUTTON}
                        onClick={() =>
                          setEditing(null)}
                      >
                        Cancel
                      </button>
                    </div>
                  </form>
                )}
              </li>
            ))}
          </ol>
        )}
      <form
        ref={addForm.form}
        onSubmit={add}
        noValidate
        class="space-y-3 rounded-lg border border-slate-200 bg-white p-4 shadow-sm"
        aria-labelledby="add-lesson-heading"
      >
        <h3 id="add-lesson-heading" class="text-lg font-semibold text-slate-900">Add a lesson</h3>
        {addForm.formError && <Notice kind="error" title="The lesson was not added">{addForm.formError}</Notice>}
        <LessonFields form={addForm} draft={draft} onChange={setDraft} />
        <button type="submit" class={PRIMARY} disabled={busy}>{busy ? "Saving…" : "Add lesson"}</button>
      </form>
      <ConfirmDialog {...remove.dialog} title="Delete this lesson?">
        The lesson “{remove.target?.title}” will be removed for good.
      </ConfirmDialog>
    </div>
  );
}
