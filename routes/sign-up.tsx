/**
 * `/sign-up?callbackURL=`: "Continue with Google / LinkedIn" for the configured providers (a new
 * user goes on to `/onboarding`, one who already has an account to `callbackURL`) and the e-mail
 * and password sign-up form, whose verification link opens onboarding. Onboarding then goes on to
 * `callbackURL` (a same-origin path, else dropped), so the page a person came from survives
 * signing up (docs/decisions.md, Auth). A signed-in user is sent to `callbackURL` or home.
 */
import { define } from "@/lib/platform/define.ts";
import { FormCard } from "@/components/FormCard.tsx";
import { PageHead } from "@/components/PageHead.tsx";
import { type SocialButtonProvider, SocialSignInButtons } from "@/components/SocialSignInButtons.tsx";
import SignUpForm from "@/islands/SignUpForm.tsx";
import { configuredProviders } from "@/lib/auth/oauth/providers.ts";
import { returnPage } from "@/lib/http/redirects.ts";
import { onboardingPath, withReturnPage } from "@/lib/browser/same_origin.ts";

interface Data {
  callbackURL: string | null;
  providers: SocialButtonProvider[];
}

export const handler = define.handlers<Data>({
  GET(_req, ctx) {
    const callbackURL = returnPage(ctx.url.searchParams.get("callbackURL"), ctx.state.services.config.appUrl);
    if (ctx.state.user) return new Response(null, { status: 302, headers: { location: callbackURL ?? "/" } });
    return ctx.render({
      callbackURL,
      providers: configuredProviders(ctx.state.services.oauth).map(({ id, name }) => ({ id, name })),
    });
  },
});

export default define.page<Data>(function SignUpPage({ data }) {
  return (
    <FormCard title="Create your account" lead="Join to find internships, hackathons, grants and toolkits.">
      <PageHead title="Create your account" />
      <SocialSignInButtons
        providers={data.providers}
        callbackURL={data.callbackURL ?? "/"}
        newUserCallbackURL={onboardingPath(data.callbackURL)}
      />
      <SignUpForm callbackURL={data.callbackURL} />
      <p class="text-sm text-slate-700">
        Already have an account?{" "}
        <a href={withReturnPage("/sign-in", data.callbackURL)} class="font-medium text-indigo-700 underline">
          Sign in
        </a>
      </p>
    </FormCard>
  );
});
