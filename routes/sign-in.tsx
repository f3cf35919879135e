/**
 * `/sign-in?callbackURL=&error=`: "Continue with Google / LinkedIn" for the configured providers
 * (a new social user goes on to `/onboarding`, a returning one to `callbackURL`) and the e-mail
 * sign-in form. `callbackURL` is kept only when it is a path on this origin (no open redirects);
 * onboarding and "Create an account" carry it along, so the page a person came from survives
 * every way in (docs/decisions.md, Auth). `error` carries a code from a failed verification link
 * (`INVALID_TOKEN`) or a social sign-in (`lib/auth/oauth/flow.ts`); only known codes are
 * explained, the text is never echoed. A signed-in user goes straight on to `callbackURL` or `/`.
 */
import { define } from "@/lib/platform/define.ts";
import { FormCard } from "@/components/FormCard.tsx";
import { Notice } from "@/components/forms.tsx";
import { PageHead } from "@/components/PageHead.tsx";
import { type SocialButtonProvider, SocialSignInButtons } from "@/components/SocialSignInButtons.tsx";
import SignInForm from "@/islands/SignInForm.tsx";
import { configuredProviders } from "@/lib/auth/oauth/providers.ts";
import { returnPage } from "@/lib/http/redirects.ts";
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
}

export const handler = define.handlers<Data>({
  GET(_req, ctx) {
    const callbackURL = returnPage(ctx.url.searchParams.get("callbackURL"), ctx.state.services.config.appUrl);
    if (ctx.state.user) return new Response(null, { status: 302, headers: { location: callbackURL ?? "/" } });
    const providers = configuredProviders(ctx.state.services.oauth).map(({ id, name }) => ({ id, name }));
    return ctx.render({ callbackURL, providers });
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
      <SignInForm callbackURL={data.callbackURL} />
      <p class="text-sm text-slate-700">
        New here?{" "}
        <a href={withReturnPage("/sign-up", data.callbackURL)} class="font-medium text-indigo-700 underline">
          Create an account
        </a>
      </p>
    </FormCard>
  );
});
