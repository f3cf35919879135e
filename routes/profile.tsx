/**
 * `/profile`: the signed-in user's profile form (docs/api.md, Profile and onboarding). Signed out: 302 to
 * `/sign-in?callbackURL=/profile`.
 * The page also lists the account's sign-in methods (e-mail and password, Google, LinkedIn), its connected accounts
 * with a "Remove" form each posting to `/profile/remove-provider` (docs/decisions.md, Social sign-in, "Removing a
 * connected account"; none for the only way left to sign in) and, when push is
 * configured, has "Notifications on this phone" (docs/decisions.md, Push, "Subscriptions"), the resume section,
 * whose forms post to `/profile/resume` (docs/decisions.md, Applications, "Resumes"), and "Sign out everywhere else", a
 * form posting to `/profile/sign-out-others` (docs/decisions.md, Sessions, "Ending sessions").
 *
 * `POST /profile` is the form without JavaScript (docs/decisions.md, Islands, "Forms work without JavaScript"): every
 * profile field (the interests as repeated `fieldInterests` and `opportunityInterests`), the contact number as its 10
 * digits (`lib/users/phone.ts`), the same validation and update as `POST /api/profile`; success is 303 to
 * `/profile?saved=1`, a refusal renders the page again (400) with every problem beside its field and what was typed.
 */
import { define } from "@/lib/platform/define.ts";
import { PageHead } from "@/components/PageHead.tsx";
import ProfileForm, { PROFILE_FORM_TEXT, type ProfileOptions, type ProfileValues } from "@/islands/ProfileForm.tsx";
import { useT } from "@/lib/i18n/context.ts";
import { fieldText } from "@/lib/i18n/field_text.ts";
import { DOMAIN_PREFERENCES, OPPORTUNITY_INTERESTS } from "@/lib/onboarding/onboarding.ts";
import { assertSignedIn } from "@/lib/http/guards.ts";
import type { SignedInState } from "@/lib/platform/state.ts";
import { type SignInMethod, signInMethods } from "@/lib/auth/sign_in_methods.ts";
import { type ProviderId, ProviderIdSchema } from "@/lib/auth/oauth/providers.ts";
import { freshSignIn } from "@/lib/auth/sessions.ts";
import { Notice } from "@/components/forms.tsx";
import { SECONDARY_BUTTON } from "@/lib/browser/styles.ts";
import { parseProfileUpdate, PROFILE_LIMITS, updateProfile } from "@/lib/users/profile.ts";
import { nationalNumber } from "@/lib/users/phone.ts";
import { withScheme } from "@/lib/browser/input_formats.ts";
import { InvalidInputError } from "@/lib/errors.ts";
import { formFields, readForm, seeOther } from "@/lib/http/form_posts.ts";
import type { FieldTexts } from "@/lib/browser/auth_forms.ts";
import type { User } from "@/lib/users/users.ts";
import AccountDataControls, { ACCOUNT_DATA_TEXT } from "@/islands/AccountDataControls.tsx";
import PhoneNotifications, { PHONE_NOTIFICATIONS_TEXT } from "@/islands/PhoneNotifications.tsx";
import type { RouteOptions } from "@/lib/platform/route_options.ts";
import { ResumeSection } from "@/components/applications/ResumeSection.tsx";
import { getResume, type Resume } from "@/lib/resumes/resumes.ts";
import { isResumeOutcome } from "@/lib/browser/application_format.ts";

/** Writes fall under the per-person limit `profile` (docs/decisions.md, Errors and limits, "Per-person limits"). */
export const routeOptions: RouteOptions = { personLimit: "profile" };

const OPTIONS: ProfileOptions = {
  limits: PROFILE_LIMITS,
  fieldInterests: [...DOMAIN_PREFERENCES],
  opportunityInterests: [...OPPORTUNITY_INTERESTS],
};

function valuesOf(user: User): ProfileValues {
  return {
    name: user.name,
    image: user.image ?? "",
    fieldInterests: user.fieldInterests,
    opportunityInterests: user.opportunityInterests,
    dateOfBirth: user.dateOfBirth ?? "",
    collegeInstitute: user.collegeInstitute ?? "",
    contactNumber: user.contactNumber ?? "",
    currentRole: user.currentRole ?? "",
  };
}

interface Data {
  /** Names of the user's sign-in methods, e.g. "E-mail and password", "Google". */
  methods: string[];
  /** The connected providers (social accounts), with the names the page shows. */
  connected: { id: ProviderId; name: string }[];
  /** Whether the account has a password (deleting it then asks for the password). */
  hasPassword: boolean;
  /** The stored resume, or null (docs/decisions.md, Applications, "Resumes"). */
  resume: Resume | null;
  /** What a refused plain HTML submit typed, with the problems at their fields. */
  refused?: { values: ProfileValues; errors: FieldTexts<keyof ProfileValues> };
}

const TEXT_FIELDS = ["name", "image", "dateOfBirth", "collegeInstitute", "contactNumber", "currentRole"] as const;

/** The profile form's fields as a plain HTML submit sends them. */
function postedValues(form: FormData): ProfileValues {
  const lists = (name: string) => form.getAll(name).filter((v): v is string => typeof v === "string");
  return {
    ...formFields(form, TEXT_FIELDS),
    fieldInterests: lists("fieldInterests"),
    opportunityInterests: lists("opportunityInterests"),
  };
}

export const handler = define.handlers<Data>({
  async GET(_req, ctx) {
    assertSignedIn(ctx.state);
    return ctx.render(await methodsOf(ctx.state));
  },
  async POST(req, ctx) {
    assertSignedIn(ctx.state);
    const values = postedValues(await readForm(req));
    try {
      const update = parseProfileUpdate({
        ...values,
        image: withScheme(values.image),
        contactNumber: nationalNumber(values.contactNumber),
      }, ctx.state.services.config.appUrl);
      await updateProfile(ctx.state.services.kv, ctx.state.user.id, update);
      return seeOther("/profile?saved=1");
    } catch (error) {
      if (!(error instanceof InvalidInputError)) throw error;
      const errors = Object.fromEntries(
        error.fields.map((problem) => [problem.field, fieldText(ctx.state.t, problem)]),
      );
      return ctx.render({ ...await methodsOf(ctx.state), refused: { values, errors } }, { status: 400 });
    }
  },
});

/** The account's sign-in methods as the page names them, its connected providers, and the stored resume. */
async function methodsOf(
  state: SignedInState,
): Promise<Pick<Data, "methods" | "connected" | "hasPassword" | "resume">> {
  const { kv, oauth } = state.services;
  const nameOf = (method: SignInMethod) =>
    method === "email" ? state.t("profile.page.emailMethod") : oauth.providers[method].name;
  const [methods, resume] = await Promise.all([signInMethods(kv, state.user.id), getResume(kv, state.user.id)]);
  const connected = methods.filter((method): method is ProviderId => method !== "email")
    .map((id) => ({ id, name: oauth.providers[id].name }));
  return { methods: methods.map(nameOf), connected, hasPassword: methods.includes("email"), resume };
}

export default define.page<Data>(function ProfilePage({ state, data, url }) {
  const user = state.user!;
  const pushKey = state.services.push?.publicKey;
  const resumeOutcome = url.searchParams.get("resume");
  const removedProvider = ProviderIdSchema.safeParse(url.searchParams.get("removedProvider"));
  const removedName = removedProvider.success ? state.services.oauth.providers[removedProvider.data].name : null;
  const t = useT();
  return (
    <section aria-labelledby="page-title" class="mx-auto w-full max-w-3xl">
      <PageHead title={t("profile.page.title")} />
      <h1 id="page-title" class="text-3xl font-bold tracking-tight text-slate-900">{t("profile.page.title")}</h1>
      <p class="mt-2 text-slate-700">{t("profile.page.lead")}</p>
      <div class="mt-6 rounded-lg border border-slate-200 bg-white p-6 shadow-sm sm:p-8">
        <ProfileForm
          initial={data.refused?.values ?? valuesOf(user)}
          email={user.email}
          options={OPTIONS}
          errors={data.refused?.errors}
          saved={!data.refused && url.searchParams.get("saved") === "1"}
          text={t.island(PROFILE_FORM_TEXT)}
        />
      </div>
      <p class="mt-4 text-sm text-slate-700">
        <a href="/onboarding" class="font-medium text-indigo-700 underline">{t("profile.page.onboarding")}</a>
      </p>
      <ResumeSection resume={data.resume} outcome={isResumeOutcome(resumeOutcome) ? resumeOutcome : null} />
      <section aria-labelledby="sign-in-methods" class="mt-8">
        <h2 id="sign-in-methods" class="text-lg font-semibold text-slate-900">{t("profile.page.methods")}</h2>
        {data.methods.length === 0
          ? <p class="mt-2 text-sm text-slate-700">{t("profile.page.noMethods")}</p>
          : (
            <ul class="mt-2 list-inside list-disc text-sm text-slate-700">
              {data.methods.map((method) => <li key={method}>{method}</li>)}
            </ul>
          )}
      </section>
      <ConnectedAccounts
        connected={data.connected}
        onlyWay={!data.hasPassword && data.connected.length === 1}
        removed={removedName}
      />
      {pushKey && (
        <section aria-labelledby="phone-notifications" class="mt-8">
          <h2 id="phone-notifications" class="text-lg font-semibold text-slate-900">{t("profile.page.phone")}</h2>
          <p class="mt-2 text-sm text-slate-700">
            {t.rich("profile.page.phoneText", {
              link: (chunks) => <a href="/me/settings" class="font-medium text-indigo-700 underline">{chunks}</a>,
            })}
          </p>
          <PhoneNotifications publicKey={pushKey} text={t.island(PHONE_NOTIFICATIONS_TEXT)} />
        </section>
      )}
      <section aria-labelledby="sessions" class="mt-8">
        <h2 id="sessions" class="text-lg font-semibold text-slate-900">{t("profile.page.sessions")}</h2>
        {url.searchParams.get("signedOutOthers") === "1" && (
          <div class="mt-2">
            <Notice kind="success">{t("profile.page.signedOutOthers")}</Notice>
          </div>
        )}
        <p class="mt-2 text-sm text-slate-700">{t("profile.page.sessionsText")}</p>
        <form method="post" action="/profile/sign-out-others" class="mt-3">
          <button type="submit" class={SECONDARY_BUTTON}>{t("profile.page.signOutOthers")}</button>
        </form>
      </section>
      <section aria-labelledby="your-data" class="mt-8">
        <h2 id="your-data" class="text-lg font-semibold text-slate-900">{t("profile.page.data")}</h2>
        <p class="mt-2 text-sm text-slate-700">
          {t.rich("profile.page.dataText", {
            link: (chunks) => <a href="/privacy" class="font-medium text-indigo-700 underline">{chunks}</a>,
          })}
        </p>
        <AccountDataControls
          hasPassword={data.hasPassword}
          signInFirst={!data.hasPassword && !freshSignIn(state.session!)}
          text={t.island(ACCOUNT_DATA_TEXT)}
        />
      </section>
    </section>
  );
});

/**
 * "Connected accounts": each connected provider with its "Remove" form, except the only way left to sign in
 * (`onlyWay`), which says why it stays; `removed` names the provider just removed, for the notice.
 */
function ConnectedAccounts(
  { connected, onlyWay, removed }: { connected: Data["connected"]; onlyWay: boolean; removed: string | null },
) {
  const t = useT();
  if (connected.length === 0 && !removed) return null;
  return (
    <section aria-labelledby="connected-accounts" class="mt-8">
      <h2 id="connected-accounts" class="text-lg font-semibold text-slate-900">{t("profile.page.connected")}</h2>
      {removed && (
        <div class="mt-2">
          <Notice kind="success">{t("profile.page.providerRemoved", { provider: removed })}</Notice>
        </div>
      )}
      {connected.length > 0 && <p class="mt-2 text-sm text-slate-700">{t("profile.page.connectedText")}</p>}
      <ul class="mt-3 space-y-2">
        {connected.map((provider) => (
          <li key={provider.id} class="flex flex-wrap items-center gap-3 text-sm text-slate-700">
            <span class="font-medium text-slate-900">{provider.name}</span>
            {onlyWay
              ? (
                <span>
                  {t.rich("profile.page.onlyWay", {
                    link: (chunks) => (
                      <a href="/forgot-password" class="font-medium text-indigo-700 underline">{chunks}</a>
                    ),
                  })}
                </span>
              )
              : (
                <form method="post" action="/profile/remove-provider">
                  <input type="hidden" name="provider" value={provider.id} />
                  <button
                    type="submit"
                    class={SECONDARY_BUTTON}
                    aria-label={t("profile.page.removeProviderLabel", { provider: provider.name })}
                  >
                    {t("profile.page.removeProvider")}
                  </button>
                </form>
              )}
          </li>
        ))}
      </ul>
    </section>
  );
}
