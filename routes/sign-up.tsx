/** `/sign-up`: the e-mail and password sign-up form; a signed-in user is sent home. */
import { FormCard } from "../components/FormCard.tsx";
import { PageTitle } from "../components/PageTitle.tsx";
import SignUpForm from "../islands/SignUpForm.tsx";
import type { AppState } from "../lib/platform/state.ts";
import type { Handlers } from "../lib/web/types.ts";

export const handler: Handlers<unknown, AppState> = {
  GET(_req, ctx) {
    if (ctx.state.user) return new Response(null, { status: 302, headers: { location: "/" } });
    return ctx.render();
  },
};

export default function SignUpPage() {
  return (
    <FormCard title="Create your account" lead="Join to find internships, hackathons, grants and toolkits.">
      <PageTitle title="Create your account" />
      <SignUpForm />
      <p class="text-sm text-slate-700">
        Already have an account? <a href="/sign-in" class="font-medium text-indigo-700 underline">Sign in</a>
      </p>
    </FormCard>
  );
}
