/**
 * The admin banners manager (docs/decisions.md, Ungatekeep and banners, "Banners"): the banners in carousel order with
 * an active switch, order number and delete each, and a form to add one (title, link, optional image uploaded first to
 * `POST /api/admin/uploads`) that shows the server's refusal of a field at that field. Once hydrated, the image is
 * chosen with a button in the page's language (the browser words its own file button) beside the chosen file's name,
 * and an added banner clears the form, its file included. Every form is a plain form to the page first
 * (`routes/admin/banners.tsx`; docs/decisions.md, Islands, "Forms work without JavaScript"): the add form multipart,
 * each row's order and Active with a Save button until hydration (then each saves as it changes, the row saying so),
 * and Delete a link to the page's confirmation until hydration (then the dialog). Leaving with a new banner typed or
 * its image chosen and not added asks first (`data-unsaved`; docs/decisions.md, Islands, "Leaving a typed form").
 */
import { useRef, useState } from "preact/hooks";
import { ConfirmDialog } from "@/components/ConfirmDialog.tsx";
import { failureMessage, fetchJson, refusalPrefixes } from "@/lib/browser/fetch_json.ts";
import { DELETE_DIALOG_TEXT, useConfirmDelete } from "@/lib/browser/use_confirm_delete.ts";
import { useFormSubmit } from "@/lib/browser/use_form_submit.ts";
import { Notice, SubmitButton, TextField } from "@/components/forms.tsx";
import { ROW_INPUT, SECONDARY_BUTTON } from "@/lib/browser/styles.ts";
import { useHydrated } from "@/lib/browser/use_hydrated.ts";
import { uploadImage } from "@/lib/browser/upload_image.ts";
import { RowDeleteButton } from "@/components/RowControls.tsx";
import type { Banner } from "@/lib/ungatekeep/banners.ts";
import { useT } from "@/lib/i18n/context.ts";
import { IslandTextProvider } from "@/lib/i18n/island_text.ts";
import type { IslandText } from "@/lib/i18n/translator.ts";

/** The messages this island uses (its `text`). */
export const BANNER_MANAGER_TEXT = [
  "admin.banners.",
  ...DELETE_DIALOG_TEXT,
  "common.errors.",
  "fields.",
  ...refusalPrefixes("bannerNotFound", "imageTooLarge", "imageType", "imageNotFound"),
] as const;

/** A banner as the admin API returns it (a type-only import: nothing of the domain reaches the bundle). */
export type BannerRow = Omit<Banner, "createdAt" | "updatedAt">;

const sorted = (rows: BannerRow[]) => [...rows].sort((a, b) => a.orderIndex - b.orderIndex);

/** The fields of the new banner form (the image is uploaded before, its refusal is the form's). */
const FIELDS = ["title", "linkUrl"] as const;

/** A plain add form the page refused: the fields as sent, each field's problem and the form's, worded. */
export interface RefusedBanner {
  title: string;
  linkUrl: string;
  errors: Partial<Record<(typeof FIELDS)[number], string>>;
  error: string;
}

/**
 * Props: the banners as the server read them, what the last plain form did (`notice`) or why a row's was refused
 * (`error`; "" for none), a refused add form, and the messages (`BANNER_MANAGER_TEXT`).
 */
export interface BannerManagerProps {
  initial: BannerRow[];
  notice: string;
  error: string;
  refused?: RefusedBanner;
  text: IslandText;
}

export default function BannerManager({ text, ...props }: BannerManagerProps) {
  return (
    <IslandTextProvider text={text}>
      <Banners {...props} />
    </IslandTextProvider>
  );
}

function Banners({ initial, notice, refused, ...props }: Omit<BannerManagerProps, "text">) {
  const t = useT();
  const hydrated = useHydrated();
  const [rows, setRows] = useState(sorted(initial));
  const [title, setTitle] = useState(refused?.title ?? "");
  const [linkUrl, setLinkUrl] = useState(refused?.linkUrl ?? "");
  const [file, setFile] = useState<File | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const form = useFormSubmit(FIELDS, {
    prefix: "banner-",
    initial: refused && { errors: refused.errors, formError: refused.error },
  });
  const [error, setError] = useState(props.error);
  const [message, setMessage] = useState(notice);
  /** The row last saved in place, which says so beside its order. */
  const [savedId, setSavedId] = useState("");
  const remove = useConfirmDelete<BannerRow>({
    path: (row) => `/api/admin/banners/${row.id}`,
    deleted: (row) => {
      setRows((all) => all.filter((r) => r.id !== row.id));
      setMessage(t("admin.banners.deleted", { title: row.title }));
    },
    failed: (_, error) => setError(t("admin.banners.notDeleted", { error })),
  });

  const patch = async (row: BannerRow, body: Partial<BannerRow>) => {
    const res = await fetchJson<{ banner: BannerRow }>(`/api/admin/banners/${row.id}`, { method: "PATCH", body });
    if (!res.ok) return setError(t("admin.banners.notSaved", { error: failureMessage(t, res) }));
    setRows((all) => sorted(all.map((r) => r.id === row.id ? res.data.banner : r)));
    setMessage(t("admin.banners.saved", { title: row.title }));
    setSavedId(row.id);
  };

  const add = async (e: Event) => {
    setError("");
    const res = await form.submit(e, {
      check: () => ({}),
      call: async () => {
        const uploaded = file && await uploadImage(file);
        if (uploaded && !uploaded.ok) return uploaded;
        const orderIndex = rows.reduce((max, r) => Math.max(max, r.orderIndex + 1), 0);
        return await fetchJson<{ banner: BannerRow }>("/api/admin/banners", {
          body: { title, linkUrl: linkUrl.trim() || null, imageId: uploaded ? uploaded.data.id : null, orderIndex },
        });
      },
    });
    if (!res) return;
    if (!res.ok) return form.showFailure(res);
    setRows((all) => sorted([...all, res.data.banner]));
    setTitle("");
    setLinkUrl("");
    setFile(null);
    if (fileInput.current) fileInput.current.value = "";
    setMessage(t("admin.banners.added", { title: res.data.banner.title }));
  };

  return (
    <div class="space-y-6">
      {error && <Notice kind="error">{error}</Notice>}
      <p role="status" aria-live="polite" class="min-h-5 text-sm text-slate-800">{message}</p>
      {rows.length === 0 ? <p class="text-slate-700">{t("admin.banners.none")}</p> : (
        <>
          <p id="banner-order-hint" class="text-sm text-slate-700">
            {t(hydrated ? "admin.banners.orderHint" : "admin.banners.orderHintForm")}
          </p>
          <ul class="space-y-3">
            {rows.map((row) => (
              <li
                key={row.id}
                class="flex flex-wrap items-center gap-4 rounded-lg border border-slate-200 bg-white p-3"
              >
                {row.imageId
                  ? <img src={`/api/files/${row.imageId}`} alt="" class="h-12 w-20 rounded object-cover" />
                  : <span class="h-12 w-20 rounded bg-indigo-900" />}
                <span class="min-w-40 flex-1">
                  <span class="block font-medium text-slate-900">{row.title}</span>
                  <span class="block text-sm text-slate-700">{row.linkUrl ?? t("admin.banners.noLink")}</span>
                </span>
                <form
                  method="post"
                  action="/admin/banners"
                  noValidate
                  class="flex flex-wrap items-center gap-4"
                  onSubmit={(e) => {
                    e.preventDefault();
                    patch(row, { orderIndex: Number(new FormData(e.currentTarget).get("orderIndex")) });
                  }}
                >
                  <input type="hidden" name="intent" value="update" />
                  <input type="hidden" name="id" value={row.id} />
                  <label class="flex items-center gap-2 text-sm text-slate-900">
                    {t("admin.banners.order")}
                    <input
                      type="number"
                      name="orderIndex"
                      min={0}
                      required
                      value={row.orderIndex}
                      aria-describedby="banner-order-hint"
                      onChange={(e) => patch(row, { orderIndex: Number(e.currentTarget.value) })}
                      class={`w-20 ${ROW_INPUT}`}
                    />
                  </label>
                  <label class="flex items-center gap-2 text-sm text-slate-900">
                    <input
                      type="checkbox"
                      name="isActive"
                      value="true"
                      checked={row.isActive}
                      onChange={(e) => patch(row, { isActive: e.currentTarget.checked })}
                      class="h-4 w-4 accent-indigo-700"
                    />
                    {t("admin.banners.active")}
                  </label>
                  {hydrated
                    ? savedId === row.id && (
                      <span class="text-sm font-medium text-green-800">{t("admin.banners.savedMark")}</span>
                    )
                    : (
                      <button type="submit" class={SECONDARY_BUTTON}>
                        {t.rich("admin.banners.saveNamed", {
                          name: () => <span class="sr-only">{` ${row.title} `}</span>,
                        })}
                      </button>
                    )}
                </form>
                {hydrated ? <RowDeleteButton name={row.title} onClick={() => remove.ask(row)} /> : (
                  <a
                    href={`?delete=${encodeURIComponent(row.id)}#delete-banner`}
                    class="rounded-md border border-red-300 bg-white px-3 py-1 text-sm font-medium text-red-700 hover:bg-red-50"
                  >
                    {t.rich("common.deleteNamed", { name: () => <span class="sr-only">{` ${row.title} `}</span> })}
                  </a>
                )}
              </li>
            ))}
          </ul>
        </>
      )}
      <form
        ref={form.form}
        method="post"
        action="/admin/banners"
        encType="multipart/form-data"
        noValidate
        onSubmit={add}
        data-unsaved={title !== "" || linkUrl !== "" || file !== null || undefined}
        class="space-y-4 rounded-lg border border-slate-200 bg-white p-4 shadow-sm"
        aria-labelledby="add-banner-heading"
      >
        <h2 id="add-banner-heading" class="text-lg font-semibold text-slate-900">{t("admin.banners.addHeading")}</h2>
        {form.formError && <Notice kind="error" title={t("admin.banners.notAdded")}>{form.formError}</Notice>}
        <input type="hidden" name="intent" value="add" />
        <TextField label={t("admin.banners.title")} required {...form.textField("title", title, setTitle)} />
        <TextField
          label={t("admin.banners.link")}
          {...form.textField("linkUrl", linkUrl, setLinkUrl)}
        />
        <div>
          <label for="banner-image" class="block text-sm font-medium text-slate-800">{t("admin.banners.image")}</label>
          <input
            id="banner-image"
            name="image"
            ref={fileInput}
            type="file"
            accept="image/png,image/jpeg,image/webp,image/gif"
            onChange={(e) => setFile(e.currentTarget.files?.[0] ?? null)}
            class={hydrated ? "hidden" : "mt-1 block text-sm text-slate-800"}
          />
          {hydrated && (
            <div class="mt-1 flex flex-wrap items-center gap-2">
              <button
                type="button"
                class={SECONDARY_BUTTON}
                aria-describedby="banner-image-chosen"
                onClick={() => fileInput.current?.click()}
              >
                {t("admin.banners.chooseImage")}
              </button>
              <span id="banner-image-chosen" class="text-sm text-slate-700 [overflow-wrap:anywhere]">
                {file?.name ?? t("admin.banners.noImage")}
              </span>
            </div>
          )}
        </div>
        <SubmitButton
          busy={form.busy}
          label={t("admin.banners.add")}
          busyLabel={t("admin.banners.adding")}
          worksWithoutScript
        />
      </form>
      <ConfirmDialog {...remove.dialog} title={t("admin.banners.deleteTitle")}>
        {t("admin.banners.deleteText", { title: remove.target?.title ?? "" })}
      </ConfirmDialog>
    </div>
  );
}
