/**
 * The admin post editor (docs/decisions.md, Ungatekeep and banners): title, tag, markdown content with a live preview
 * (rendered and sanitized by the server at `POST /api/admin/ungatekeep/preview`, so no markdown
 * code ships to the browser, and styled as the published post is), up to 5 image uploads with a progress bar and thumbnail each and
 * a remove button, the link card fields, the publish date (a future date schedules the post),
 * and the published and pinned switches. Saves with `POST` (new) or `PATCH` (existing); each
 * field the server refuses shows its sentence at that field, all at once.
 * Leaving it with something typed and not sent asks first (`data-keep-typed`; docs/decisions.md, Islands, "Leaving a
 * typed form"), and so does leaving with an image added or removed and not saved, which no control shows (the file
 * input is emptied after each upload): the form is marked `data-unsaved` while its images differ from the post's.
 */
import { useEffect, useState } from "preact/hooks";
import { fromIstInput, toIstInput } from "@/lib/dates.ts";
import { fetchJson, refusalPrefixes } from "@/lib/browser/fetch_json.ts";
import { useFormSubmit } from "@/lib/browser/use_form_submit.ts";
import { PostBody } from "@/components/ungatekeep/PostBody.tsx";
import { Notice, SelectField, SubmitButton, TextAreaField, TextField } from "@/components/forms.tsx";
import { useHydrated } from "@/lib/browser/use_hydrated.ts";
import { MAX_POST_IMAGES, POST_TAGS, type PostTag } from "@/lib/ungatekeep/tags.ts";
import { useT } from "@/lib/i18n/context.ts";
import { IslandTextProvider } from "@/lib/i18n/island_text.ts";
import type { IslandText, Translate } from "@/lib/i18n/translator.ts";
import type { Post } from "@/lib/ungatekeep/schema.ts";

/** The messages this island uses (its `text`). */
export const POST_EDITOR_TEXT = [
  "admin.editor.",
  "admin.posts.tag.",
  "common.choose",
  "common.errors.",
  "fields.",
  ...refusalPrefixes("postNotFound", "imageTooLarge", "imageType", "postTooLong", "imageNotFound"),
] as const;

/** The editable fields of a post (`id` null for a new one). */
export interface EditablePost {
  id: string | null;
  title: string;
  content: string;
  tag: PostTag | "";
  images: string[];
  linkUrl: string;
  linkTitle: string;
  linkImage: string;
  isPinned: boolean;
  isPublished: boolean;
  publishedAt: string | null;
}

/** The fields of the editor in page order; a refusal of `images` is shown above the form. */
const FIELDS = ["title", "tag", "content", "linkUrl", "linkTitle", "linkImage", "publishedAt"] as const;
type Field = typeof FIELDS[number];

interface Upload {
  key: string;
  name: string;
  progress: number;
  id?: string;
  error?: string;
}

function uploadFile(
  t: Translate,
  file: File,
  onProgress: (fraction: number) => void,
): Promise<{ id?: string; error?: string }> {
  return new Promise((resolve) => {
    const xhr = new XMLHttpRequest();
    xhr.open("POST", "/api/admin/uploads");
    xhr.responseType = "json";
    xhr.upload.onprogress = (e) => e.lengthComputable && onProgress(e.loaded / e.total);
    xhr.onload = () => {
      const body = xhr.response as { id?: string; error?: unknown } | null;
      if (xhr.status === 201 && body?.id) resolve({ id: body.id });
      else {resolve({
          error: typeof body?.error === "string"
            ? t.refusal(body.error) ?? body.error
            : t("admin.editor.uploadFailed", { status: xhr.status }),
        });}
    };
    xhr.onerror = () => resolve({ error: t("admin.editor.uploadNetwork") });
    const form = new FormData();
    form.set("file", file);
    xhr.send(form);
  });
}

/** Props: the post to edit (`id` null: a new one) and the messages (`POST_EDITOR_TEXT`). */
export default function UngatekeepPostEditor({ text, post }: { post: EditablePost; text: IslandText }) {
  return (
    <IslandTextProvider text={text}>
      <Editor post={post} />
    </IslandTextProvider>
  );
}

function Editor({ post }: { post: EditablePost }) {
  const t = useT();
  const hydrated = useHydrated();
  const [values, setValues] = useState({ ...post, publishedAt: toIstInput(post.publishedAt) });
  const [uploads, setUploads] = useState<Upload[]>(post.images.map((id) => ({ key: id, name: id, progress: 1, id })));
  const [preview, setPreview] = useState("");
  const form = useFormSubmit(FIELDS, { leaves: true });
  const set = <K extends keyof typeof values>(key: K, value: (typeof values)[K]) =>
    setValues((v) => ({ ...v, [key]: value }));
  const text = (field: Exclude<Field, "tag">) => form.textField(field, values[field] ?? "", (v) => set(field, v));

  useEffect(() => {
    const timer = setTimeout(async () => {
      const res = await fetchJson<{ html: string }>("/api/admin/ungatekeep/preview", {
        body: { content: values.content },
      });
      if (res.ok) setPreview(res.data.html);
    }, 300);
    return () => clearTimeout(timer);
  }, [values.content]);

  const addFiles = (files: FileList | null) => {
    const room = MAX_POST_IMAGES - uploads.length;
    const chosen = [...files ?? []];
    if (chosen.length > room) form.setFormError(t("admin.editor.tooMany", { max: MAX_POST_IMAGES }));
    for (const file of chosen.slice(0, Math.max(0, room))) {
      const key = crypto.randomUUID();
      setUploads((all) => [...all, { key, name: file.name, progress: 0 }]);
      const update = (patch: Partial<Upload>) =>
        setUploads((all) => all.map((u) => u.key === key ? { ...u, ...patch } : u));
      uploadFile(t, file, (progress) => update({ progress })).then((result) => update({ ...result, progress: 1 }));
    }
  };

  const images = uploads.flatMap((u) => u.id ? [u.id] : []);
  const pending = uploads.some((u) => !u.id && !u.error);

  const save = async (e: Event) => {
    const body = {
      title: values.title,
      content: values.content,
      tag: values.tag || undefined,
      images,
      linkUrl: values.linkUrl.trim() || null,
      linkTitle: values.linkTitle.trim() || null,
      linkImage: values.linkImage.trim() || null,
      isPinned: values.isPinned,
      isPublished: values.isPublished,
      publishedAt: fromIstInput(values.publishedAt),
    };
    const res = await form.submit(e, {
      check: () => ({}),
      call: () =>
        post.id
          ? fetchJson(`/api/admin/ungatekeep/${post.id}`, { method: "PATCH", body })
          : fetchJson<{ post: Post }>("/api/admin/ungatekeep", { body }),
    });
    if (!res) return;
    if (res.ok) return location.assign(`/admin/ungatekeep?saved=${post.id ?? (res.data as { post: Post }).post.id}`);
    form.showFailure(res, { images: t("admin.editor.images") });
  };

  return (
    <form
      ref={form.form}
      onSubmit={save}
      data-keep-typed
      data-unsaved={pending || images.join(" ") !== post.images.join(" ") || undefined}
      class="space-y-5 rounded-lg border border-slate-200 bg-white p-6 shadow-sm"
      noValidate
    >
      {form.formError && <Notice kind="error" title={t("admin.editor.notSaved")}>{form.formError}</Notice>}
      <TextField label={t("admin.editor.title")} required {...text("title")} />
      <SelectField
        id="tag"
        label={t("admin.editor.tag")}
        value={values.tag}
        error={form.errors.tag}
        options={POST_TAGS.map((tag) => ({ value: tag, label: t.dynamic(`admin.posts.tag.${tag}`) }))}
        onChange={(v) => set("tag", v as PostTag | "")}
      />
      <div class="grid gap-4 lg:grid-cols-2">
        <TextAreaField
          id="content"
          label={t("admin.editor.content")}
          rows={14}
          value={values.content}
          error={form.errors.content}
          onInput={(e) => set("content", e.currentTarget.value)}
          class="font-mono text-sm"
        />
        <section aria-labelledby="preview-title">
          <h2 id="preview-title" class="text-sm font-medium text-slate-800">{t("admin.editor.preview")}</h2>
          <div class="mt-1 min-h-40 rounded-md border border-slate-200 bg-white p-3">
            <PostBody html={preview} />
          </div>
        </section>
      </div>
      <fieldset>
        <legend class="text-sm font-medium text-slate-800">
          {t("admin.editor.imagesLegend", { count: uploads.length, max: MAX_POST_IMAGES })}
        </legend>
        <input
          id="images"
          type="file"
          accept="image/png,image/jpeg,image/webp,image/gif"
          multiple
          aria-label={t("admin.editor.addImages")}
          disabled={!hydrated || uploads.length >= MAX_POST_IMAGES}
          onChange={(e) => {
            addFiles(e.currentTarget.files);
            e.currentTarget.value = "";
          }}
          class="mt-2 block text-sm text-slate-800"
        />
        <ul class="mt-3 flex flex-wrap gap-3">
          {uploads.map((u) => (
            <li key={u.key} class="w-32 rounded-md border border-slate-200 p-2 text-xs text-slate-800">
              {u.id
                ? (
                  <img
                    src={`/api/files/${u.id}`}
                    alt={t("admin.editor.uploaded", { name: u.name })}
                    class="h-20 w-full rounded object-cover"
                  />
                )
                : (
                  <progress
                    value={u.progress}
                    max={1}
                    aria-label={t("admin.editor.uploading", { name: u.name })}
                    class="w-full"
                  >
                    {Math.round(u.progress * 100)}%
                  </progress>
                )}
              {u.error && <p role="alert" class="mt-1 text-red-700">{u.error}</p>}
              <button
                type="button"
                onClick={(e) => {
                  setUploads((all) =>
                    all.filter((x) =>
                      x.key !== u.key
                    )
                  );
                  // A removal is no typing: the page's leave guard listens from its first input on.
                  e.currentTarget.dispatchEvent(new Event("input", { bubbles: true }));
                }}
                class="mt-1 text-red-700 underline"
              >
                {t.rich("admin.editor.remove", { name: () => <span class="sr-only">{` ${u.name}`}</span> })}
              </button>
            </li>
          ))}
        </ul>
      </fieldset>
      <div class="grid gap-4 sm:grid-cols-3">
        <TextField label={t("admin.editor.linkUrl")} type="url" {...text("linkUrl")} />
        <TextField label={t("admin.editor.linkTitle")} {...text("linkTitle")} />
        <TextField label={t("admin.editor.linkImage")} type="url" {...text("linkImage")} />
      </div>
      <TextField
        label={t("admin.editor.publishAt")}
        type="datetime-local"
        hint={t("admin.editor.publishHint")}
        {...text("publishedAt")}
      />
      <div class="flex flex-wrap gap-6">
        {(["isPublished", "isPinned"] as const).map((field) => (
          <label key={field} class="flex items-center gap-2 text-slate-900">
            <input
              type="checkbox"
              name={field}
              checked={values[field]}
              onChange={(e) =>
                set(field, e.currentTarget.checked)}
              class="h-4 w-4 accent-indigo-700"
            />
            {t(field === "isPublished" ? "admin.editor.published" : "admin.editor.pinned")}
          </label>
        ))}
      </div>
      <SubmitButton
        busy={form.busy || pending}
        label={t(post.id ? "admin.editor.save" : "admin.editor.create")}
        busyLabel={t(pending ? "admin.editor.uploadingBusy" : "admin.editor.saving")}
      />
    </form>
  );
}
