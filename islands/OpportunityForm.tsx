/**
 * The submit-an-opportunity form (`POST /api/opportunities`), and the form that edits a submission and sends it to
 * review again (`editing`: `PUT /api/opportunities/{id}`; docs/decisions.md, Opportunities, "Reject with a reason,
 * resubmit"): title, type, dates, location, organizer, link and description, checked in the browser (required
 * fields, end not before start) and by the server; a new one then goes to "My submissions", an edited one to its page.
 * `reviewed` tells a `user` that an admin reviews the submission before it is published. Without JavaScript it is a
 * plain form posting to its page, which does the same (docs/decisions.md, Islands, "Forms work without JavaScript");
 * `initial`, `errors` and `formError` carry what such a submit left. An edit refused because an admin reviewed the
 * submission meanwhile (409) is said in the reader's words (`common.refusal.opportunityReviewed`), as the page says it.
 * Leaving it with something typed and not sent asks first (`data-keep-typed`; docs/decisions.md, Islands, "Leaving a
 * typed form").
 */
import { useState } from "preact/hooks";
import { fetchJson, refusalPrefixes } from "@/lib/browser/fetch_json.ts";
import { Notice, SelectField, SubmitButton, TextAreaField, TextField } from "@/components/forms.tsx";
import { useFormSubmit } from "@/lib/browser/use_form_submit.ts";
import { withScheme } from "@/lib/browser/input_formats.ts";
import type { OpportunityFormField, OpportunityView } from "@/lib/opportunities/schema.ts";
import { TYPE_KEYS } from "@/lib/browser/opportunity_format.ts";
import { useT } from "@/lib/i18n/context.ts";
import { IslandTextProvider } from "@/lib/i18n/island_text.ts";
import type { IslandText } from "@/lib/i18n/translator.ts";

/** The messages this island uses (its `text`): its own, the types, the select's placeholder, refusals, field sentences. */
export const OPPORTUNITY_FORM_TEXT = [
  "opportunities.form.",
  "opportunities.type.",
  "common.choose",
  "common.errors.",
  "fields.",
  ...refusalPrefixes("opportunityNotFound", "opportunityReviewed", "heldByReports"),
] as const;

const FIELDS: readonly OpportunityFormField[] = [
  "title",
  "type",
  "startDate",
  "endDate",
  "location",
  "organizer",
  "link",
  "description",
];
type Field = OpportunityFormField;

/** The types in the order the select lists them. */
const TYPES = Object.keys(TYPE_KEYS) as (keyof typeof TYPE_KEYS)[];

/**
 * Props: who reviews it, the values, problems and form-level refusal (sentences in the page's language) to start from,
 * the submission being edited (if any), and the messages (`OPPORTUNITY_FORM_TEXT`).
 */
export interface OpportunityFormProps {
  text: IslandText;
  reviewed: boolean;
  initial?: Record<Field, string>;
  errors?: Partial<Record<Field, string>>;
  formError?: string;
  /** The id of the submission this form edits and sends to review again. */
  editing?: string;
}

export default function OpportunityForm({ text, ...props }: OpportunityFormProps) {
  return (
    <IslandTextProvider text={text}>
      <Form {...props} />
    </IslandTextProvider>
  );
}

function Form({ reviewed, initial, errors, formError, editing }: Omit<OpportunityFormProps, "text">) {
  const t = useT();
  const [values, setValues] = useState<Record<Field, string>>(
    initial ?? Object.fromEntries(FIELDS.map((f) => [f, ""])) as Record<Field, string>,
  );
  const f = useFormSubmit(FIELDS, { leaves: true, initial: { errors, formError } });
  const set = (field: Field) => (value: string) => setValues((v) => ({ ...v, [field]: value }));

  const check = () => {
    const found: Partial<Record<Field, string>> = {};
    if (!values.title.trim()) found.title = t("opportunities.form.titleRequired");
    if (!values.type) found.type = t("opportunities.form.typeRequired");
    if (!values.startDate) found.startDate = t("opportunities.form.startRequired");
    if (!values.endDate) found.endDate = t("opportunities.form.endRequired");
    else if (values.startDate && values.endDate < values.startDate) found.endDate = t("fields.endBeforeStart");
    if (values.link && !/^https?:\/\/\S+$/.test(withScheme(values.link))) {
      found.link = t("opportunities.form.linkInvalid");
    }
    return found;
  };

  const onSubmit = async (event: Event) => {
    const result = await f.submit(event, {
      check,
      call: () =>
        fetchJson<{ opportunity: OpportunityView }>(editing ? `/api/opportunities/${editing}` : "/api/opportunities", {
          method: editing ? "PUT" : "POST",
          body: Object.fromEntries(
            Object.entries(values).map(([k, v]) => [k, (k === "link" ? withScheme(v) : v.trim()) || null]),
          ),
        }),
    });
    if (result?.ok) {
      location.assign(editing ? `/opportunities/${editing}?resubmitted=1` : "/opportunities/mine?submitted=1");
    } else if (result && editing && result.status === 409) {
      // The edit's conflicts: students' reports hold it, or an admin reviewed it (or moderation rejected it) since the
      // page was opened.
      f.setFormError(t.refusal(result.apiError) ?? t("common.refusal.opportunityReviewed"));
    } else if (result) f.showFailure(result);
  };

  return (
    <form ref={f.form} method="post" noValidate onSubmit={onSubmit} data-keep-typed class="space-y-5">
      {reviewed && (
        <Notice kind="info" title={t("opportunities.form.reviewedTitle")}>
          {t("opportunities.form.reviewedText")}
        </Notice>
      )}
      {f.formError && <Notice kind="error" title={t("opportunities.form.notSubmitted")}>{f.formError}</Notice>}
      {!f.formError && Object.values(f.errors).some(Boolean) && (
        <Notice kind="error" title={t("opportunities.form.notSubmitted")}>{t("opportunities.form.checkFields")}</Notice>
      )}
      <TextField
        {...f.textField("title", values.title, set("title"))}
        label={t("opportunities.form.title")}
        required
        maxLength={200}
      />
      <SelectField
        id="type"
        label={t("opportunities.form.type")}
        value={values.type}
        error={f.errors.type}
        options={TYPES.map((type) => ({ value: type, label: t(TYPE_KEYS[type].one) }))}
        placeholder={t("common.choose")}
        onChange={set("type")}
      />
      <div class="grid gap-4 sm:grid-cols-2">
        <TextField
          {...f.textField("startDate", values.startDate, set("startDate"))}
          label={t("opportunities.form.starts")}
          type="date"
        />
        <TextField
          {...f.textField("endDate", values.endDate, set("endDate"))}
          label={t("opportunities.form.ends")}
          type="date"
        />
      </div>
      <TextField
        {...f.textField("location", values.location, set("location"))}
        label={t("opportunities.form.location")}
        hint={t("opportunities.form.locationHint")}
        maxLength={200}
      />
      <TextField
        {...f.textField("organizer", values.organizer, set("organizer"))}
        label={t("opportunities.form.organizer")}
        maxLength={200}
      />
      <TextField
        {...f.textField("link", values.link, set("link"))}
        label={t("opportunities.form.link")}
        type="url"
        maxLength={2000}
      />
      <TextAreaField
        id="description"
        label={t("opportunities.form.description")}
        rows={5}
        maxLength={5000}
        value={values.description}
        error={f.errors.description}
        onInput={(e) => set("description")(e.currentTarget.value)}
      />
      <SubmitButton
        busy={f.busy}
        label={t(editing ? "opportunities.form.submitAgain" : "opportunities.form.submit")}
        busyLabel={t("opportunities.form.submitting")}
        worksWithoutScript
      />
    </form>
  );
}
