/**
 * `/forgot-password`: asks for the e-mail to send a password-reset link to; `?sent=<e-mail>`
 * confirms in words that never say whether the account exists (docs/decisions.md, Auth).
 *
 * `POST /forgot-password` is the form without JavaScript: the field `email`, the auth origin
 * rule and the reset limits, the same flow as `POST /api/auth/forget-password` (a link to
 * `/reset-password`); success is 303 to `?sent=`, a refusal renders the page again (400, 429).
 */
import { define } from "@/lib/platform/define.ts";
import { RateLimitedError } from "@/lib/errors.ts";
import { FormCard } from "@/components/FormCard.tsx";
import { PageHead } from "@/components/PageHead.tsx";
import ForgotPasswordForm, { FORGOT_TEXT } from "@/islands/ForgotPasswordForm.tsx";
import { DEFAULT_RESET_PATH } from "@/lib/auth/mails.ts";
import { EmailField } from "@/lib/auth/input.ts";
import { startPasswordReset } from "@/lib/auth/mails.ts";
import { readFormFields, seeOther } from "@/lib/http/form_posts.ts";
import { RATE_LIMITS } from "@/lib/platform/rate_limits.ts";
import { authTexts, forgotProblems, type FormOutcome, tooManyText } from "@/lib/browser/auth_forms.ts";
import { useT } from "@/lib/i18n/context.ts";
import { normalizeEmail } from "@/lib/users/users.ts";
import type { RouteOptions } from "@/lib/platform/route_options.ts";

/** An auth write: the login-CSRF rule applies before anything else runs (docs/decisions.md, Security). */
export const routeOptions: RouteOptions = { originCheck: "login" };

interface Data {
  outcome?: FormOutcome<"email">;
}

export const handler = define.handlers<Data>({
  GET(_req, ctx) {
    return ctx.render({});
  },
  async POST(req, ctx) {
    const services = ctx.state.services;
    const form = await readFormFields(req, ["email"]);
    const { t } = ctx.state;
    const again = (status: number, outcome: Omit<FormOutcome<"email">, "values">) =>
      ctx.render({ outcome: { values: { email: form.email }, ...outcome } }, { status });
    try {
      await services.rateLimits.hit(RATE_LIMITS.passwordResetPerIp, ctx.state.clientIp);
      const errors = forgotProblems(form);
      const email = EmailField.safeParse(form.email);
      if (!email.success) errors.email = "auth.problem.email";
      if (!email.success || errors.email) return again(400, { errors: authTexts(t, errors) });
      await services.rateLimits.hit(RATE_LIMITS.passwordResetPerEmail, normalizeEmail(email.data));
      startPasswordReset(services, email.data, DEFAULT_RESET_PATH);
      return seeOther(`/forgot-password?${new URLSearchParams({ sent: email.data })}`);
    } catch (error) {
      if (error instanceof RateLimitedError) {
        return again(429, { errors: {}, formError: tooManyText(t, error.retryAfterSeconds) });
      }
      throw error;
    }
  },
});

export default define.page<Data>(function ForgotPasswordPage({ data, url }) {
  const sent = url.searchParams.get("sent")?.trim().slice(0, 254);
  const t = useT();
  return (
    <FormCard title={t("auth.forgot.pageTitle")} lead={t("auth.forgot.lead")}>
      <PageHead title={t("auth.forgot.title")} />
      <ForgotPasswordForm sentTo={sent || undefined} outcome={data.outcome} text={t.island(FORGOT_TEXT)} />
      <p class="text-sm text-slate-700">
        {t.rich("auth.forgot.remembered", {
          link: (chunks) => <a href="/sign-in" class="font-medium text-indigo-700 underline">{chunks}</a>,
        })}
      </p>
    </FormCard>
  );
});
