/**
 * The admin's toolkit form (docs/api.md, Toolkits; docs/decisions.md, Toolkits and payments): creates a toolkit
 * (`POST /api/admin/toolkits`, then on to its editor) or saves one (`PUT /api/admin/toolkits/{id}`),
 * including the active switch and the Sale badge (an inactive toolkit's form says students cannot see it yet and how to
 * publish it). Prices in rupees; highlights one per line. The cover is an image's address, or an image uploaded from
 * the form (`POST /api/admin/uploads`, as banners and posts upload theirs), whose path then fills the field.
 * An original price below the price and an http video are refused at their fields; odd values
 * (a free toolkit, a very high price, an original price equal to the price) are pointed out.
 * Leaving a new toolkit's form with something typed and not sent asks first (`data-keep-typed`; docs/decisions.md,
 * Islands, "Leaving a typed form"); a saved toolkit's form saves in place, so it is not marked.
 */
import { useRef, useState } from "preact/hooks";
import { failureMessage, fetchJson, refusalPrefixes } from "@/lib/browser/fetch_json.ts";
import { uploadImage } from "@/lib/browser/upload_image.ts";
import { useHydrated } from "@/lib/browser/use_hydrated.ts";
import { SECONDARY_BUTTON } from "@/lib/browser/styles.ts";
import { Notice, SubmitButton, TextAreaField, TextField } from "@/components/forms.tsx";
import { useFormSubmit } from "@/lib/browser/use_form_submit.ts";
import type { Toolkit } from "@/lib/toolkits/schema.ts";
import { HTTP_VIDEO, isHttpAddress, ORIGINAL_BELOW_PRICE, toolkitWarnings } from "@/lib/browser/admin_checks.ts";
import { useT } from "@/lib/i18n/context.ts";
import { IslandTextProvider } from "@/lib/i18n/island_text.ts";
import type { IslandText } from "@/lib/i18n/translator.ts";

/** The messages this island uses (its `text`). */
export const TOOLKIT_FORM_TEXT = [
  "admin.toolkitForm.",
  "admin.checks.",
  "common.errors.",
  "fields.",
  ...refusalPrefixes("toolkitNotFound", "originalPriceBelowPrice", "imageTooLarge", "imageType", "imageNotFound"),
] as const;

/** The toolkit fields the form edits. */
export interface ToolkitFormValues {
  id?: string;
  title: string;
  description: string;
  price: number;
  originalPrice: number | null;
  category: string | null;
  coverImageUrl: string | null;
  videoUrl: string | null;
  totalDuration: string | null;
  highlights: string[] | null;
  showSaleBadge: boolean | null;
  isActive: boolean;
}

const FIELDS = [
  "title",
  "description",
  "price",
  "originalPrice",
  "category",
  "coverImageUrl",
  "videoUrl",
  "totalDuration",
  "highlights",
] as const;
type Field = typeof FIELDS[number];

const orNull = (text: string) => text.trim() === "" ? null : text.trim();

/** Props: the toolkit to edit (none: a new one) and the messages (`TOOLKIT_FORM_TEXT`). */
export default function ToolkitForm({ text, toolkit }: { toolkit?: ToolkitFormValues; text: IslandText }) {
  return (
    <IslandTextProvider text={text}>
      <Form toolkit={toolkit} />
    </IslandTextProvider>
  );
}

function Form({ toolkit }: { toolkit?: ToolkitFormValues }) {
  const t = useT();
  const [values, setValues] = useState<Record<Field, string>>({
    title: toolkit?.title ?? "",
    description: toolkit?.description ?? "",
    price: toolkit ? String(toolkit.price) : "",
    originalPrice: toolkit?.originalPrice == null ? "" : String(toolkit.originalPrice),
    category: toolkit?.category ?? "",
    coverImageUrl: toolkit?.coverImageUrl ?? "",
    videoUrl: toolkit?.videoUrl ?? "",
    totalDuration: toolkit?.totalDuration ?? "",
    highlights: (toolkit?.highlights ?? []).join("\n"),
  });
  const [isActive, setActive] = useState(toolkit?.isActive ?? false);
  const [sale, setSale] = useState(toolkit?.showSaleBadge === true);
  const [saved, setSaved] = useState("");
  /** Whether the toolkit as last saved is active: until it is, students cannot see it. */
  const [live, setLive] = useState(toolkit?.isActive ?? false);
  const form = useFormSubmit(FIELDS, { leaves: !toolkit });
  const set = (field: Field) => (value: string) => setValues((v) => ({ ...v, [field]: value }));
  const bind = (field: Field) => form.textField(field, values[field], set(field));
  const hydrated = useHydrated();
  const coverFile = useRef<HTMLInputElement>(null);
  const [uploading, setUploading] = useState(false);

  /** Uploads the chosen cover image and puts its path in the cover field; a refusal shows at the field. */
  const uploadCover = async (file: File | undefined) => {
    if (!file) return;
    setUploading(true);
    setSaved("");
    const result = await uploadImage(file);
    setUploading(false);
    if (coverFile.current) coverFile.current.value = "";
    const { coverImageUrl: _, ...others } = form.errors;
    if (!result.ok) return form.setErrors({ ...others, coverImageUrl: failureMessage(t, result) });
    form.setErrors(others);
    set("coverImageUrl")(result.data.url);
    setSaved(t("admin.toolkitForm.coverUploaded", { name: file.name }));
  };

  const check = () => {
    const errors: Partial<Record<Field, string>> = {};
    if (!values.title.trim()) errors.title = t("admin.toolkitForm.titleRequired");
    if (!values.description.trim()) errors.description = t("admin.toolkitForm.descriptionRequired");
    if (values.price.trim() === "" || !(Number(values.price) >= 0)) {
      errors.price = t("admin.toolkitForm.priceInvalid");
    }
    if (values.originalPrice.trim() !== "" && !(Number(values.originalPrice) >= 0)) {
      errors.originalPrice = t("admin.toolkitForm.originalInvalid");
    } else if (values.originalPrice.trim() !== "" && Number(values.originalPrice) < Number(values.price)) {
      errors.originalPrice = t(ORIGINAL_BELOW_PRICE);
    }
    if (isHttpAddress(values.videoUrl)) errors.videoUrl = t(HTTP_VIDEO);
    return errors;
  };

  const body = () => ({
    title: values.title.trim(),
    description: values.description.trim(),
    price: Number(values.price),
    originalPrice: values.originalPrice.trim() === "" ? null : Number(values.originalPrice),
    category: orNull(values.category),
    coverImageUrl: orNull(values.coverImageUrl),
    videoUrl: orNull(values.videoUrl),
    totalDuration: orNull(values.totalDuration),
    highlights: values.highlights.split("\n").map((line) => line.trim()).filter(Boolean),
    showSaleBadge: sale,
  });

  const onSubmit = async (event: Event) => {
    setSaved("");
    const result = await form.submit(event, {
      check,
      call: async () => {
        if (toolkit?.id) {
          return await fetchJson<Toolkit>(`/api/admin/toolkits/${toolkit.id}`, {
            method: "PUT",
            body: { ...body(), isActive },
          });
        }
        const created = await fetchJson<Toolkit>("/api/admin/toolkits", { body: body() });
        if (!created.ok || !isActive) return created;
        return await fetchJson<Toolkit>(`/api/admin/toolkits/${created.data.id}`, {
          method: "PUT",
          body: { isActive: true },
        });
      },
    });
    if (!result) return;
    if (!result.ok) form.showFailure(result);
    else if (toolkit?.id) {
      setSaved(t("admin.toolkitForm.saved"));
      setLive(result.data.isActive);
    } else location.assign(`/admin/toolkits/${result.data.id}?created=1`);
  };

  const price = Number(values.price);
  const warnings = values.price.trim() === "" || !(price >= 0)
    ? []
    : toolkitWarnings(t, price, values.originalPrice.trim() === "" ? null : Number(values.originalPrice));

  return (
    <form ref={form.form} onSubmit={onSubmit} noValidate data-keep-typed={!toolkit || undefined} class="space-y-4">
      {form.formError && <Notice kind="error" title={t("admin.toolkitForm.notSaved")}>{form.formError}</Notice>}
      {saved && <Notice kind="success">{saved}</Notice>}
      {toolkit?.id && !live && (
        <Notice kind="info" title={t("admin.toolkitForm.draftTitle")}>{t("admin.toolkitForm.draftText")}</Notice>
      )}
      <TextField label={t("admin.toolkitForm.title")} maxLength={200} required {...bind("title")} />
      <TextAreaField
        id="description"
        label={t("admin.toolkitForm.description")}
        rows={4}
        maxLength={10000}
        required
        value={values.description}
        error={form.errors.description}
        onInput={(e) => set("description")(e.currentTarget.value)}
      />
      <div class="grid gap-4 sm:grid-cols-2">
        <TextField
          label={t("admin.toolkitForm.price")}
          type="number"
          min={0}
          step="0.01"
          inputMode="decimal"
          required
          {...bind("price")}
        />
        <TextField
          label={t("admin.toolkitForm.originalPrice")}
          type="number"
          min={0}
          step="0.01"
          inputMode="decimal"
          {...bind("originalPrice")}
        />
        <TextField label={t("admin.toolkitForm.category")} maxLength={100} {...bind("category")} />
        <TextField
          label={t("admin.toolkitForm.duration")}
          hint={t("admin.toolkitForm.durationHint")}
          maxLength={100}
          {...bind("totalDuration")}
        />
        <div>
          <TextField
            label={t("admin.toolkitForm.cover")}
            hint={t("admin.toolkitForm.coverHint")}
            type="url"
            {...bind("coverImageUrl")}
          />
          <input
            ref={coverFile}
            type="file"
            accept="image/png,image/jpeg,image/webp,image/gif"
            class="hidden"
            onChange={(e) => uploadCover(e.currentTarget.files?.[0])}
          />
          <div class="mt-2 flex flex-wrap items-center gap-3">
            <button
              type="button"
              class={SECONDARY_BUTTON}
              disabled={!hydrated || uploading}
              aria-busy={uploading ? "true" : undefined}
              onClick={() => coverFile.current?.click()}
            >
              {t(uploading ? "admin.toolkitForm.coverUploading" : "admin.toolkitForm.coverUpload")}
            </button>
            {values.coverImageUrl.startsWith("/api/files/") && (
              <img src={values.coverImageUrl} alt="" class="h-12 w-20 rounded object-cover" />
            )}
          </div>
        </div>
        <TextField label={t("admin.toolkitForm.video")} type="url" {...bind("videoUrl")} />
      </div>
      <TextAreaField
        id="highlights"
        label={t("admin.toolkitForm.highlights")}
        rows={4}
        value={values.highlights}
        onInput={(e) => set("highlights")(e.currentTarget.value)}
      />
      <div class="flex flex-wrap gap-6">
        <label class="flex items-center gap-2 text-slate-800">
          <input
            type="checkbox"
            name="isActive"
            checked={isActive}
            onChange={(e) => setActive(e.currentTarget.checked)}
            class="h-4 w-4 accent-indigo-700"
          />
          {t("admin.toolkitForm.active")}
        </label>
        <label class="flex items-center gap-2 text-slate-800">
          <input
            type="checkbox"
            name="showSaleBadge"
            checked={sale}
            onChange={(e) => setSale(e.currentTarget.checked)}
            class="h-4 w-4 accent-indigo-700"
          />
          {t("admin.toolkitForm.sale")}
        </label>
      </div>
      {warnings.length > 0 && (
        <Notice kind="info" title={t("admin.toolkitForm.checkFirst")}>
          <ul class="list-disc pl-5">{warnings.map((w) => <li key={w}>{w}</li>)}</ul>
        </Notice>
      )}
      <SubmitButton
        busy={form.busy}
        label={t(toolkit?.id ? "admin.toolkitForm.save" : "admin.toolkitForm.create")}
        busyLabel={t(toolkit?.id ? "admin.toolkitForm.saving" : "admin.toolkitForm.creating")}
      />
    </form>
  );
}
