/**
 * The onboarding wizard (docs/api.md, Profile and onboarding; docs/decisions.md, Profile and onboarding). The persona comes first;
 * a society member finishes there, a student goes on through location, education level, field of
 * study, opportunity interests, domain preferences and struggles, with a step indicator and
 * back/next. The finish posts the whole profile to `POST /api/onboarding`; a refusal returns to
 * the step of the first field it names (its `fields`) and shows each sentence at its field. Then it goes on to
 * `callbackURL` (the page the person came from, kept when it is on this origin) or the home page's "For you", so the answers visibly matter.
 * The choice lists come from `lib/onboarding/onboarding.ts` through the page, as props.
 */
import { useEffect, useRef, useState } from "preact/hooks";
import { fetchJson } from "@/lib/browser/fetch_json.ts";
import { type Choice, ChoiceGroup, Notice, SelectField, SubmitButton, TextField } from "@/components/forms.tsx";
import { type FieldErrors, useFormSubmit } from "@/lib/browser/use_form_submit.ts";
import { sameOriginTarget } from "@/lib/browser/same_origin.ts";

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
  id: string;
  title: string;
  fields: Field[];
}

const STEPS: Step[] = [
  { id: "persona", title: "About you", fields: ["persona"] },
  { id: "location", title: "Location", fields: ["locationType", "locationValue"] },
  { id: "education", title: "Education level", fields: ["educationLevel"] },
  { id: "field", title: "Field of study", fields: ["fieldOfStudy", "fieldOther"] },
  { id: "interests", title: "Opportunities", fields: ["opportunityInterests"] },
  { id: "domains", title: "Domains", fields: ["domainPreferences"] },
  { id: "struggles", title: "Challenges", fields: ["struggles"] },
];
const FIELDS = STEPS.flatMap((s) => s.fields);

const capitalized = (value: string): Choice => ({ value, label: value.charAt(0).toUpperCase() + value.slice(1) });
const plain = (value: string): Choice => ({ value, label: value });

function checkStep(step: Step, a: OnboardingAnswers): Errors {
  const errors: Errors = {};
  if (step.id === "persona" && !a.persona) errors.persona = "Choose the option that describes you.";
  if (step.id === "location" && !a.locationValue.trim()) {
    errors.locationValue = `Enter your ${a.locationType === "city" ? "city" : "state"}.`;
  }
  if (step.id === "education" && !a.educationLevel) errors.educationLevel = "Choose your education level.";
  if (step.id === "field") {
    if (!a.fieldOfStudy) errors.fieldOfStudy = "Choose your field of study.";
    else if (a.fieldOfStudy === "Other" && !a.fieldOther.trim()) errors.fieldOther = "Name your field of study.";
  }
  return errors;
}

export default function OnboardingWizard(
  { choices, initial, callbackURL = null }: {
    choices: OnboardingChoices;
    initial: OnboardingAnswers;
    callbackURL?: string | null;
  },
) {
  const [answers, setAnswers] = useState<OnboardingAnswers>(initial);
  const [stepIndex, setStepIndex] = useState(0);
  const { form, errors, setErrors, formError, setFormError, busy, showErrors, showFailure, send } = useFormSubmit(
    FIELDS,
    {
      leaves: true,
    },
  );
  const heading = useRef<HTMLHeadingElement>(null);
  const moved = useRef(false);

  const steps = answers.persona === "society" ? STEPS.slice(0, 1) : STEPS;
  const step = steps[stepIndex];
  const last = stepIndex === steps.length - 1 && answers.persona !== "";

  useEffect(() => {
    if (moved.current) heading.current?.focus();
    moved.current = true;
  }, [stepIndex]);

  const set = <K extends Field>(field: K, value: OnboardingAnswers[K]) => {
    setAnswers((current) => ({ ...current, [field]: value }));
    setErrors((current) => ({ ...current, [field]: undefined }));
  };

  const list = (field: ListField) => ({
    id: field,
    hint: "Choose any number, or none.",
    multiple: true,
    value: answers[field],
    error: errors[field],
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
    if (showErrors(checkStep(step, answers))) return;
    if (last) submit();
    else setStepIndex(stepIndex + 1);
  };

  const locationLabel = answers.locationType === "city" ? "Your city" : "Your state";
  return (
    <form ref={form} method="post" noValidate onSubmit={next} class="space-y-6">
      <div>
        <p class="text-sm font-medium text-slate-700">
          Step {stepIndex + 1} of {answers.persona === "" ? "…" : steps.length}
        </p>
        <ol aria-label="Onboarding steps" class="mt-2 flex flex-wrap gap-2">
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
              <span class="sr-only">{i < stepIndex ? "Done: " : i === stepIndex ? "Current: " : "Next: "}</span>
              {s.title}
            </li>
          ))}
        </ol>
      </div>

      <h2 ref={heading} tabIndex={-1} class="text-xl font-semibold text-slate-900 focus:outline-none">
        {step.title}
      </h2>
      {formError && <Notice kind="error" title="We could not save your answers">{formError}</Notice>}

      {step.id === "persona" && (
        <ChoiceGroup
          id="persona"
          label="Which describes you best?"
          multiple={false}
          columns={1}
          options={[
            { value: "student", label: "I am a student looking for internships and opportunities" },
            { value: "society", label: "I represent a student society or club" },
          ]}
          value={answers.persona ? [answers.persona] : []}
          error={errors.persona}
          onChange={(v) => set("persona", (v[0] ?? "") as OnboardingAnswers["persona"])}
        />
      )}
      {step.id === "location" && (
        <div class="space-y-4">
          <ChoiceGroup
            id="locationType"
            label="Do you want to give your city or your state?"
            multiple={false}
            options={[{ value: "city", label: "City" }, { value: "state", label: "State" }]}
            value={[answers.locationType]}
            error={errors.locationType}
            onChange={(v) => v[0] && set("locationType", v[0] as OnboardingAnswers["locationType"])}
          />
          <TextField
            id="locationValue"
            label={locationLabel}
            autoComplete={answers.locationType === "city" ? "address-level2" : "address-level1"}
            maxLength={choices.textMax}
            value={answers.locationValue}
            error={errors.locationValue}
            onInput={(e) => set("locationValue", e.currentTarget.value)}
          />
        </div>
      )}
      {step.id === "education" && (
        <ChoiceGroup
          id="educationLevel"
          label="What is your current education level?"
          multiple={false}
          options={choices.educationLevels.map(plain)}
          value={answers.educationLevel ? [answers.educationLevel] : []}
          error={errors.educationLevel}
          onChange={(v) => set("educationLevel", v[0] ?? "")}
        />
      )}
      {step.id === "field" && (
        <div class="space-y-4">
          <SelectField
            id="fieldOfStudy"
            label="What do you study?"
            options={choices.fieldsOfStudy.map(plain)}
            value={answers.fieldOfStudy}
            error={errors.fieldOfStudy}
            onChange={(v) => set("fieldOfStudy", v)}
          />
          {answers.fieldOfStudy === "Other" && (
            <TextField
              id="fieldOther"
              label="Your field of study"
              maxLength={choices.textMax}
              value={answers.fieldOther}
              error={errors.fieldOther}
              onInput={(e) => set("fieldOther", e.currentTarget.value)}
            />
          )}
        </div>
      )}
      {step.id === "interests" && (
        <ChoiceGroup
          {...list("opportunityInterests")}
          label="Which opportunities interest you?"
          columns={3}
          options={choices.opportunityInterests.map(capitalized)}
        />
      )}
      {step.id === "domains" && (
        <ChoiceGroup
          {...list("domainPreferences")}
          label="Which domains would you like to work in?"
          options={choices.domainPreferences.map(plain)}
        />
      )}
      {step.id === "struggles" && (
        <ChoiceGroup
          {...list("struggles")}
          label="What do you find hardest right now?"
          options={choices.struggles.map(plain)}
        />
      )}

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
              Back
            </button>
          )
          : <span />}
        <SubmitButton busy={busy} label={last ? "Finish" : "Next"} busyLabel="Saving…" />
      </div>
    </form>
  );
}
