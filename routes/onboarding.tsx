/**
 * `/onboarding`: the onboarding wizard, where the verification link lands (its `callbackURL` is `/onboarding`;
 * docs/decisions.md, Auth). Signed out: 302 to `/sign-in?callbackURL=/onboarding`, carrying `error=INVALID_TOKEN` along
 * so that sign-in explains an expired or used verification link. Signed in with that error (an old link opened while
 * signed in): the page explains it too. An existing onboarding profile fills the wizard, so the page also edits it.
 * `?callbackURL=` (a same-origin path, else dropped) is the page to return to: the wizard goes there when it is done
 * instead of to the profile, and a user who is already onboarded goes there at once (docs/decisions.md, Auth).
 * `POST` is the wizard's plain form (docs/decisions.md, Islands, "Forms work without JavaScript"): the fields of
 * `POST /api/onboarding` (lists as repeated fields) and `callbackURL`, checked by the same schema and saved by the same
 * domain function, then 303 to the return page; invalid answers, and the ones the wizard asks for that are missing
 * (a student's city or state, education level and field of study, in the wizard's words), render the page again (400)
 * with what was given and every problem beside its field.
 */
import { define } from "@/lib/platform/define.ts";
import { useT } from "@/lib/i18n/context.ts";
import { Notice } from "@/components/forms.tsx";
import { PageHead } from "@/components/PageHead.tsx";
import OnboardingWizard, {
  missingAnswers,
  ONBOARDING_TEXT,
  type OnboardingAnswers,
  type OnboardingChoices,
} from "@/islands/OnboardingWizard.tsx";
import {
  DOMAIN_PREFERENCES,
  EDUCATION_LEVELS,
  FIELDS_OF_STUDY,
  getOnboardingProfile,
  ONBOARDING_TEXT_MAX,
  type OnboardingProfile,
  OPPORTUNITY_INTERESTS,
  parseOnboarding,
  saveOnboardingProfile,
  STRUGGLES,
} from "@/lib/onboarding/onboarding.ts";
import { assertSignedIn } from "@/lib/http/guards.ts";
import { formFields, readForm, seeOther } from "@/lib/http/form_posts.ts";
import { returnPage } from "@/lib/auth/redirects.ts";
import { InvalidInputError } from "@/lib/errors.ts";
import { fieldText } from "@/lib/i18n/field_text.ts";
import type { RouteOptions } from "@/lib/platform/route_options.ts";

/** Saving falls under the per-person limit `profile`, as `POST /api/onboarding` does. */
export const routeOptions: RouteOptions = { personLimit: "profile" };

interface Data {
  initial: OnboardingAnswers;
  returning: boolean;
  callbackURL: string | null;
  /** The sentence beside each answer the posted form got wrong. */
  errors?: Record<string, string>;
}

/** Where the wizard goes when it is done and no `callbackURL` was given. */
const DONE_PAGE = "/?onboarded=1#for-you";

const CHOICES: OnboardingChoices = {
  educationLevels: [...EDUCATION_LEVELS],
  fieldsOfStudy: [...FIELDS_OF_STUDY],
  opportunityInterests: [...OPPORTUNITY_INTERESTS],
  domainPreferences: [...DOMAIN_PREFERENCES],
  struggles: [...STRUGGLES],
  textMax: ONBOARDING_TEXT_MAX,
};

function answersOf(profile: OnboardingProfile | null): OnboardingAnswers {
  return {
    persona: profile?.persona ?? "",
    locationType: profile?.locationType ?? "city",
    locationValue: profile?.locationValue ?? "",
    educationLevel: profile?.educationLevel ?? "",
    fieldOfStudy: profile?.fieldOfStudy ?? "",
    fieldOther: profile?.fieldOther ?? "",
    opportunityInterests: profile?.opportunityInterests ?? [],
    domainPreferences: profile?.domainPreferences ?? [],
    struggles: profile?.struggles ?? [],
  };
}

export const handler = define.handlers<Data>({
  async GET(_req, ctx) {
    assertSignedIn(ctx.state);
    const { user, services } = ctx.state;
    const profile = await getOnboardingProfile(services.kv, user.id);
    const callbackURL = returnPage(ctx.url.searchParams.get("callbackURL"), services.config.appUrl);
    if (profile !== null && callbackURL !== null) {
      return new Response(null, { status: 302, headers: { location: callbackURL } });
    }
    return ctx.render({ initial: answersOf(profile), returning: profile !== null, callbackURL });
  },

  async POST(req, ctx) {
    assertSignedIn(ctx.state);
    const { user, services } = ctx.state;
    const form = await readForm(req);
    const text = formFields(form, [
      "persona",
      "locationType",
      "locationValue",
      "educationLevel",
      "fieldOfStudy",
      "fieldOther",
      "callbackURL",
    ]);
    const lists = {
      opportunityInterests: form.getAll("opportunityInterests").filter((v) => typeof v === "string"),
      domainPreferences: form.getAll("domainPreferences").filter((v) => typeof v === "string"),
      struggles: form.getAll("struggles").filter((v) => typeof v === "string"),
    };
    const callbackURL = returnPage(text.callbackURL || ctx.url.searchParams.get("callbackURL"), services.config.appUrl);
    const initial: OnboardingAnswers = {
      persona: text.persona === "student" || text.persona === "society" ? text.persona : "",
      locationType: text.locationType === "state" ? "state" : "city",
      locationValue: text.locationValue,
      educationLevel: text.educationLevel,
      fieldOfStudy: text.fieldOfStudy,
      fieldOther: text.fieldOther,
      ...lists,
    };
    const again = async (errors: Record<string, string>) => {
      const returning = await getOnboardingProfile(services.kv, user.id) !== null;
      return ctx.render({ initial, returning, callbackURL, errors }, { status: 400 });
    };
    const missing = missingAnswers(ctx.state.t, initial);
    try {
      const input = parseOnboarding({
        ...text,
        ...lists,
        locationValue: text.locationValue.trim(),
        fieldOther: text.fieldOfStudy === "Other" ? text.fieldOther.trim() : null,
      });
      if (Object.keys(missing).length > 0) return again(missing);
      await saveOnboardingProfile(services.kv, user.id, input);
      return seeOther(callbackURL ?? DONE_PAGE);
    } catch (error) {
      if (!(error instanceof InvalidInputError)) throw error;
      const errors = Object.fromEntries(
        error.fields.map((problem) => [problem.field, fieldText(ctx.state.t, problem)]),
      );
      return again({ ...missing, ...errors });
    }
  },
});

export default define.page<Data>(function OnboardingPage({ data, url, state }) {
  const invalidToken = url.searchParams.get("error") === "INVALID_TOKEN";
  const t = useT();
  return (
    <section aria-labelledby="page-title" class="mx-auto w-full max-w-2xl">
      <PageHead title={t(data.returning ? "profile.onboarding.page.answers" : "profile.onboarding.page.start")} />
      <h1 id="page-title" class="text-3xl font-bold tracking-tight text-slate-900">
        {data.returning
          ? t("profile.onboarding.page.answers")
          : t("profile.onboarding.page.welcome", { name: state.user?.name ?? "" })}
      </h1>
      <p class="mt-2 text-slate-700">{t("profile.onboarding.page.lead")}</p>
      {invalidToken && (
        <div class="mt-4">
          <Notice kind="error" title={t("profile.onboarding.page.invalidTitle")}>
            {t(state.user?.emailVerified ? "profile.onboarding.page.verified" : "profile.onboarding.page.signAgain")}
          </Notice>
        </div>
      )}
      <div class="mt-6 rounded-lg border border-slate-200 bg-white p-6 shadow-sm sm:p-8">
        <OnboardingWizard
          choices={CHOICES}
          initial={data.initial}
          callbackURL={data.callbackURL}
          errors={data.errors}
          text={t.island(ONBOARDING_TEXT)}
        />
      </div>
    </section>
  );
});
