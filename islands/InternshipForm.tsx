/**
 * The form to post an internship (`POST /api/internships`) or edit one (`PUT
 * /api/internships/{id}`), docs/api.md, Internships. A create sends the filled-in fields;
 * an edit sends only the fields that changed (a cleared optional field as `null`). Field
 * errors come from the answer's `fields` (a sentence per field beside the issue array) and are
 * all shown under their fields at once, the first in error focused, with a summary that links
 * each. The call and its refusals go through `fetchJson` and `useFormSubmit` as every form's do.
 * Success goes to the internship's page, which says it was posted (`?posted=1`) or saved (`?saved=1`). "How students apply" chooses the organization's site (`link`) or this
 * platform (`platform`) with up to five screening questions, each kept with its server-made id when edited
 * (docs/decisions.md, Applications, "Apply mode"). The question slots are always in the page, hidden by CSS while the
 * organization's site is chosen, so that choosing this platform shows them without JavaScript too; a `link` listing
 * sends none of them. A deadline already past is refused before sending (`deadlinePassed`). Its words come in the page's language as its `text`
 * (`INTERNSHIP_FORM_TEXT`), field sentences included (docs/decisions.md, Languages, "Field errors").
 * Leaving it with something typed and not sent asks first (`data-keep-typed`; docs/decisions.md, Islands, "Leaving a
 * typed form").
 */
import { useState } from "preact/hooks";
import { type ApiFailure, fetchJson, refusalPrefixes } from "@/lib/browser/fetch_json.ts";
import { rupeesOrText, withScheme } from "@/lib/browser/input_formats.ts";
import { useFormSubmit } from "@/lib/browser/use_form_submit.ts";
import { LEGEND_INSIDE } from "@/lib/browser/styles.ts";
import { Notice, SelectField, SubmitButton, TextAreaField, TextField } from "@/components/forms.tsx";
import { ChoiceGroup } from "@/components/ChoiceGroup.tsx";
import { TIMING_KEYS, TYPE_KEYS } from "@/lib/browser/internship_format.ts";
import {
  type ApplyFormValues,
  DEADLINE_PASSED,
  deadlinePassed,
  EMPTY_FORM,
  type InternshipFormValues,
  QUESTION_SLOTS,
  type QuestionSlot,
} from "@/lib/browser/internship_form.ts";
import type { InternshipView } from "@/lib/internships/schema.ts";
import type { FieldProblem } from "@/lib/field_messages.ts";
import { useT } from "@/lib/i18n/context.ts";
import { IslandTextProvider } from "@/lib/i18n/island_text.ts";
import type { IslandText, MessageKey, Translate } from "@/lib/i18n/translator.ts";

/** The messages this island uses (its `text`), the sentences of any field the API refuses included. */
export const INTERNSHIP_FORM_TEXT = [
  "internships.form.",
  "internships.type.",
  "internships.timing.",
  "common.choose",
  "common.cancel",
  "common.errors.",
  "fields.",
  ...refusalPrefixes("internshipNotFound", "questionsNeedPlatform", "postingNeedsMember", "heldByReports"),
] as const;

type TextFieldName = keyof InternshipFormValues;
/** The question slots' fields: `question0` … `question4`. */
type QuestionField = `question${number}`;
type Field = TextFieldName | "applyMode" | QuestionField;

/**
 * Props: `id` is set when editing; `values` are the current (edit) or empty (create) values; `apply` the apply mode and
 * the question slots (five, the unused ones empty); `errors` and `formError` what a plain HTML submit the page refused
 * left (its values are then `values` and `apply`); `text` the messages (`INTERNSHIP_FORM_TEXT`).
 */
export interface InternshipFormProps {
  id?: string;
  values: InternshipFormValues;
  apply: ApplyFormValues;
  errors?: Partial<Record<string, string>>;
  formError?: string;
  text: IslandText;
}

/** The form's own sentence for any problem of these fields; other fields show the server's sentence. */
const SENTENCES: Partial<Record<TextFieldName, MessageKey>> = {
  title: "internships.form.error.title",
  hiringOrganization: "internships.form.error.hiringOrganization",
  link: "internships.form.error.link",
  stipend: "internships.form.error.stipend",
  deadline: "internships.form.error.deadline",
  tags: "internships.form.error.tags",
};

/**
 * `problem` as this form says it: the form's own sentence (a catalogue key, read with `fieldText`) for the fields of
 * `SENTENCES`, else the problem as it came.
 */
function formProblem(problem: FieldProblem): FieldProblem {
  const key = SENTENCES[problem.field as TextFieldName];
  return key ? { field: problem.field, message: problem.message, messageKey: key } : problem;
}

/** The text fields in page order (each is labelled by `internships.form.<field>`). */
const TEXT_FIELDS = Object.keys(EMPTY_FORM) as TextFieldName[];
const QUESTION_FIELDS = QUESTION_SLOTS.map((i): QuestionField => `question${i}`);
const FIELDS: Field[] = [...TEXT_FIELDS, "applyMode", ...QUESTION_FIELDS];

/** The label of every field, also used in the error summary. */
function fieldLabels(t: Translate): Record<string, string> {
  return {
    ...Object.fromEntries(TEXT_FIELDS.map((field) => [field, t.dynamic(`internships.form.${field}`)])),
    applyMode: t("internships.form.applyMode"),
    ...Object.fromEntries(
      QUESTION_SLOTS.map((i) => [`question${i}`, t("internships.form.question", { number: i + 1 })]),
    ),
  };
}

function tagsOf(text: string): string[] {
  return text.split(",").map((t) => t.trim()).filter(Boolean);
}

/**
 * The JSON value of a field: trimmed text or null, an array for tags; the stipend a number, or its text when it is not
 * one, so the server refuses it together with every other problem of the form.
 */
function jsonValue(field: TextFieldName, raw: string): unknown {
  const value = raw.trim();
  if (field === "tags") return tagsOf(value);
  if (value === "") return null;
  if (field === "stipend") return rupeesOrText(value);
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
 * `failure` with this form's own sentences (`formProblem`), and a problem of the questions (the form sends only
 * filled-in slots of at most 300 characters, so rarely one) beside the apply mode.
 */
function withOwnMessages(failure: ApiFailure): ApiFailure {
  const fields = failure.fields.map((problem) =>
    problem.field.startsWith("questions") ? { ...problem, field: "applyMode" } : formProblem(problem)
  );
  return { ...failure, fields };
}

export default function InternshipForm({ text, ...props }: InternshipFormProps) {
  return (
    <IslandTextProvider text={text}>
      <Form {...props} />
    </IslandTextProvider>
  );
}

function Form({ id, values: initial, apply: initialApply, errors, formError }: Omit<InternshipFormProps, "text">) {
  const t = useT();
  const labels = fieldLabels(t);
  const editing = id !== undefined;
  const [values, setValues] = useState(initial);
  const [apply, setApply] = useState(initialApply);
  const f = useFormSubmit(FIELDS, { leaves: true, prefix: "internship-", initial: { errors, formError } });

  const set = (field: TextFieldName) => (value: string) => setValues((v) => ({ ...v, [field]: value }));
  const input = (field: TextFieldName) => ({ ...f.textField(field, values[field], set(field)), label: labels[field] });
  const setQuestion = (slot: number, change: Partial<QuestionSlot>) =>
    setApply((a) => ({ ...a, questions: a.questions.map((q, i) => i === slot ? { ...q, ...change } : q) }));

  const submit = async (event: Event) => {
    const body = bodyOf({ values, apply }, { values: initial, apply: initialApply }, editing);
    if (editing && Object.keys(body).length === 0) {
      event.preventDefault();
      f.setErrors({});
      f.setFormError(t("internships.form.unchanged"));
      return;
    }
    const result = await f.submit(event, {
      check: () =>
        deadlinePassed(values.deadline, editing ? initial.deadline : "") ? { deadline: t(DEADLINE_PASSED) } : {},
      call: () =>
        fetchJson<Saved>(editing ? `/api/internships/${id}` : "/api/internships", {
          method: editing ? "PUT" : "POST",
          body,
        }),
    });
    if (result?.ok) {
      const saved = "data" in result.data ? result.data.data : result.data.internship;
      location.assign(`/internships/${saved.id}?${editing ? "saved" : "posted"}=1`);
    } else if (result?.status === 401) f.setFormError(t("internships.form.sessionEnded"));
    else if (result) f.showFailure(withOwnMessages(result), labels);
  };

  const listed = FIELDS.filter((field) => f.errors[field]);
  return (
    <form ref={f.form} method="post" noValidate onSubmit={submit} data-keep-typed class="space-y-6">
      {(listed.length > 0 || f.formError) && (
        <Notice kind="error" title={listed.length > 0 ? t("internships.form.correct") : undefined}>
          {f.formError && <p>{f.formError}</p>}
          {listed.length > 0 && (
            <ul class="list-disc pl-5">
              {listed.map((field) => (
                <li key={field}>
                  <a href={`#${f.idOf(field)}`} class="underline">{labels[field]}</a>: {f.errors[field]}
                </li>
              ))}
            </ul>
          )}
        </Notice>
      )}
      <fieldset class={`space-y-4 rounded-lg border border-slate-200 bg-white p-5 shadow-sm ${LEGEND_INSIDE}`}>
        <legend class="text-lg font-semibold text-slate-900">{t("internships.form.role")}</legend>
        <TextField
          {...input("title")}
          type="text"
          required
          maxLength={200}
          placeholder={t("internships.form.titlePlaceholder")}
        />
        <TextField {...input("hiringOrganization")} type="text" required maxLength={200} />
        <TextField
          {...input("link")}
          type="url"
          required={apply.mode === "link"}
          hint={t(apply.mode === "link" ? "internships.form.linkHint" : "internships.form.linkHintPlatform")}
        />
        <TextAreaField
          id={f.idOf("description")}
          name="description"
          label={labels.description}
          rows={6}
          maxLength={5000}
          value={values.description}
          error={f.errors.description}
          onInput={(e) => set("description")(e.currentTarget.value)}
        />
      </fieldset>
      <fieldset
        class={`grid gap-4 rounded-lg border border-slate-200 bg-white p-5 shadow-sm sm:grid-cols-2 ${LEGEND_INSIDE}`}
      >
        <legend class="text-lg font-semibold text-slate-900">{t("internships.form.terms")}</legend>
        <SelectField
          id={f.idOf("type")}
          name="type"
          label={labels.type}
          options={Object.entries(TYPE_KEYS).map(([value, key]) => ({ value, label: t(key) }))}
          value={values.type}
          placeholder={t("internships.form.notSpecified")}
          error={f.errors.type}
          onChange={set("type")}
        />
        <SelectField
          id={f.idOf("timing")}
          name="timing"
          label={labels.timing}
          options={Object.entries(TIMING_KEYS).map(([value, key]) => ({ value, label: t(key) }))}
          value={values.timing}
          placeholder={t("internships.form.notSpecified")}
          error={f.errors.timing}
          onChange={set("timing")}
        />
        <TextField
          {...input("location")}
          type="text"
          maxLength={200}
          placeholder={t("internships.form.locationPlaceholder")}
        />
        <TextField
          {...input("stipend")}
          type="text"
          inputMode="decimal"
          hint={t("internships.form.stipendHint")}
        />
        <TextField
          {...input("duration")}
          type="text"
          maxLength={100}
          placeholder={t("internships.form.durationPlaceholder")}
        />
        <TextField
          {...input("experience")}
          type="text"
          maxLength={200}
          placeholder={t("internships.form.experiencePlaceholder")}
        />
        <TextField {...input("deadline")} type="date" />
        <TextField {...input("hiringManager")} type="text" maxLength={200} />
        <div class="sm:col-span-2">
          <TextField {...input("tags")} type="text" hint={t("internships.form.tagsHint")} />
        </div>
      </fieldset>
      <fieldset class={`group space-y-4 rounded-lg border border-slate-200 bg-white p-5 shadow-sm ${LEGEND_INSIDE}`}>
        <legend class="text-lg font-semibold text-slate-900">{labels.applyMode}</legend>
        <ChoiceGroup
          id={f.idOf("applyMode")}
          label={t("internships.form.applyWhere")}
          options={[
            { value: "link", label: t("internships.form.applyLink") },
            { value: "platform", label: t("internships.form.applyPlatform") },
          ]}
          value={[apply.mode]}
          multiple={false}
          columns={1}
          error={f.errors.applyMode}
          onChange={(chosen) => chosen[0] && setApply((a) => ({ ...a, mode: chosen[0] as ApplyFormValues["mode"] }))}
        />
        <div class="space-y-4 group-has-[input[value=link]:checked]:hidden">
          <p class="text-sm text-slate-700">{t("internships.form.questionsHelp")}</p>
          {QUESTION_SLOTS.map((slot) => {
            const question = apply.questions[slot];
            const field: QuestionField = `question${slot}`;
            return (
              <div key={slot} class="rounded-md border border-slate-200 p-3">
                <TextField
                  id={f.idOf(field)}
                  name={field}
                  label={labels[field]}
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
                  {t("internships.form.required")}
                </label>
              </div>
            );
          })}
        </div>
      </fieldset>
      <div class="flex flex-wrap items-center gap-4">
        <SubmitButton
          busy={f.busy}
          label={t(editing ? "internships.form.save" : "internships.form.post")}
          busyLabel={t(editing ? "internships.form.saving" : "internships.form.posting")}
          worksWithoutScript
        />
        <a href={editing ? `/internships/${id}` : "/internships"} class="text-indigo-700 underline">
          {t("common.cancel")}
        </a>
      </div>
    </form>
  );
}
