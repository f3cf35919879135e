/**
 * The submit-an-opportunity form (`POST /api/opportunities`): title, type, dates, location,
 * organizer, link and description, checked in the browser (required fields, end not before
 * start) and by the server; on success it goes to "My submissions". `reviewed` tells a `user`
 * that an admin reviews the submission before it is published.
 */
import { useState } from "preact/hooks";
import { fetchJson } from "@/lib/browser/fetch_json.ts";
import { Notice, SelectField, SubmitButton, TextAreaField, TextField } from "@/components/forms.tsx";
import { useFormSubmit } from "@/lib/browser/use_form_submit.ts";
import type { OpportunityView } from "@/lib/opportunities/schema.ts";

const FIELDS = ["title", "type", "startDate", "endDate", "location", "organizer", "link", "description"] as const;
type Field = typeof FIELDS[number];

const TYPES = [
  { value: "hackathon", label: "Hackathon" },
  { value: "grant", label: "Grant" },
  { value: "competition", label: "Competition" },
  { value: "ideathon", label: "Ideathon" },
];

export default function OpportunityForm({ reviewed }: { reviewed: boolean }) {
  const [values, setValues] = useState<Record<Field, string>>(
    Object.fromEntries(FIELDS.map((f) => [f, ""])) as Record<Field, string>,
  );
  const f = useFormSubmit(FIELDS, { leaves: true });
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
    if (values.link && !/^https?:\/\/\S+$/.test(values.link)) found.link = "Enter a web address starting with https://";
    return found;
  };

  const onSubmit = async (event: Event) => {
    const result = await f.submit(event, {
      check,
      call: () =>
        fetchJson<{ opportunity: OpportunityView }>("/api/opportunities", {
          body: Object.fromEntries(Object.entries(values).map(([k, v]) => [k, v.trim() || null])),
        }),
    });
    if (result?.ok) location.assign("/opportunities/mine?submitted=1");
    else if (result) f.showFailure(result);
  };

  return (
    <form ref={f.form} method="post" noValidate onSubmit={onSubmit} class="space-y-5">
      {reviewed && (
        <Notice kind="info" title="An admin reviews it first">
          Your submission is published once an admin approves it. You can follow it under My submissions.
        </Notice>
      )}
      {f.formError && <Notice kind="error" title="The opportunity was not submitted">{f.formError}</Notice>}
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
      <SubmitButton busy={f.busy} label="Submit opportunity" busyLabel="Submitting…" />
    </form>
  );
}
