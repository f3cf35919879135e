/**
 * `/sign-in?callbackURL=&error=`: "Continue with Google / LinkedIn" for the configured providers
 * (a new social user goes on to `/onboarding`, a returning one to `callbackURL`) and the e-mail
 * sign-in form. `callbackURL` is kept only when it is a path on this origin (no open redirects);
 * onboarding and "Create an account" carry it along, so the page a person came from survives
 * every way in (docs/decisions.md, Auth). `error` carries a code from a failed verification link
 * (`INVALID_TOKEN`) or a social sign-in (`lib/auth/oauth/flow.ts`); only known codes are
 * explained, the text is never echoed. A signed-in user goes straight on to `callbackURL` or `/`.
 *
 * `POST /sign-in` is the form without JavaScript (docs/decisions.md, Auth): the fields `email`,
 * `password`, `rememberMe` and `callbackURL`, the auth origin rule and limits, the same sign-in
 * flow as `POST /api/auth/sign-in/email`; success is 303 to onboarding (when due, carrying
 * `callbackURL`) or `callbackURL` with the session cookie, a refusal renders the page again with
 * its sentence (400, 401, 403 for an unverified e-mail, whose link was sent again, 429).
 */
import { define } from "@/lib/platform/define.ts";
import { AuthError, RateLimitedError } from "@/lib/errors.ts";
import { FormCard } from "@/components/FormCard.tsx";
import { Notice } from "@/components/forms.tsx";
import { PageHead } from "@/components/PageHead.tsx";
import { type SocialButtonProvider, SocialSignInButtons } from "@/components/SocialSignInButtons.tsx";
import SignInForm, { type SignInOutcome } from "@/islands/SignInForm.tsx";
import { providerChoices } from "@/lib/auth/oauth/providers.ts";
import { SignInFields, signInSubject, signInWithPassword } from "@/lib/auth/password_flows.ts";
import { needsOnboarding } from "@/lib/onboarding/onboarding.ts";
import { returnPage } from "@/lib/auth/redirects.ts";
import { assertLoginOrigin } from "@/lib/http/csrf.ts";
import { readSessionCookie, sessionCookie } from "@/lib/http/cookies.ts";
import { rateLimitText, readFormFields, seeOther } from "@/lib/http/form_posts.ts";
import { RATE_LIMITS } from "@/lib/platform/rate_limits.ts";
import { AUTH_TEXT, authCodeProblem, signInProblems } from "@/lib/browser/auth_forms.ts";
import { onboardingPath, withReturnPage } from "@/lib/browser/same_origin.ts";

const ERRORS: Record<string, { title: string; text: string }> = {
  INVALID_TOKEN: {
    title: "This verification link has expired or was already used",
    text: "Sign in with your e-mail and password: if your e-mail is not verified yet, we will send you a new link.",
  },
  ACCOUNT_NOT_LINKED: {
    title: "We could not link that account",
    text:
      "An account with this e-mail already exists, and the provider has not confirmed that the address is yours. Sign in with your e-mail and password instead.",
  },
  INVALID_STATE: {
    title: "That sign-in expired or was started elsewhere",
    text:
      "A sign-in with Google or LinkedIn must finish within 10 minutes, in the browser where it started. Please start again below.",
  },
  ACCESS_DENIED: {
    title: "Sign-in cancelled",
    text: "You did not allow access to your account, so we could not sign you in. Try again, or use your e-mail.",
  },
  OAUTH_FAILED: {
    title: "The provider did not complete the sign-in",
    text: "Please try again. If it keeps failing, sign in with your e-mail and password.",
  },
  PROVIDER_UNAVAILABLE: {
    title: "We could not reach the sign-in service",
    text: "Google or LinkedIn did not answer in time. Please try again in a minute, or use your e-mail.",
  },
  EMAIL_NOT_FOUND: {
    title: "We need your e-mail address",
    text: "Your account did not share an e-mail address with us. Allow access to it and try again, or use your e-mail.",
  },
  PROVIDER_NOT_CONFIGURED: {
    title: "That sign-in option is not available",
    text: "Sign in with your e-mail and password instead.",
  },
  PROVIDER_NOT_FOUND: {
    title: "That sign-in option is not available",
    text: "Sign in with your e-mail and password instead.",
  },
};

const SOCIAL_FAILED = {
  title: "Sign-in did not complete",
  text: "The sign-in with your social account was cancelled or failed. Please try again.",
};

interface Data {
  callbackURL: string | null;
  providers: SocialButtonProvider[];
  /** What a failed plain HTML submit left. */
  outcome?: SignInOutcome;
}

const FIELDS = ["email", "password", "rememberMe", "callbackURL"] as const;

export const handler = define.handlers<Data>({
  GET(_req, ctx) {
    const callbackURL = returnPage(ctx.url.searchParams.get("callbackURL"), ctx.state.services.config.appUrl);
    if (ctx.state.user) return new Response(null, { status: 302, headers: { location: callbackURL ?? "/" } });
    const providers = providerChoices(ctx.state.services.oauth);
    return ctx.render({ callbackURL, providers });
  },
  async POST(req, ctx) {
    const services = ctx.state.services;
    const { kv, config } = services;
    assertLoginOrigin(req, config.appUrl);
    const form = await readFormFields(req, FIELDS);
    const callbackURL = returnPage(form.callbackURL || null, config.appUrl);
    const rememberMe = form.rememberMe !== "";
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
      if (!fields.success) errors.email ??= AUTH_TEXT.email;
      if (!fields.success || Object.keys(errors).length > 0) return again(400, { errors });
      const previous = readSessionCookie(req, config.secure);
      await services.rateLimits.hit(
        RATE_LIMITS.signInPerEmailAndIp,
        signInSubject(fields.data.email, ctx.state.clientIp),
      );
      const { user, token } = await signInWithPassword(services, {
        input: fields.data,
        verifyTarget: onboardingPath(callbackURL),
        previousCookie: previous,
      });
      const next = await needsOnboarding(kv, user) ? onboardingPath(callbackURL) : callbackURL ?? "/";
      return seeOther(next, { "set-cookie": sessionCookie(config.secure, token, rememberMe) });
    } catch (error) {
      if (error instanceof RateLimitedError) return again(429, { errors: {}, formError: rateLimitText(error) });
      if (!(error instanceof AuthError)) throw error;
      if (error.code === "EMAIL_NOT_VERIFIED") return again(403, { errors: {}, code: error.code });
      return again(401, { errors: {}, formError: authCodeProblem(error.code)?.message ?? error.message });
    }
  },
});

export default define.page<Data>(function SignInPage({ data, url }) {
  const code = url.searchParams.get("error");
  const error = code ? Object.hasOwn(ERRORS, code) ? ERRORS[code] : SOCIAL_FAILED : undefined;
  return (
    <FormCard title="Sign in">
      <PageHead title="Sign in" />
      {error && <Notice kind="error" title={error.title}>{error.text}</Notice>}
      <SocialSignInButtons
        providers={data.providers}
        callbackURL={data.callbackURL ?? "/"}
        newUserCallbackURL={onboardingPath(data.callbackURL)}
      />
      <SignInForm callbackURL={data.callbackURL} outcome={data.outcome} />
      <p class="text-sm text-slate-700">
        New here?{" "}
        <a href={withReturnPage("/sign-up", data.callbackURL)} class="font-medium text-indigo-700 underline">
          Create an account
        </a>
      </p>
    </FormCard>
  );
});
