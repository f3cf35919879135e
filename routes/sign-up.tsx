/**
 * `/sign-up`: "Continue with Google / LinkedIn" for the configured providers (a new user goes on
 * to `/onboarding`, one who already has an account home) and the e-mail and password sign-up
 * form; a signed-in user is sent home.
 */
import { define } from "@/lib/platform/define.ts";
import { FormCard } from "@/components/FormCard.tsx";
import { PageTitle } from "@/components/PageTitle.tsx";
import { type SocialButtonProvider, SocialSignInButtons } from "@/components/SocialSignInButtons.tsx";
import SignUpForm from "@/islands/SignUpForm.tsx";
import { configuredProviders } from "@/lib/auth/oauth/providers.ts";

interface Data {
  providers: SocialButtonProvider[];
}

export const handler = define.handlers<Data>({
  GET(_req, ctx) {
    if (ctx.state.user) return new Response(null, { status: 302, headers: { location: "/" } });
    return ctx.render({
      providers: configuredProviders(ctx.state.services.oauth).map(({ id, name }) => ({ id, name })),
    });
  },
});

export default define.page<Data>(function SignUpPage({ data }) {
  return (
    <FormCard title="Create your account" lead="Join to find internships, hackathons, grants and toolkits.">
      <PageTitle title="Create your account" />
      <SocialSignInButtons providers={data.providers} callbackURL="/" newUserCallbackURL="/onboarding" />
      <SignUpForm />
      <p class="text-sm text-slate-700">
        Already have an account? <a href="/sign-in" class="font-medium text-indigo-700 underline">Sign in</a>
      </p>
    </FormCard>
  );
});
