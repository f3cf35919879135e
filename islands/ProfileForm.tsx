/**
 * The profile form (docs/api.md, Profile and onboarding; docs/decisions.md, Profile and onboarding): name, image URL, field and
 * opportunity interests, date of birth, college or institute, contact number and current role,
 * saved with `POST /api/profile`. The server validates; each field it refuses (its `fields`, all
 * of them at once) is shown beside that field in plain words, and the first gets focus. Every
 * field is sent, so a blank text clears it and no ticked box clears a list. The contact number is sent as its 10
 * digits (docs/decisions.md, Profile and onboarding, "Contact numbers"). Without JavaScript the form posts to
 * `/profile`, which saves it the same way (docs/decisions.md, Islands, "Forms work without JavaScript"). Leaving the
 * page with a change not saved asks first (`data-unsaved`; docs/decisions.md, Islands, "Leaving a typed form").
 */
import { useState } from "preact/hooks";
import { fetchJson } from "@/lib/browser/fetch_json.ts";
import { Notice, SubmitButton, TextField } from "@/components/forms.tsx";
import { ChoiceGroup } from "@/components/ChoiceGroup.tsx";
import { useFormSubmit } from "@/lib/browser/use_form_submit.ts";
import type { Profile } from "@/lib/users/profile.ts";
import type { FieldTexts } from "@/lib/browser/auth_forms.ts";
import { choiceLabel } from "@/lib/browser/choice_labels.ts";
import { useT } from "@/lib/i18n/context.ts";
import { IslandTextProvider } from "@/lib/i18n/island_text.ts";
import type { IslandText, Translate } from "@/lib/i18n/translator.ts";

/** The messages this island uses (its `text`). */
export const PROFILE_FORM_TEXT = [
  "profile.form.",
  "profile.choice.",
  "profile.problem.",
  "fields.",
  "common.errors.",
] as const;
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
function withExtras(t: Translate, known: string[], chosen: string[]) {
  return [...known, ...chosen.filter((v) => !known.includes(v))].map((value) => ({
    value,
    label: choiceLabel(t, value),
  }));
}

/** Props: the values to start from, the account's e-mail, the choices, and what a plain HTML submit left. */
export interface ProfileFormProps {
  initial: ProfileValues;
  email: string;
  options: ProfileOptions;
  /** The problems of a refused plain HTML submit, at their fields. */
  errors?: FieldTexts<Field>;
  /** A plain HTML submit just saved the profile. */
  saved?: boolean;
  /** The messages (`PROFILE_FORM_TEXT`). */
  text: IslandText;
}

export default function ProfileForm({ text, ...props }: ProfileFormProps) {
  return (
    <IslandTextProvider text={text}>
      <Form {...props} />
    </IslandTextProvider>
  );
}

function Form({ initial, email, options, errors: refused, saved: savedNow }: Omit<ProfileFormProps, "text">) {
  const t = useT();
  const [values, setValues] = useState<ProfileValues>(initial);
  const [saved, setSaved] = useState(savedNow ?? false);
  /** Whether something was changed since the page was drawn or last saved: leaving then asks first. */
  const [changed, setChanged] = useState(false);
  const { form, errors, setErrors, formError, setFormError, busy, textField, showFailure, send } = useFormSubmit(
    FIELDS,
    { initial: { errors: refused } },
  );

  const set = <K extends Field>(field: K, value: ProfileValues[K]) => {
    setValues((current) => ({ ...current, [field]: value }));
    setSaved(false);
    setChanged(true);
  };
  const textOf = (field: Exclude<Field, "fieldInterests" | "opportunityInterests">) =>
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
      setChanged(false);
      return;
    }
    showFailure(result);
  };

  return (
    <form ref={form} method="post" noValidate onSubmit={submit} data-unsaved={changed || undefined} class="space-y-6">
      {formError && <Notice kind="error" title={t("profile.form.errorTitle")}>{formError}</Notice>}
      <div class="grid gap-6 sm:grid-cols-2">
        <TextField
          {...textOf("name")}
          label={t("profile.form.name")}
          autoComplete="name"
          required
          maxLength={options.limits.name}
        />
        <div>
          <p class="block text-sm font-medium text-slate-800">{t("profile.form.email")}</p>
          <p class="mt-1 py-2 text-slate-900">{email}</p>
        </div>
        <TextField
          {...textOf("image")}
          label={t("profile.form.image")}
          type="url"
          hint={t("profile.form.imageHint")}
          maxLength={options.limits.image}
        />
        <TextField {...textOf("dateOfBirth")} label={t("profile.form.dateOfBirth")} type="date" autoComplete="bday" />
        <TextField
          {...textOf("collegeInstitute")}
          label={t("profile.form.college")}
          autoComplete="organization"
          maxLength={options.limits.collegeInstitute}
        />
        <TextField
          {...textOf("contactNumber")}
          label={t("profile.form.contact")}
          type="tel"
          autoComplete="tel"
          hint={t("profile.form.contactHint")}
        />
        <TextField
          {...textOf("currentRole")}
          label={t("profile.form.role")}
          hint={t("profile.form.roleHint", { max: options.limits.currentRole })}
          maxLength={options.limits.currentRole}
        />
      </div>
      <ChoiceGroup
        id="fieldInterests"
        label={t("profile.form.fields")}
        multiple
        options={withExtras(t, options.fieldInterests, values.fieldInterests)}
        value={values.fieldInterests}
        error={errors.fieldInterests}
        onChange={(v) =>
          set("fieldInterests", v)}
      />
      <ChoiceGroup
        id="opportunityInterests"
        label={t("profile.form.opportunities")}
        multiple
        columns={3}
        options={withExtras(t, options.opportunityInterests, values.opportunityInterests)}
        value={values.opportunityInterests}
        error={errors.opportunityInterests}
        onChange={(v) =>
          set("opportunityInterests", v)}
      />
      {saved && <Notice kind="success">{t("profile.form.saved")}</Notice>}
      <SubmitButton
        busy={busy}
        label={t("profile.form.save")}
        busyLabel={t("profile.form.saving")}
        worksWithoutScript
      />
    </form>
  );
}
