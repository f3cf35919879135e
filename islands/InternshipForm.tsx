/**
 * The form to post an internship (`POST /api/internships`) or edit one (`PUT
 * /api/internships/{id}`), docs/api.md, Internships. A create sends the filled-in fields;
 * an edit sends only the fields that changed (a cleared optional field as `null`). Field
 * errors come from the answer's `fields` (a sentence per field beside the issue array) and are
 * all shown under their fields at once, the first in error focused, with a summary that links
 * each. The call and its refusals go through `fetchJson` and `useFormSubmit` as every form's do.
 * Success goes to the internship's page.
 */
import { useState } from "preact/hooks";
import { type ApiFailure, fetchJson } from "@/lib/browser/fetch_json.ts";
import { useFormSubmit } from "@/lib/browser/use_form_submit.ts";
import { Notice, SelectField, SubmitButton, TextAreaField, TextField } from "@/components/forms.tsx";
import { TIMING_LABELS, TYPE_LABELS } from "@/lib/browser/internship_format.ts";
import type { InternshipFormValues } from "@/lib/browser/internship_form.ts";
import type { InternshipView } from "@/lib/internships/schema.ts";

type Field = keyof InternshipFormValues;

/** Props: `id` is set when editing; `values` are the current (edit) or empty (create) values. */
export interface InternshipFormProps {
  id?: string;
  values: InternshipFormValues;
}

/** Messages shown for any problem of these fields; other fields show the server's sentence. */
const MESSAGES: Partial<Record<Field, string>> = {
  title: "Enter a title of at most 200 characters.",
  hiringOrganization: "Enter the hiring organization, at most 200 characters.",
  link: "Enter the application link as a full web address starting with https:// or http://.",
  stipend: "Enter the monthly stipend in rupees: a number from 0 to 1,00,00,000.",
  deadline: "Enter a valid date.",
  tags: "Use at most 20 tags of at most 50 characters each.",
};

/** Field labels, also used in the error summary. */
const LABELS: Record<Field, string> = {
  title: "Title",
  hiringOrganization: "Hiring organization",
  link: "Application link",
  description: "Description",
  type: "Work type",
  timing: "Timing",
  location: "Location",
  stipend: "Monthly stipend (₹)",
  duration: "Duration",
  experience: "Experience",
  deadline: "Application deadline",
  hiringManager: "Hiring manager",
  tags: "Tags",
};

const FIELDS = Object.keys(LABELS) as Field[];

function tagsOf(text: string): string[] {
  return text.split(",").map((t) => t.trim()).filter(Boolean);
}

/** The JSON value of a field: trimmed text or null, a number or NaN for the stipend, an array for tags. */
function jsonValue(field: Field, raw: string): unknown {
  const value = raw.trim();
  if (field === "tags") return tagsOf(value);
  if (value === "") return null;
  if (field === "stipend") return Number(value);
  return value;
}

/** The request body: every filled-in field for a create, the changed fields for an edit. */
function bodyOf(values: InternshipFormValues, initial: InternshipFormValues, editing: boolean) {
  const body: Record<string, unknown> = {};
  for (const field of FIELDS) {
    const value = jsonValue(field, values[field]);
    if (editing) {
      if (JSON.stringify(value) !== JSON.stringify(jsonValue(field, initial[field]))) body[field] = value;
    } else if (value !== null && !(Array.isArray(value) && value.length === 0)) body[field] = value;
  }
  return body;
}

/** What saving answers: a create the new listing as `data`, an edit the listing as `internship`. */
type Saved = { data: InternshipView } | { internship: InternshipView };

/** `failure` with this form's own sentence for the fields of `MESSAGES`. */
function withOwnMessages(failure: ApiFailure): ApiFailure {
  const fields = failure.fields.map(({ field, message }) => ({ field, message: MESSAGES[field as Field] ?? message }));
  return { ...failure, fields };
}

export default function InternshipForm({ id, values: initial }: InternshipFormProps) {
  const editing = id !== undefined;
  const [values, setValues] = useState(initial);
  const f = useFormSubmit(FIELDS, { leaves: true, prefix: "internship-" });

  const set = (field: Field) => (value: string) => setValues((v) => ({ ...v, [field]: value }));
  const input = (field: Field) => ({ ...f.textField(field, values[field], set(field)), label: LABELS[field] });

  const submit = async (event: Event) => {
    const body = bodyOf(values, initial, editing);
    if (editing && Object.keys(body).length === 0) {
      event.preventDefault();
      f.setErrors({});
      f.setFormError("Nothing has changed.");
      return;
    }
    const result = await f.submit(event, {
      check: () => Number.isNaN(body.stipend) ? { stipend: MESSAGES.stipend } : {},
      call: () =>
        fetchJson<Saved>(editing ? `/api/internships/${id}` : "/api/internships", {
          method: editing ? "PUT" : "POST",
          body,
        }),
    });
    if (result?.ok) {
      location.assign(`/internships/${("data" in result.data ? result.data.data : result.data.internship).id}`);
    } else if (result?.status === 401) f.setFormError("Your session has ended. Sign in again, then resubmit.");
    else if (result) f.showFailure(withOwnMessages(result), LABELS);
  };

  const listed = FIELDS.filter((field) => f.errors[field]);
  return (
    <form ref={f.form} method="post" noValidate onSubmit={submit} class="space-y-6">
      {(listed.length > 0 || f.formError) && (
        <Notice kind="error" title={listed.length > 0 ? "Please correct the highlighted fields" : undefined}>
          {f.formError && <p>{f.formError}</p>}
          {listed.length > 0 && (
            <ul class="list-disc pl-5">
              {listed.map((field) => (
                <li key={field}>
                  <a href={`#${f.idOf(field)}`} class="underline">{LABELS[field]}</a>: {f.errors[field]}
                </li>
              ))}
            </ul>
          )}
        </Notice>
      )}
      <fieldset class="space-y-4 rounded-lg border border-slate-200 bg-white p-5 shadow-sm">
        <legend class="px-1 text-lg font-semibold text-slate-900">The role</legend>
        <TextField
          {...input("title")}
          type="text"
          required
          maxLength={200}
          placeholder="e.g. Frontend Developer Intern"
        />
        <TextField {...input("hiringOrganization")} type="text" required maxLength={200} />
        <TextField
          {...input("link")}
          type="url"
          required
          hint="Where students apply, e.g. https://careers.example.com/intern"
        />
        <TextAreaField
          id={f.idOf("description")}
          name="description"
          label={LABELS.description}
          rows={6}
          maxLength={5000}
          value={values.description}
          error={f.errors.description}
          onInput={(e) => set("description")(e.currentTarget.value)}
        />
      </fieldset>
      <fieldset class="grid gap-4 rounded-lg border border-slate-200 bg-white p-5 shadow-sm sm:grid-cols-2">
        <legend class="px-1 text-lg font-semibold text-slate-900">Terms</legend>
        <SelectField
          id={f.idOf("type")}
          name="type"
          label={LABELS.type}
          options={Object.entries(TYPE_LABELS).map(([value, label]) => ({ value, label }))}
          value={values.type}
          placeholder="Not specified"
          error={f.errors.type}
          onChange={set("type")}
        />
        <SelectField
          id={f.idOf("timing")}
          name="timing"
          label={LABELS.timing}
          options={Object.entries(TIMING_LABELS).map(([value, label]) => ({ value, label }))}
          value={values.timing}
          placeholder="Not specified"
          error={f.errors.timing}
          onChange={set("timing")}
        />
        <TextField {...input("location")} type="text" maxLength={200} placeholder="e.g. Bengaluru" />
        <TextField
          {...input("stipend")}
          type="number"
          min="0"
          step="any"
          inputMode="numeric"
          hint="Per month. Leave empty or 0 for unpaid."
        />
        <TextField {...input("duration")} type="text" maxLength={100} placeholder="e.g. 3 months" />
        <TextField {...input("experience")} type="text" maxLength={200} placeholder="e.g. No experience needed" />
        <TextField {...input("deadline")} type="date" />
        <TextField {...input("hiringManager")} type="text" maxLength={200} />
        <div class="sm:col-span-2">
          <TextField {...input("tags")} type="text" hint="Comma-separated, e.g. react, design, marketing" />
        </div>
      </fieldset>
      <div class="flex flex-wrap items-center gap-4">
        <SubmitButton
          busy={f.busy}
          label={editing ? "Save changes" : "Post internship"}
          busyLabel={editing ? "Saving…" : "Posting…"}
        />
        <a href={editing ? `/internships/${id}` : "/internships"} class="text-indigo-700 underline">Cancel</a>
      </div>
    </form>
  );
}
