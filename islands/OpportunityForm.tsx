/**
 * The submit-an-opportunity form (`POST /api/opportunities`), and the form that edits a submission and sends it to
 * review again (`editing`: `PUT /api/opportunities/{id}`; docs/decisions.md, Opportunities, "Reject with a reason,
 * resubmit"): title, type, dates, location, organizer, link and description, checked in the browser (required
 * fields, end not before start) and by the server; a new one then goes to "My submissions", an edited one to its page.
 * `reviewed` tells a `user` that an admin reviews the submission before it is published. Without JavaScript it is a
 * plain form posting to its page, which does the same (docs/decisions.md, Islands, "Forms work without JavaScript");
 * `initial` and `errors` carry what such a submit left.
 */
import { useState } from "preact/hooks";
import { fetchJson } from "@/lib/browser/fetch_json.ts";
import { Notice, SelectField, SubmitButton, TextAreaField, TextField } from "@/components/forms.tsx";
import { useFormSubmit } from "@/lib/browser/use_form_submit.ts";
import { withScheme } from "@/lib/browser/input_formats.ts";
import type { OpportunityFormField, OpportunityView } from "@/lib/opportunities/schema.ts";

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

/** Props: who reviews it, the values and problems to start from, and the submission being edited (if any). */
export interface OpportunityFormProps {
  reviewed: boolean;
  initial?: Record<Field, string>;
  errors?: Partial<Record<Field, string>>;
  /** The id of the submission this form edits and sends to review again. */
  editing?: string;
}

const TYPES = [
  { value: "hackathon", label: "Hackathon" },
  { value: "grant", label: "Grant" },
  { value: "competition", label: "Competition" },
  { value: "ideathon", label: "Ideathon" },
];

export default function OpportunityForm({ reviewed, initial, errors, editing }: OpportunityFormProps) {
  const [values, setValues] = useState<Record<Field, string>>(
    initial ?? Object.fromEntries(FIELDS.map((f) => [f, ""])) as Record<Field, string>,
  );
  const f = useFormSubmit(FIELDS, { leaves: true, initial: { errors } });
  const set = (field: Field) => (value: string) => setValues((v) => ({ ...v, [field]: value }));

  const check = () => {
    const found: Partial<Record<Field, string>> = {};
    if (!values.title.trim()) found.title = "Enter a title.";
    if (!values.type) found.type = "Choose a type.";
    if (!values.startDate) found.startDate = "Enter the start date.";
    if (!values.endDate) found.endDate = "Enter the end date.";
    else if (values.startDate && values.endDate < values.startDate) {
      found.endDate = "The end cannot be before the start.";
    }
    if (values.link && !/^https?:\/\/\S+$/.test(withScheme(values.link))) {
      found.link = "Enter a web address, like coep.ac.in/hack";
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
    } else if (result) f.showFailure(result);
  };

  return (
    <form ref={f.form} method="post" noValidate onSubmit={onSubmit} class="space-y-5">
      {reviewed && (
        <Notice kind="info" title="An admin reviews it first">
          Your submission is published once an admin approves it. You can follow it under My submissions.
        </Notice>
      )}
      {f.formError && <Notice kind="error" title="The opportunity was not submitted">{f.formError}</Notice>}
      {!f.formError && Object.values(f.errors).some(Boolean) && (
        <Notice kind="error" title="The opportunity was not submitted">Check the fields marked below.</Notice>
      )}
      <TextField {...f.textField("title", values.title, set("title"))} label="Title" required maxLength={200} />
      <SelectField
        id="type"
        label="Type"
        value={values.type}
        error={f.errors.type}
        options={TYPES}
        onChange={set("type")}
      />
      <div class="grid gap-4 sm:grid-cols-2">
        <TextField {...f.textField("startDate", values.startDate, set("startDate"))} label="Starts" type="date" />
        <TextField {...f.textField("endDate", values.endDate, set("endDate"))} label="Ends" type="date" />
      </div>
      <TextField
        {...f.textField("location", values.location, set("location"))}
        label="Location"
        hint="A city, or Online"
        maxLength={200}
      />
      <TextField {...f.textField("organizer", values.organizer, set("organizer"))} label="Organizer" maxLength={200} />
      <TextField
        {...f.textField("link", values.link, set("link"))}
        label="Link to apply or learn more"
        type="url"
        maxLength={2000}
      />
      <TextAreaField
        id="description"
        label="Description"
        rows={5}
        maxLength={5000}
        value={values.description}
        error={f.errors.description}
        onInput={(e) => set("description")(e.currentTarget.value)}
      />
      <SubmitButton
        busy={f.busy}
        label={editing ? "Submit for review again" : "Submit opportunity"}
        busyLabel="Submitting…"
        worksWithoutScript
      />
    </form>
  );
}
