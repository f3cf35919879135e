/**
 * The admin's toolkit form (docs/api.md, Toolkits; docs/decisions.md, Toolkits and payments): creates a toolkit
 * (`POST /api/admin/toolkits`, then on to its editor) or saves one (`PUT /api/admin/toolkits/{id}`),
 * including the active switch and the Sale badge. Prices in rupees; highlights one per line.
 * An original price below the price and an http video are refused at their fields; odd values
 * (a free toolkit, a very high price, an original price equal to the price) are pointed out.
 */
import { useState } from "preact/hooks";
import { fetchJson } from "@/lib/browser/fetch_json.ts";
import { Notice, SubmitButton, TextAreaField, TextField } from "@/components/forms.tsx";
import { useFormSubmit } from "@/lib/browser/use_form_submit.ts";
import type { Toolkit } from "@/lib/toolkits/schema.ts";
import { HTTP_VIDEO, isHttpAddress, ORIGINAL_BELOW_PRICE, toolkitWarnings } from "@/lib/browser/admin_checks.ts";

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

export default function ToolkitForm({ toolkit }: { toolkit?: ToolkitFormValues }) {
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
  const form = useFormSubmit(FIELDS, { leaves: !toolkit });
  const set = (field: Field) => (value: string) => setValues((v) => ({ ...v, [field]: value }));
  const bind = (field: Field) => form.textField(field, values[field], set(field));

  const check = () => {
    const errors: Partial<Record<Field, string>> = {};
    if (!values.title.trim()) errors.title = "Enter a title.";
    if (!values.description.trim()) errors.description = "Enter a description.";
    if (values.price.trim() === "" || !(Number(values.price) >= 0)) {
      errors.price = "Enter a price in rupees, 0 or more.";
    }
    if (values.originalPrice.trim() !== "" && !(Number(values.originalPrice) >= 0)) {
      errors.originalPrice = "Enter a price in rupees, or leave it empty.";
    } else if (values.originalPrice.trim() !== "" && Number(values.originalPrice) < Number(values.price)) {
      errors.originalPrice = ORIGINAL_BELOW_PRICE;
    }
    if (isHttpAddress(values.videoUrl)) errors.videoUrl = HTTP_VIDEO;
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
    else if (toolkit?.id) setSaved("The toolkit was saved.");
    else location.assign(`/admin/toolkits/${result.data.id}`);
  };

  const price = Number(values.price);
  const warnings = values.price.trim() === "" || !(price >= 0)
    ? []
    : toolkitWarnings(price, values.originalPrice.trim() === "" ? null : Number(values.originalPrice));

  return (
    <form ref={form.form} onSubmit={onSubmit} noValidate class="space-y-4">
      {form.formError && <Notice kind="error" title="The toolkit was not saved">{form.formError}</Notice>}
      {saved && <Notice kind="success">{saved}</Notice>}
      <TextField label="Title" maxLength={200} required {...bind("title")} />
      <TextAreaField
        id="description"
        label="Description"
        rows={4}
        maxLength={10000}
        required
        value={values.description}
        error={form.errors.description}
        onInput={(e) => set("description")(e.currentTarget.value)}
      />
      <div class="grid gap-4 sm:grid-cols-2">
        <TextField
          label="Price (₹)"
          type="number"
          min={0}
          step="0.01"
          inputMode="decimal"
          required
          {...bind("price")}
        />
        <TextField
          label="Original price (₹, optional)"
          type="number"
          min={0}
          step="0.01"
          inputMode="decimal"
          {...bind("originalPrice")}
        />
        <TextField label="Category (optional)" maxLength={100} {...bind("category")} />
        <TextField
          label="Total duration (optional)"
          hint="For example “3 hours”"
          maxLength={100}
          {...bind("totalDuration")}
        />
        <TextField label="Cover image URL (optional)" type="url" {...bind("coverImageUrl")} />
        <TextField label="Promo video URL (optional)" type="url" {...bind("videoUrl")} />
      </div>
      <TextAreaField
        id="highlights"
        label="Highlights (one per line)"
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
          Active (shown in the marketplace)
        </label>
        <label class="flex items-center gap-2 text-slate-800">
          <input
            type="checkbox"
            name="showSaleBadge"
            checked={sale}
            onChange={(e) => setSale(e.currentTarget.checked)}
            class="h-4 w-4 accent-indigo-700"
          />
          Show the Sale badge
        </label>
      </div>
      {warnings.length > 0 && (
        <Notice kind="info" title="Check before saving">
          <ul class="list-disc pl-5">{warnings.map((w) => <li key={w}>{w}</li>)}</ul>
        </Notice>
      )}
      <SubmitButton
        busy={form.busy}
        label={toolkit?.id ? "Save toolkit" : "Create toolkit"}
        busyLabel={toolkit?.id ? "Saving…" : "Creating…"}
      />
    </form>
  );
}
