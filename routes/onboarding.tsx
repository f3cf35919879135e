/**
 * `/onboarding`: the onboarding wizard, where the verification link lands (its `callbackURL` is `/onboarding`;
 * docs/decisions.md, Auth). Signed out: 302 to `/sign-in?callbackURL=/onboarding`, carrying `error=INVALID_TOKEN` along
 * so that sign-in explains an expired or used verification link. Signed in with that error (an old link opened while
 * signed in): the page explains it too. An existing onboarding profile fills the wizard, so the page also edits it.
 * `?callbackURL=` (a same-origin path, else dropped) is the page to return to: the wizard goes there when it is done
 * instead of to the profile, and a user who is already onboarded goes there at once (docs/decisions.md, Auth).
 */
import { define } from "@/lib/platform/define.ts";
import { useT } from "@/lib/i18n/context.ts";
import { Notice } from "@/components/forms.tsx";
import { PageHead } from "@/components/PageHead.tsx";
import OnboardingWizard, {
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
  STRUGGLES,
} from "@/lib/onboarding/onboarding.ts";
import { assertSignedIn } from "@/lib/http/guards.ts";
import { returnPage } from "@/lib/auth/redirects.ts";

interface Data {
  initial: OnboardingAnswers;
  returning: boolean;
  callbackURL: string | null;
}

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
          text={t.island(ONBOARDING_TEXT)}
        />
      </div>
    </section>
  );
});
