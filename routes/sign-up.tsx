/**
 * `/sign-up?callbackURL=`: "Continue with Google / LinkedIn" for the configured providers (a new
 * user goes on to `/onboarding`, one who already has an account to `callbackURL`) and the e-mail
 * and password sign-up form, whose verification link opens onboarding. Onboarding then goes on to
 * `callbackURL` (a same-origin path, else dropped), so the page a person came from survives
 * signing up (docs/decisions.md, Auth). A signed-in user is sent to `callbackURL` or home.
 *
 * `POST /sign-up` is the form without JavaScript: the fields `name`, `email`, `password` and
 * `callbackURL`, the auth origin rule and the sign-up limit, the same flow as
 * `POST /api/auth/sign-up/email`; success is 303 to `/check-inbox`, a refusal renders the page
 * again with its sentences (400, 422 for a taken e-mail, 429).
 */
import { define } from "@/lib/platform/define.ts";
import { AuthError, RateLimitedError } from "@/lib/errors.ts";
import { FormCard } from "@/components/FormCard.tsx";
import { PageHead } from "@/components/PageHead.tsx";
import { type SocialButtonProvider, SocialSignInButtons } from "@/components/SocialSignInButtons.tsx";
import SignUpForm, { SIGN_UP_TEXT } from "@/islands/SignUpForm.tsx";
import { providerChoices } from "@/lib/auth/oauth/providers.ts";
import { SignUpFields, signUpWithPassword } from "@/lib/auth/password_flows.ts";
import { returnPage } from "@/lib/auth/redirects.ts";
import { readFormFields, seeOther } from "@/lib/http/form_posts.ts";
import { askingBrowserBinding } from "@/lib/http/cookies.ts";
import { RATE_LIMITS } from "@/lib/platform/rate_limits.ts";
import {
  authCodeProblem,
  authText,
  authTexts,
  type FormOutcome,
  signUpProblems,
  tooManyText,
} from "@/lib/browser/auth_forms.ts";
import { useT } from "@/lib/i18n/context.ts";
import { onboardingPath, withReturnPage } from "@/lib/browser/same_origin.ts";
import type { RouteOptions } from "@/lib/platform/route_options.ts";

/** An auth write: the login-CSRF rule applies before anything else runs (docs/decisions.md, Security). */
export const routeOptions: RouteOptions = { originCheck: "login" };

interface Data {
  callbackURL: string | null;
  providers: SocialButtonProvider[];
  /** What a failed plain HTML submit left. */
  outcome?: FormOutcome<"name" | "email" | "password">;
}

const FIELDS = ["name", "email", "password", "callbackURL"] as const;

export const handler = define.handlers<Data>({
  GET(_req, ctx) {
    const callbackURL = returnPage(ctx.url.searchParams.get("callbackURL"), ctx.state.services.config.appUrl);
    if (ctx.state.user) return new Response(null, { status: 302, headers: { location: callbackURL ?? "/" } });
    return ctx.render({
      callbackURL,
      providers: providerChoices(ctx.state.services.oauth),
    });
  },
  async POST(req, ctx) {
    const services = ctx.state.services;
    const { config } = services;
    const form = await readFormFields(req, FIELDS);
    const callbackURL = returnPage(form.callbackURL || null, config.appUrl);
    const { t } = ctx.state;
    const again = (status: number, outcome: Omit<NonNullable<Data["outcome"]>, "values">) =>
      ctx.render({
        callbackURL,
        providers: providerChoices(services.oauth),
        outcome: { values: { name: form.name, email: form.email }, ...outcome },
      }, { status });
    try {
      await services.rateLimits.hit(RATE_LIMITS.signUpPerIp, ctx.state.clientIp);
      const errors = signUpProblems(form);
      const fields = SignUpFields.safeParse(form);
      if (!fields.success) {
        for (const issue of fields.error.issues) {
          if (issue.path[0] === "name") errors.name ??= "auth.problem.name";
          if (issue.path[0] === "email") errors.email ??= "auth.problem.email";
        }
      }
      if (!fields.success || Object.keys(errors).length > 0) return again(400, { errors: authTexts(t, errors) });
      const { binding, setCookie } = askingBrowserBinding(req, config.secure);
      await signUpWithPassword(
        services,
        { ...fields.data, language: ctx.state.lang },
        { verifyTarget: () => onboardingPath(callbackURL), binding },
      );
      const inbox = new URLSearchParams({ email: fields.data.email });
      if (callbackURL !== null && callbackURL !== "/") inbox.set("callbackURL", callbackURL);
      return seeOther(`/check-inbox?${inbox}`, {
        "set-cookie": setCookie,
      });
    } catch (error) {
      if (error instanceof RateLimitedError) {
        return again(429, { errors: {}, formError: tooManyText(t, error.retryAfterSeconds) });
      }
      if (!(error instanceof AuthError)) throw error;
      const problem = authCodeProblem(error.code);
      const status = error.code === "USER_ALREADY_EXISTS" ? 422 : 400;
      const message = problem ? authText(t, problem.key) : error.message;
      if (problem?.field) return again(status, { errors: { [problem.field]: message }, code: error.code });
      return again(status, { errors: {}, formError: message });
    }
  },
});

export default define.page<Data>(function SignUpPage({ data }) {
  const t = useT();
  return (
    <FormCard title={t("auth.signUp.title")} lead={t("auth.signUp.lead")}>
      <PageHead title={t("auth.signUp.title")} />
      <SocialSignInButtons
        providers={data.providers}
        callbackURL={data.callbackURL ?? "/"}
        newUserCallbackURL={onboardingPath(data.callbackURL)}
      />
      <SignUpForm callbackURL={data.callbackURL} outcome={data.outcome} text={t.island(SIGN_UP_TEXT)} />
      <p class="text-sm text-slate-700">
        {t.rich("auth.signUp.agree", {
          terms: (chunks) => <a href="/terms" class="text-indigo-700 underline">{chunks}</a>,
          privacy: (chunks) => <a href="/privacy" class="text-indigo-700 underline">{chunks}</a>,
        })}
      </p>
      <p class="text-sm text-slate-700">
        {t.rich("auth.signUp.haveAccount", {
          link: (chunks) => (
            <a href={withReturnPage("/sign-in", data.callbackURL)} class="font-medium text-indigo-700 underline">
              {chunks}
            </a>
          ),
        })}
      </p>
    </FormCard>
  );
});
