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
import ForgotPasswordForm from "@/islands/ForgotPasswordForm.tsx";
import { DEFAULT_RESET_PATH } from "@/lib/auth/mails.ts";
import { EmailField } from "@/lib/auth/input.ts";
import { startPasswordReset } from "@/lib/auth/mails.ts";
import { assertLoginOrigin } from "@/lib/http/csrf.ts";
import { rateLimitText, readFormFields, seeOther } from "@/lib/http/form_posts.ts";
import { RATE_LIMITS } from "@/lib/platform/rate_limits.ts";
import { AUTH_TEXT, forgotProblems, type FormOutcome } from "@/lib/browser/auth_forms.ts";
import { normalizeEmail } from "@/lib/users/users.ts";

interface Data {
  outcome?: FormOutcome<"email">;
}

export const handler = define.handlers<Data>({
  GET(_req, ctx) {
    return ctx.render({});
  },
  async POST(req, ctx) {
    const services = ctx.state.services;
    const { config } = services;
    assertLoginOrigin(req, config.appUrl);
    const form = await readFormFields(req, ["email"]);
    const again = (status: number, outcome: Omit<FormOutcome<"email">, "values">) =>
      ctx.render({ outcome: { values: { email: form.email }, ...outcome } }, { status });
    try {
      await services.rateLimits.hit(RATE_LIMITS.passwordResetPerIp, ctx.state.clientIp);
      const errors = forgotProblems(form);
      const email = EmailField.safeParse(form.email);
      if (!email.success) errors.email = AUTH_TEXT.email;
      if (!email.success || errors.email) return again(400, { errors });
      await services.rateLimits.hit(RATE_LIMITS.passwordResetPerEmail, normalizeEmail(email.data));
      startPasswordReset(services, email.data, DEFAULT_RESET_PATH);
      return seeOther(`/forgot-password?${new URLSearchParams({ sent: email.data })}`);
    } catch (error) {
      if (error instanceof RateLimitedError) return again(429, { errors: {}, formError: rateLimitText(error) });
      throw error;
    }
  },
});

export default define.page<Data>(function ForgotPasswordPage({ data, url }) {
  const sent = url.searchParams.get("sent")?.trim().slice(0, 254);
  return (
    <FormCard title="Reset your password" lead="Enter the e-mail of your account and we will send you a reset link.">
      <PageHead title="Forgot your password" />
      <ForgotPasswordForm sentTo={sent || undefined} outcome={data.outcome} />
      <p class="text-sm text-slate-700">
        Remembered it? <a href="/sign-in" class="font-medium text-indigo-700 underline">Sign in</a>
      </p>
    </FormCard>
  );
});
