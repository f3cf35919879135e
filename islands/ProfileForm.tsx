/**
 * The profile form (docs/api.md, Profile and onboarding; docs/decisions.md, Profile and onboarding): name, image URL, field and
 * opportunity interests, date of birth, college or institute, contact number and current role,
 * saved with `POST /api/profile`. The server validates; each field it refuses (its `fields`, all
 * of them at once) is shown beside that field in plain words, and the first gets focus. Every
 * field is sent, so a blank text clears it and no ticked box clears a list. The contact number is sent as its 10
 * digits (docs/decisions.md, Profile and onboarding, "Contact numbers"). Without JavaScript the form posts to
 * `/profile`, which saves it the same way (docs/decisions.md, Islands, "Forms work without JavaScript").
 */
import { useState } from "preact/hooks";
import { fetchJson } from "@/lib/browser/fetch_json.ts";
import { ChoiceGroup, Notice, SubmitButton, TextField } from "@/components/forms.tsx";
import { useFormSubmit } from "@/lib/browser/use_form_submit.ts";
import type { Profile } from "@/lib/users/profile.ts";
import type { FieldMessages } from "@/lib/browser/auth_forms.ts";
import { nationalNumber } from "@/lib/users/phone.ts";
import { withScheme } from "@/lib/browser/input_formats.ts";

/** The editable profile fields as the form holds them (unset text is `""`). */
export interface ProfileValues {
  name: string;
  image: string;
  fieldInterests: string[];
  opportunityInterests: string[];
  dateOfBirth: string;
  collegeInstitute: string;
  contactNumber: string;
  currentRole: string;
}

/** What the page passes from `lib/users/profile.ts` and `lib/onboarding/onboarding.ts`. */
export interface ProfileOptions {
  limits: { name: number; image: number; collegeInstitute: number; contactNumber: number; currentRole: number };
  fieldInterests: string[];
  opportunityInterests: string[];
}

type Field = keyof ProfileValues;

const FIELDS: readonly Field[] = [
  "name",
  "image",
  "fieldInterests",
  "opportunityInterests",
  "dateOfBirth",
  "collegeInstitute",
  "contactNumber",
  "currentRole",
];

/** The known values first, then any the user already has that the list does not offer. */
function withExtras(known: string[], chosen: string[]) {
  return [...known, ...chosen.filter((v) => !known.includes(v))].map((value) => ({
    value,
    label: value.charAt(0).toUpperCase() + value.slice(1),
  }));
}

/** Props: the values to start from, the account's e-mail, the choices, and what a plain HTML submit left. */
export interface ProfileFormProps {
  initial: ProfileValues;
  email: string;
  options: ProfileOptions;
  /** The problems of a refused plain HTML submit, at their fields. */
  errors?: FieldMessages<Field>;
  /** A plain HTML submit just saved the profile. */
  saved?: boolean;
}

export default function ProfileForm({ initial, email, options, errors: refused, saved: savedNow }: ProfileFormProps) {
  const [values, setValues] = useState<ProfileValues>(initial);
  const [saved, setSaved] = useState(savedNow ?? false);
  const { form, errors, setErrors, formError, setFormError, busy, textField, showFailure, send } = useFormSubmit(
    FIELDS,
    { initial: { errors: refused } },
  );

  const set = <K extends Field>(field: K, value: ProfileValues[K]) => {
    setValues((current) => ({ ...current, [field]: value }));
    setSaved(false);
  };
  const text = (field: Exclude<Field, "fieldInterests" | "opportunityInterests">) =>
    textField(field, values[field], (value) => set(field, value));

  const submit = async (event: Event) => {
    event.preventDefault();
    setSaved(false);
    setFormError("");
    setErrors({});
    const body = { ...values, image: withScheme(values.image), contactNumber: nationalNumber(values.contactNumber) };
    const result = await send(() => fetchJson<{ user: Profile }>("/api/profile", { body }));
    if (result.ok) {
      setValues((current) => ({ ...current, contactNumber: result.data.user.contactNumber ?? "" }));
      setSaved(true);
      return;
    }
    showFailure(result);
  };

  return (
    <form ref={form} method="post" noValidate onSubmit={submit} class="space-y-6">
      {formError && <Notice kind="error" title="We could not save your profile">{formError}</Notice>}
      <div class="grid gap-6 sm:grid-cols-2">
        <TextField {...text("name")} label="Name" autoComplete="name" required maxLength={options.limits.name} />
        <div>
          <p class="block text-sm font-medium text-slate-800">E-mail</p>
          <p class="mt-1 py-2 text-slate-900">{email}</p>
        </div>
        <TextField
          {...text("image")}
          label="Profile image URL"
          type="url"
          hint="A link to a photo of you, starting with https://."
          maxLength={options.limits.image}
        />
        <TextField {...text("dateOfBirth")} label="Date of birth" type="date" autoComplete="bday" />
        <TextField
          {...text("collegeInstitute")}
          label="College or institute"
          autoComplete="organization"
          maxLength={options.limits.collegeInstitute}
        />
        <TextField
          {...text("contactNumber")}
          label="Contact number"
          type="tel"
          autoComplete="tel"
          hint="Your 10-digit mobile number; +91 and spaces are fine."
        />
        <TextField
          {...text("currentRole")}
          label="Current role"
          hint="For example: Final-year student, Intern at Acme. At most 60 characters."
          maxLength={options.limits.currentRole}
        />
      </div>
      <ChoiceGroup
        id="fieldInterests"
        label="Fields you are interested in"
        multiple
        options={withExtras(options.fieldInterests, values.fieldInterests)}
        value={values.fieldInterests}
        error={errors.fieldInterests}
        onChange={(v) => set("fieldInterests", v)}
      />
      <ChoiceGroup
        id="opportunityInterests"
        label="Opportunities you are interested in"
        multiple
        columns={3}
        options={withExtras(options.opportunityInterests, values.opportunityInterests)}
        value={values.opportunityInterests}
        error={errors.opportunityInterests}
        onChange={(v) => set("opportunityInterests", v)}
      />
      {saved && <Notice kind="success">Your profile has been saved.</Notice>}
      <SubmitButton busy={busy} label="Save profile" busyLabel="Saving…" worksWithoutScript />
    </form>
  );
}
