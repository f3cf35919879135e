/**
 * `/sign-in?callbackURL=&error=&verified=&email=`: "Continue with Google / LinkedIn" for the configured providers
 * (a new social user goes on to `/onboarding`, a returning one to `callbackURL`) and the e-mail
 * sign-in form. `callbackURL` is kept only when it is a path on this origin (no open redirects);
 * onboarding and "Create an account" carry it along, so the page a person came from survives
 * every way in (docs/decisions.md, Auth). `error` carries a code from a failed verification link
 * (`INVALID_TOKEN`) or a social sign-in (`lib/auth/oauth/flow.ts`); only known codes are
 * explained, the text is never echoed. `verified=1` says a verification link verified the address without signing
 * this browser in (it did not ask for the link); `email`, when it is an e-mail address, fills in the form's address (the
 * confirm page sends it on, so the person types only their password). A signed-in user goes straight on to
 * `callbackURL` or `/`.
 *
 * `POST /sign-in` is the form without JavaScript (docs/decisions.md, Auth): the fields `email`,
 * `password`, `rememberMe` and `callbackURL`, the auth origin rule and limits, the same sign-in
 * flow as `POST /api/auth/sign-in/email`; success is 303 to onboarding (when due, carrying
 * `callbackURL`) or `callbackURL` with the session cookie, a refusal renders the page again with
 * its sentence (400, 401, 403 for an unverified e-mail, whose link was sent again, 403 for a suspended account, 429).
 * `error=ACCOUNT_SUSPENDED` (a social sign-in or a verification link of a suspended account), that 403, and the page
 * shown to a browser whose session ended because its person was suspended (`ctx.state.suspended`) say the account is
 * suspended and link to `/contact` to appeal (docs/decisions.md, Admin, "Suspension"). That browser is told once: the
 * page deletes the session and answers as signing out does (`signedOutHeaders`).
 */
import { define } from "@/lib/platform/define.ts";
import { AuthError, RateLimitedError } from "@/lib/errors.ts";
import { FormCard } from "@/components/FormCard.tsx";
import { Notice } from "@/components/forms.tsx";
import { PageHead } from "@/components/PageHead.tsx";
import { type SocialButtonProvider, SocialSignInButtons } from "@/components/SocialSignInButtons.tsx";
import SignInForm, { SIGN_IN_TEXT, type SignInOutcome } from "@/islands/SignInForm.tsx";
import { SuspendedNotice } from "@/components/SuspendedNotice.tsx";
import { providerChoices } from "@/lib/auth/oauth/providers.ts";
import { SignInFields } from "@/lib/auth/password_flows.ts";
import { EmailField } from "@/lib/auth/input.ts";
import { needsOnboarding } from "@/lib/onboarding/onboarding.ts";
import { returnPage } from "@/lib/auth/redirects.ts";
import { passwordSignIn } from "@/lib/http/password_sign_in.ts";
import { readFormFields, seeOther } from "@/lib/http/form_posts.ts";
import { readSessionCookie, signedOutHeaders } from "@/lib/http/cookies.ts";
import { deleteSession } from "@/lib/auth/sessions.ts";
import { RATE_LIMITS } from "@/lib/platform/rate_limits.ts";
import { authCodeProblem, authText, authTexts, signInProblems, tooManyText } from "@/lib/browser/auth_forms.ts";
import { useT } from "@/lib/i18n/context.ts";
import { onboardingPath, withReturnPage } from "@/lib/browser/same_origin.ts";
import type { RouteOptions } from "@/lib/platform/route_options.ts";

/** An auth write: the login-CSRF rule applies before anything else runs (docs/decisions.md, Security). */
export const routeOptions: RouteOptions = { originCheck: "login" };

/** The sign-in error codes a page explains, each by its catalogue messages (`auth.signInCode.<name>.*`). */
const ERRORS: Record<string, string> = {
  INVALID_TOKEN: "INVALID_TOKEN",
  ACCOUNT_NOT_LINKED: "ACCOUNT_NOT_LINKED",
  INVALID_STATE: "INVALID_STATE",
  ACCESS_DENIED: "ACCESS_DENIED",
  OAUTH_FAILED: "OAUTH_FAILED",
  PROVIDER_UNAVAILABLE: "PROVIDER_UNAVAILABLE",
  EMAIL_NOT_FOUND: "EMAIL_NOT_FOUND",
  PROVIDER_NOT_CONFIGURED: "UNAVAILABLE",
  PROVIDER_NOT_FOUND: "UNAVAILABLE",
};

/** The explanation of any other code. */
const SOCIAL_FAILED = "FAILED";

interface Data {
  callbackURL: string | null;
  /** The address `?email=` fills in, when it is one. */
  email?: string;
  providers: SocialButtonProvider[];
  /** Whether the browser's session ended because its person was suspended (`ctx.state.suspended`). */
  suspended?: boolean;
  /** What a failed plain HTML submit left. */
  outcome?: SignInOutcome;
}

const FIELDS = ["email", "password", "rememberMe", "callbackURL"] as const;

export const handler = define.handlers<Data>({
  async GET(req, ctx) {
    const { kv, config, oauth } = ctx.state.services;
    const callbackURL = returnPage(ctx.url.searchParams.get("callbackURL"), config.appUrl);
    if (ctx.state.user) return new Response(null, { status: 302, headers: { location: callbackURL ?? "/" } });
    const email = EmailField.safeParse(ctx.url.searchParams.get("email"));
    const data = { callbackURL, providers: providerChoices(oauth), email: email.success ? email.data : undefined };
    if (!ctx.state.suspended) return ctx.render(data);
    // Told once: the session and what this browser kept of the person go, so the next person on a shared phone is
    // not told of the suspension.
    const token = readSessionCookie(req, config.secure);
    if (token) await deleteSession(kv, token);
    return ctx.render({ ...data, suspended: true }, { headers: signedOutHeaders(config.secure) });
  },
  async POST(req, ctx) {
    const services = ctx.state.services;
    const { kv, config } = services;
    const form = await readFormFields(req, FIELDS);
    const callbackURL = returnPage(form.callbackURL || null, config.appUrl);
    const rememberMe = form.rememberMe !== "";
    const { t } = ctx.state;
    const again = (status: number, outcome: Omit<SignInOutcome, "values" | "rememberMe">) =>
      ctx.render({
        callbackURL,
        providers: providerChoices(services.oauth),
        outcome: { values: { email: form.email }, rememberMe, ...outcome },
      }, { status });
    try {
      await services.rateLimits.hit(RATE_LIMITS.signInPerIp, ctx.state.clientIp);
      const errors = signInProblems(form);
      const fields = SignInFields.safeParse(form);
      if (!fields.success) errors.email ??= "auth.problem.email";
      if (!fields.success || Object.keys(errors).length > 0) return again(400, { errors: authTexts(t, errors) });
      const { user, cookies } = await passwordSignIn(services, req, {
        clientIp: ctx.state.clientIp,
        input: fields.data,
        verifyTarget: onboardingPath(callbackURL),
        persistent: rememberMe,
        language: ctx.state.lang,
      });
      const next = await needsOnboarding(kv, user) ? onboardingPath(callbackURL) : callbackURL ?? "/";
      return seeOther(next, cookies);
    } catch (error) {
      if (error instanceof RateLimitedError) {
        return again(429, { errors: {}, formError: tooManyText(t, error.retryAfterSeconds) });
      }
      if (!(error instanceof AuthError)) throw error;
      if (error.code === "EMAIL_NOT_VERIFIED" || error.code === "ACCOUNT_SUSPENDED") {
        return again(403, { errors: {}, code: error.code });
      }
      const problem = authCodeProblem(error.code);
      return again(401, { errors: {}, formError: problem ? authText(t, problem.key) : error.message });
    }
  },
});

export default define.page<Data>(function SignInPage({ data, url }) {
  const t = useT();
  const code = url.searchParams.get("error");
  const suspended = code === "ACCOUNT_SUSPENDED" || data.suspended === true;
  const error = code && !suspended ? Object.hasOwn(ERRORS, code) ? ERRORS[code] : SOCIAL_FAILED : undefined;
  return (
    <FormCard title={t("auth.signIn.title")}>
      <PageHead title={t("auth.signIn.title")} />
      {error && (
        <Notice kind="error" title={t.dynamic(`auth.signInCode.${error}.title`)}>
          {t.dynamic(`auth.signInCode.${error}.text`)}
        </Notice>
      )}
      {suspended && <SuspendedNotice />}
      {!error && !suspended && url.searchParams.get("verified") === "1" && (
        <Notice kind="success" title={t("auth.signIn.verifiedTitle")}>{t("auth.signIn.verifiedText")}</Notice>
      )}
      <SocialSignInButtons
        providers={data.providers}
        callbackURL={data.callbackURL ?? "/"}
        newUserCallbackURL={onboardingPath(data.callbackURL)}
      />
      <SignInForm
        callbackURL={data.callbackURL}
        email={data.email}
        outcome={data.outcome}
        text={t.island(SIGN_IN_TEXT)}
      />
      <p class="text-sm text-slate-700">
        {t.rich("auth.signIn.newHere", {
          link: (chunks) => (
            <a href={withReturnPage("/sign-up", data.callbackURL)} class="font-medium text-indigo-700 underline">
              {chunks}
            </a>
          ),
        })}
      </p>
    </FormCard>
  );
});
