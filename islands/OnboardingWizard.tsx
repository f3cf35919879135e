/**
 * The onboarding wizard (docs/api.md, Profile and onboarding; docs/decisions.md, Profile and onboarding). The persona comes first;
 * a society member finishes there, a student goes on through location, education level, field of
 * study, opportunity interests, domain preferences and struggles, with a step indicator and
 * back/next. The finish posts the whole profile to `POST /api/onboarding`; a refusal returns to
 * the step of the first field it names (its `fields`) and shows each sentence at its field. Then it goes on to
 * `callbackURL` (the page the person came from, kept when it is on this origin) or the home page's "For you", so the answers visibly matter.
 * The choice lists come from `lib/onboarding/onboarding.ts` through the page, as props.
 * Before it hydrates (and without JavaScript) it is a plain form with every step's fields at once, posted to the
 * page itself (`routes/onboarding.tsx`), which renders it again with `errors` when an answer is wrong or missing.
 * Leaving it with answers given and not sent asks first (`data-keep-typed`, then `data-unsaved`; docs/decisions.md,
 * Islands, "Leaving a typed form").
 */
import { useEffect, useRef, useState } from "preact/hooks";
import { useHydrated } from "@/lib/browser/use_hydrated.ts";
import { fetchJson } from "@/lib/browser/fetch_json.ts";
import { type Choice, Notice, SelectField, SubmitButton, TextField } from "@/components/forms.tsx";
import { ChoiceGroup } from "@/components/ChoiceGroup.tsx";
import { type FieldErrors, useFormSubmit } from "@/lib/browser/use_form_submit.ts";
import { sameOriginTarget } from "@/lib/browser/same_origin.ts";
import { choiceLabel } from "@/lib/browser/choice_labels.ts";
import { useT } from "@/lib/i18n/context.ts";
import { IslandTextProvider } from "@/lib/i18n/island_text.ts";
import type { IslandText, MessageKey, Translate } from "@/lib/i18n/translator.ts";

/** The messages this island uses (its `text`). */
export const ONBOARDING_TEXT = [
  "profile.onboarding.",
  "profile.choice.",
  "profile.problem.",
  "fields.",
  "common.",
] as const;

/** The choice lists the wizard offers (from `lib/onboarding/onboarding.ts`). */
export interface OnboardingChoices {
  educationLevels: string[];
  fieldsOfStudy: string[];
  opportunityInterests: string[];
  domainPreferences: string[];
  struggles: string[];
  textMax: number;
}

/** The wizard's answers; the shape of the `POST /api/onboarding` body. */
export interface OnboardingAnswers {
  persona: "student" | "society" | "";
  locationType: "city" | "state";
  locationValue: string;
  educationLevel: string;
  fieldOfStudy: string;
  fieldOther: string;
  opportunityInterests: string[];
  domainPreferences: string[];
  struggles: string[];
}

type Field = keyof OnboardingAnswers;
type Errors = FieldErrors<Field>;
/** The answers that take any number of choices, shown the same way. */
type ListField = "opportunityInterests" | "domainPreferences" | "struggles";

interface Step {
  id: "persona" | "location" | "education" | "field" | "interests" | "domains" | "struggles";
  fields: Field[];
}

const STEPS: Step[] = [
  { id: "persona", fields: ["persona"] },
  { id: "location", fields: ["locationType", "locationValue"] },
  { id: "education", fields: ["educationLevel"] },
  { id: "field", fields: ["fieldOfStudy", "fieldOther"] },
  { id: "interests", fields: ["opportunityInterests"] },
  { id: "domains", fields: ["domainPreferences"] },
  { id: "struggles", fields: ["struggles"] },
];
const FIELDS = STEPS.flatMap((s) => s.fields);

/** The title of a step. */
const stepTitle = (step: Step): MessageKey => `profile.onboarding.step.${step.id}`;

function checkStep(t: Translate, step: Step, a: OnboardingAnswers): Errors {
  const errors: Errors = {};
  if (step.id === "persona" && !a.persona) errors.persona = t("profile.onboarding.problem.persona");
  if (step.id === "location" && !a.locationValue.trim()) {
    errors.locationValue = t(
      a.locationType === "city" ? "profile.onboarding.problem.city" : "profile.onboarding.problem.state",
    );
  }
  if (step.id === "education" && !a.educationLevel) errors.educationLevel = t("profile.onboarding.problem.education");
  if (step.id === "field") {
    if (!a.fieldOfStudy) errors.fieldOfStudy = t("profile.onboarding.problem.field");
    else if (a.fieldOfStudy === "Other" && !a.fieldOther.trim()) {
      errors.fieldOther = t("profile.onboarding.problem.fieldOther");
    }
  }
  return errors;
}

/**
 * What `answers` still lack, step by step as the wizard checks them (a society member's only step is the persona):
 * the sentence beside each field, in `t`'s language. `routes/onboarding.tsx` checks a plain post with it too.
 */
export function missingAnswers(t: Translate, answers: OnboardingAnswers): Partial<Record<Field, string>> {
  const steps = answers.persona === "society" ? STEPS.slice(0, 1) : STEPS;
  return Object.assign({}, ...steps.map((step) => checkStep(t, step, answers)));
}

/** The answers of the plain form's `data`; `fallback`'s where a field is missing. */
function answersIn(data: FormData, fallback: OnboardingAnswers): OnboardingAnswers {
  const text = (name: Field) => {
    const value = data.get(name);
    return typeof value === "string" ? value : null;
  };
  const persona = text("persona");
  const strings = (name: ListField) => data.getAll(name).filter((v): v is string => typeof v === "string");
  return {
    persona: persona === "student" || persona === "society" ? persona : fallback.persona,
    locationType: text("locationType") === "state" ? "state" : "city",
    locationValue: text("locationValue") ?? fallback.locationValue,
    educationLevel: text("educationLevel") ?? fallback.educationLevel,
    fieldOfStudy: text("fieldOfStudy") ?? fallback.fieldOfStudy,
    fieldOther: text("fieldOther") ?? fallback.fieldOther,
    opportunityInterests: strings("opportunityInterests"),
    domainPreferences: strings("domainPreferences"),
    struggles: strings("struggles"),
  };
}

/**
 * Props: the choice lists, the answers so far, the page to go on to, the problems of a posted form (`errors`, by
 * field), and the messages (`ONBOARDING_TEXT`).
 */
interface OnboardingWizardProps {
  choices: OnboardingChoices;
  initial: OnboardingAnswers;
  callbackURL?: string | null;
  errors?: Partial<Record<string, string>>;
  text: IslandText;
}

export default function OnboardingWizard({ text, ...props }: OnboardingWizardProps) {
  return (
    <IslandTextProvider text={text}>
      <Wizard {...props} />
    </IslandTextProvider>
  );
}

function Wizard({ choices, initial, callbackURL = null, errors: posted = {} }: Omit<OnboardingWizardProps, "text">) {
  const t = useT();
  const hydrated = useHydrated();
  const labelled = (value: string): Choice => ({ value, label: choiceLabel(t, value) });
  const [answers, setAnswers] = useState<OnboardingAnswers>(initial);
  const [stepIndex, setStepIndex] = useState(() =>
    Math.max(0, STEPS.findIndex((s) => s.fields.some((field) => posted[field])))
  );
  const { form, errors, setErrors, formError, setFormError, busy, showErrors, showFailure, send } = useFormSubmit(
    FIELDS,
    {
      leaves: true,
    },
  );
  const heading = useRef<HTMLHeadingElement>(null);
  const moved = useRef(false);

  /** The problems beside the fields: the posted form's until the island takes over. */
  const shown: Errors = hydrated ? errors : posted as Errors;
  const steps = answers.persona === "society" ? STEPS.slice(0, 1) : STEPS;
  const step = steps[stepIndex];
  const last = stepIndex === steps.length - 1 && answers.persona !== "";

  useEffect(() => {
    if (moved.current) heading.current?.focus();
    moved.current = true;
  }, [stepIndex]);
  useEffect(() => {
    setErrors(posted as Errors);
    // What was chosen or typed in the plain form before the island hydrated carries over into the wizard.
    if (form.current) setAnswers(answersIn(new FormData(form.current), initial));
  }, []);

  const set = <K extends Field>(field: K, value: OnboardingAnswers[K]) => {
    setAnswers((current) => ({ ...current, [field]: value }));
    setErrors((current) => ({ ...current, [field]: undefined }));
  };

  const list = (field: ListField) => ({
    id: field,
    hint: t("profile.onboarding.anyNumber"),
    multiple: true,
    value: answers[field],
    error: shown[field],
    onChange: (v: string[]) => set(field, v),
  });

  const submit = async () => {
    setFormError("");
    const body = answers.persona === "society" ? { persona: "society" } : {
      ...answers,
      locationValue: answers.locationValue.trim(),
      fieldOther: answers.fieldOfStudy === "Other" ? answers.fieldOther.trim() : null,
    };
    const result = await send(() => fetchJson("/api/onboarding", { body }));
    if (result.ok) {
      location.assign(sameOriginTarget(callbackURL, "/?onboarded=1#for-you"));
      return;
    }
    const at = steps.findIndex((s) => result.fields.some(({ field }) => s.fields.includes(field as Field)));
    if (at !== -1) setStepIndex(at);
    showFailure(result);
  };

  const next = (event: Event) => {
    event.preventDefault();
    if (showErrors(checkStep(t, step, answers))) return;
    if (last) submit();
    else setStepIndex(stepIndex + 1);
  };

  const locationLabel = t(
    answers.locationType === "city" ? "profile.onboarding.yourCity" : "profile.onboarding.yourState",
  );
  /** The controls of step `id`; without the island every step's, `fieldOther` always. */
  const fieldsOf = (id: Step["id"]) => {
    switch (id) {
      case "persona":
        return (
          <ChoiceGroup
            id="persona"
            label={t("profile.onboarding.personaLabel")}
            multiple={false}
            columns={1}
            options={[
              { value: "student", label: t("profile.onboarding.student") },
              { value: "society", label: t("profile.onboarding.society") },
            ]}
            value={answers.persona ? [answers.persona] : []}
            error={shown.persona}
            onChange={(v) => set("persona", (v[0] ?? "") as OnboardingAnswers["persona"])}
          />
        );
      case "location":
        return (
          <div class="space-y-4">
            <ChoiceGroup
              id="locationType"
              label={t("profile.onboarding.locationLabel")}
              multiple={false}
              options={[
                { value: "city", label: t("profile.onboarding.city") },
                { value: "state", label: t("profile.onboarding.state") },
              ]}
              value={[answers.locationType]}
              error={shown.locationType}
              onChange={(v) => v[0] && set("locationType", v[0] as OnboardingAnswers["locationType"])}
            />
            <TextField
              id="locationValue"
              label={locationLabel}
              autoComplete={answers.locationType === "city" ? "address-level2" : "address-level1"}
              maxLength={choices.textMax}
              value={answers.locationValue}
              error={shown.locationValue}
              onInput={(e) => set("locationValue", e.currentTarget.value)}
            />
          </div>
        );
      case "education":
        return (
          <ChoiceGroup
            id="educationLevel"
            label={t("profile.onboarding.educationLabel")}
            multiple={false}
            options={choices.educationLevels.map(labelled)}
            value={answers.educationLevel ? [answers.educationLevel] : []}
            error={shown.educationLevel}
            onChange={(v) => set("educationLevel", v[0] ?? "")}
          />
        );
      case "field":
        return (
          <div class="space-y-4">
            <SelectField
              id="fieldOfStudy"
              label={t("profile.onboarding.fieldLabel")}
              options={choices.fieldsOfStudy.map(labelled)}
              value={answers.fieldOfStudy}
              error={shown.fieldOfStudy}
              onChange={(v) => set("fieldOfStudy", v)}
            />
            {(!hydrated || answers.fieldOfStudy === "Other") && (
              <TextField
                id="fieldOther"
                label={t("profile.onboarding.fieldOther")}
                maxLength={choices.textMax}
                value={answers.fieldOther}
                error={shown.fieldOther}
                onInput={(e) => set("fieldOther", e.currentTarget.value)}
              />
            )}
          </div>
        );
      case "interests":
        return (
          <ChoiceGroup
            {...list("opportunityInterests")}
            label={t("profile.onboarding.interestsLabel")}
            columns={3}
            options={choices.opportunityInterests.map(labelled)}
          />
        );
      case "domains":
        return (
          <ChoiceGroup
            {...list("domainPreferences")}
            label={t("profile.onboarding.domainsLabel")}
            options={choices.domainPreferences.map(labelled)}
          />
        );
      case "struggles":
        return (
          <ChoiceGroup
            {...list("struggles")}
            label={t("profile.onboarding.strugglesLabel")}
            options={choices.struggles.map(labelled)}
          />
        );
    }
  };

  if (!hydrated) {
    return (
      <form ref={form} method="post" noValidate data-keep-typed class="space-y-8">
        {callbackURL && <input type="hidden" name="callbackURL" value={callbackURL} />}
        {STEPS.map((s) => (
          <section key={s.id} aria-labelledby={`onboarding-${s.id}`} class="space-y-4">
            <h2 id={`onboarding-${s.id}`} class="text-xl font-semibold text-slate-900">{t(stepTitle(s))}</h2>
            {fieldsOf(s.id)}
          </section>
        ))}
        <div class="flex justify-end border-t border-slate-200 pt-4">
          <SubmitButton
            busy={false}
            worksWithoutScript
            label={t("profile.onboarding.finish")}
            busyLabel={t("profile.onboarding.saving")}
          />
        </div>
      </form>
    );
  }

  return (
    <form
      ref={form}
      method="post"
      noValidate
      onSubmit={next}
      data-unsaved={JSON.stringify(answers) !== JSON.stringify(initial) || undefined}
      class="space-y-6"
    >
      <div>
        {answers.persona !== "" && (
          <p class="text-sm font-medium text-slate-700">
            {t("profile.onboarding.stepOf", { step: stepIndex + 1, count: steps.length })}
          </p>
        )}
        <ol aria-label={t("profile.onboarding.steps")} class="mt-2 flex flex-wrap gap-2">
          {steps.map((s, i) => (
            <li
              key={s.id}
              aria-current={i === stepIndex ? "step" : undefined}
              class={`rounded-full px-3 py-1 text-xs font-medium ${
                i === stepIndex
                  ? "bg-indigo-700 text-white"
                  : i < stepIndex
                  ? "bg-indigo-100 text-indigo-900"
                  : "bg-slate-200 text-slate-800"
              }`}
            >
              <span class="sr-only">
                {t(
                  i < stepIndex
                    ? "profile.onboarding.done"
                    : i === stepIndex
                    ? "profile.onboarding.current"
                    : "profile.onboarding.next",
                )}
              </span>
              {t(stepTitle(s))}
            </li>
          ))}
        </ol>
      </div>

      <h2 ref={heading} tabIndex={-1} class="text-xl font-semibold text-slate-900 focus:outline-none">
        {t(stepTitle(step))}
      </h2>
      {formError && <Notice kind="error" title={t("profile.onboarding.errorTitle")}>{formError}</Notice>}

      {fieldsOf(step.id)}

      <div class="flex items-center justify-between gap-4 border-t border-slate-200 pt-4">
        {stepIndex > 0
          ? (
            <button
              type="button"
              disabled={busy}
              onClick={() => {
                setErrors({});
                setStepIndex(stepIndex - 1);
              }}
              class="rounded-md border border-slate-400 bg-white px-4 py-2 font-medium text-slate-800 hover:bg-slate-100 disabled:opacity-70"
            >
              {t("profile.onboarding.back")}
            </button>
          )
          : <span />}
        <SubmitButton
          busy={busy}
          label={t(last ? "profile.onboarding.finish" : "profile.onboarding.nextStep")}
          busyLabel={t("profile.onboarding.saving")}
        />
      </div>
    </form>
  );
}
