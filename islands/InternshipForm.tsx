/**
 * The form to post an internship (`POST /api/internships`) or edit one (`PUT
 * /api/internships/{id}`), docs/api.md, Internships. A create sends the filled-in fields;
 * an edit sends only the fields that changed (a cleared optional field as `null`). Field
 * errors come from the answer's `fields` (a sentence per field beside the issue array) and are
 * all shown under their fields at once, the first in error focused, with a summary that links
 * each. The call and its refusals go through `fetchJson` and `useFormSubmit` as every form's do.
 * Success goes to the internship's page. "How students apply" chooses the organization's site (`link`) or this
 * platform (`platform`) with up to five screening questions, each kept with its server-made id when edited
 * (docs/decisions.md, Applications, "Apply mode").
 */
import { useState } from "preact/hooks";
import { type ApiFailure, fetchJson } from "@/lib/browser/fetch_json.ts";
import { plainRupees, withScheme } from "@/lib/browser/input_formats.ts";
import { useFormSubmit } from "@/lib/browser/use_form_submit.ts";
import { ChoiceGroup, Notice, SelectField, SubmitButton, TextAreaField, TextField } from "@/components/forms.tsx";
import { TIMING_LABELS, TYPE_LABELS } from "@/lib/browser/internship_format.ts";
import {
  type ApplyFormValues,
  type InternshipFormValues,
  QUESTION_SLOTS,
  type QuestionSlot,
} from "@/lib/browser/internship_form.ts";
import type { InternshipView } from "@/lib/internships/schema.ts";

type TextFieldName = keyof InternshipFormValues;
/** The question slots' fields: `question0` … `question4`. */
type QuestionField = `question${number}`;
type Field = TextFieldName | "applyMode" | QuestionField;

/**
 * Props: `id` is set when editing; `values` are the current (edit) or empty (create) values; `apply` the apply mode and
 * the question slots (five, the unused ones empty); `errors` and `formError` what a plain HTML submit the page refused
 * left (its values are then `values` and `apply`).
 */
export interface InternshipFormProps {
  id?: string;
  values: InternshipFormValues;
  apply: ApplyFormValues;
  errors?: Partial<Record<string, string>>;
  formError?: string;
}

/** Messages shown for any problem of these fields; other fields show the server's sentence. */
const MESSAGES: Partial<Record<TextFieldName, string>> = {
  title: "Enter a title of at most 200 characters.",
  hiringOrganization: "Enter the hiring organization, at most 200 characters.",
  link: "Enter the application link as a full web address starting with https:// or http://.",
  stipend: "Enter the monthly stipend in rupees: a number from 0 to 1,00,00,000.",
  deadline: "Enter a valid date.",
  tags: "Use at most 20 tags of at most 50 characters each.",
};

/** Field labels, also used in the error summary. */
const LABELS: Record<TextFieldName, string> = {
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

const TEXT_FIELDS = Object.keys(LABELS) as TextFieldName[];
const QUESTION_FIELDS = QUESTION_SLOTS.map((i): QuestionField => `question${i}`);
const FIELDS: Field[] = [...TEXT_FIELDS, "applyMode", ...QUESTION_FIELDS];
const FIELD_LABELS: Record<string, string> = {
  ...LABELS,
  applyMode: "How students apply",
  ...Object.fromEntries(QUESTION_SLOTS.map((i) => [`question${i}`, `Question ${i + 1}`])),
};

function tagsOf(text: string): string[] {
  return text.split(",").map((t) => t.trim()).filter(Boolean);
}

/** The JSON value of a field: trimmed text or null, a number or NaN for the stipend, an array for tags. */
function jsonValue(field: TextFieldName, raw: string): unknown {
  const value = raw.trim();
  if (field === "tags") return tagsOf(value);
  if (value === "") return null;
  if (field === "stipend") return Number(plainRupees(value));
  if (field === "link") return withScheme(value);
  return value;
}

/** The apply fields as the API takes them: the mode, and the filled-in questions (none for `link`). */
function applyBody(apply: ApplyFormValues) {
  const questions = apply.mode === "link" ? [] : apply.questions.filter((q) => q.text.trim() !== "").map((q) => ({
    ...q.id ? { id: q.id } : {},
    text: q.text.trim(),
    required: q.required,
  }));
  return { applyMode: apply.mode, questions };
}

/** The request body: every filled-in field for a create, the changed fields for an edit. */
function bodyOf(
  { values, apply }: { values: InternshipFormValues; apply: ApplyFormValues },
  initial: { values: InternshipFormValues; apply: ApplyFormValues },
  editing: boolean,
) {
  const body: Record<string, unknown> = {};
  for (const field of TEXT_FIELDS) {
    const value = jsonValue(field, values[field]);
    if (editing) {
      if (JSON.stringify(value) !== JSON.stringify(jsonValue(field, initial.values[field]))) body[field] = value;
    } else if (value !== null && !(Array.isArray(value) && value.length === 0)) body[field] = value;
  }
  const now = applyBody(apply);
  const before = applyBody(initial.apply);
  if (!editing || now.applyMode !== before.applyMode) body.applyMode = now.applyMode;
  if (
    now.applyMode === "platform" && (!editing || JSON.stringify(now.questions) !== JSON.stringify(before.questions))
  ) {
    body.questions = now.questions;
  }
  return body;
}

/** What saving answers: a create the new listing as `data`, an edit the listing as `internship`. */
type Saved = { data: InternshipView } | { internship: InternshipView };

/**
 * `failure` with this form's own sentence for the fields of `MESSAGES`, and a problem of the questions (the form sends
 * only filled-in slots of at most 300 characters, so rarely one) beside the apply mode.
 */
function withOwnMessages(failure: ApiFailure): ApiFailure {
  const fields = failure.fields.map(({ field, message }) =>
    field.startsWith("questions")
      ? { field: "applyMode", message }
      : { field, message: MESSAGES[field as TextFieldName] ?? message }
  );
  return { ...failure, fields };
}

export default function InternshipForm(
  { id, values: initial, apply: initialApply, errors, formError }: InternshipFormProps,
) {
  const editing = id !== undefined;
  const [values, setValues] = useState(initial);
  const [apply, setApply] = useState(initialApply);
  const f = useFormSubmit(FIELDS, { leaves: true, prefix: "internship-", initial: { errors, formError } });

  const set = (field: TextFieldName) => (value: string) => setValues((v) => ({ ...v, [field]: value }));
  const input = (field: TextFieldName) => ({ ...f.textField(field, values[field], set(field)), label: LABELS[field] });
  const setQuestion = (slot: number, change: Partial<QuestionSlot>) =>
    setApply((a) => ({ ...a, questions: a.questions.map((q, i) => i === slot ? { ...q, ...change } : q) }));

  const submit = async (event: Event) => {
    const body = bodyOf({ values, apply }, { values: initial, apply: initialApply }, editing);
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
    else if (result) f.showFailure(withOwnMessages(result), FIELD_LABELS);
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
                  <a href={`#${f.idOf(field)}`} class="underline">{FIELD_LABELS[field]}</a>: {f.errors[field]}
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
          type="text"
          inputMode="decimal"
          hint="Per month, e.g. 15,000. Leave empty or 0 for unpaid."
        />
        <TextField {...input("duration")} type="text" maxLength={100} placeholder="e.g. 3 months" />
        <TextField {...input("experience")} type="text" maxLength={200} placeholder="e.g. No experience needed" />
        <TextField {...input("deadline")} type="date" />
        <TextField {...input("hiringManager")} type="text" maxLength={200} />
        <div class="sm:col-span-2">
          <TextField {...input("tags")} type="text" hint="Comma-separated, e.g. react, design, marketing" />
        </div>
      </fieldset>
      <fieldset class="space-y-4 rounded-lg border border-slate-200 bg-white p-5 shadow-sm">
        <legend class="px-1 text-lg font-semibold text-slate-900">How students apply</legend>
        <ChoiceGroup
          id={f.idOf("applyMode")}
          label="Where do students send their application?"
          options={[
            { value: "link", label: "On our own site, at the application link" },
            { value: "platform", label: "Here on Career Community, with screening questions" },
          ]}
          value={[apply.mode]}
          multiple={false}
          columns={1}
          error={f.errors.applyMode}
          onChange={(chosen) => chosen[0] && setApply((a) => ({ ...a, mode: chosen[0] as ApplyFormValues["mode"] }))}
        />
        {apply.mode === "platform" && (
          <div class="space-y-4">
            <p class="text-sm text-slate-700">
              Students apply with their resume and a cover note. Add up to five questions they answer when applying
              (each at most 300 characters); leave a slot empty for none. You see applicants at "Applicants" on the
              internship's page, and each hears back from you, or is told after 15 days past the deadline.
            </p>
            {QUESTION_SLOTS.map((slot) => {
              const question = apply.questions[slot];
              const field: QuestionField = `question${slot}`;
              return (
                <div key={slot} class="rounded-md border border-slate-200 p-3">
                  <TextField
                    id={f.idOf(field)}
                    name={field}
                    label={`Question ${slot + 1}`}
                    type="text"
                    maxLength={300}
                    value={question.text}
                    error={f.errors[field]}
                    onInput={(e) => setQuestion(slot, { text: e.currentTarget.value })}
                  />
                  <label class="mt-2 inline-flex items-center gap-2 text-sm text-slate-800">
                    <input
                      type="checkbox"
                      name={`${field}Required`}
                      checked={question.required}
                      class="h-4 w-4 accent-indigo-700"
                      onChange={(e) => setQuestion(slot, { required: e.currentTarget.checked })}
                    />
                    An answer is required
                  </label>
                </div>
              );
            })}
          </div>
        )}
      </fieldset>
      <div class="flex flex-wrap items-center gap-4">
        <SubmitButton
          busy={f.busy}
          label={editing ? "Save changes" : "Post internship"}
          busyLabel={editing ? "Saving…" : "Posting…"}
          worksWithoutScript
        />
        <a href={editing ? `/internships/${id}` : "/internships"} class="text-indigo-700 underline">Cancel</a>
      </div>
    </form>
  );
}
