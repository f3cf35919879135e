/**
 * `/reset-password?token=`: the page a reset e-mail links to (docs/decisions.md, Auth). Without a
 * token it explains that the link is incomplete and offers to request a new one; with a token
 * that is spent, expired or unknown (looked up, not spent) it says so at once, with the same
 * offer, instead of a form, and for a suspended person's link that the account is suspended and how
 * to appeal (docs/decisions.md, Admin, "Suspension"); `?done=1` says the password was changed.
 *
 * `POST /reset-password` is the form without JavaScript: the fields `token`, `newPassword` and
 * `confirmPassword`, the auth origin rule, the same flow as `POST /api/auth/reset-password`;
 * success is 303 to `?done=1`, a refusal renders the page again (400; 403 for a suspended person).
 */
import { define } from "@/lib/platform/define.ts";
import { AuthError } from "@/lib/errors.ts";
import { FormCard } from "@/components/FormCard.tsx";
import { Notice } from "@/components/forms.tsx";
import { SuspendedNotice } from "@/components/SuspendedNotice.tsx";
import { PageHead } from "@/components/PageHead.tsx";
import ResetPasswordForm, { RESET_TEXT, type ResetOutcome } from "@/islands/ResetPasswordForm.tsx";
import { resetLinkState, resetPasswordWithToken } from "@/lib/auth/password_flows.ts";
import { readFormFields, seeOther } from "@/lib/http/form_posts.ts";
import { authCodeProblem, authText, authTexts, resetProblems } from "@/lib/browser/auth_forms.ts";
import { useT } from "@/lib/i18n/context.ts";
import type { RouteOptions } from "@/lib/platform/route_options.ts";

/** An auth write: the login-CSRF rule applies before anything else runs (docs/decisions.md, Security). */
export const routeOptions: RouteOptions = { originCheck: "login" };

/** Longest token the page passes on; real ones are far shorter. */
const TOKEN_MAX = 512;

interface Data {
  token?: string;
  outcome?: ResetOutcome;
  /** Set when the link's person is suspended: the page says so instead of a form. */
  suspended?: boolean;
}

export const handler = define.handlers<Data>({
  async GET(_req, ctx) {
    const token = ctx.url.searchParams.get("token")?.slice(0, TOKEN_MAX);
    const state = token ? await resetLinkState(ctx.state.services.kv, token) : "live";
    if (state === "live") return ctx.render({ token });
    if (state === "suspended") return ctx.render({ token, suspended: true });
    return ctx.render({ token, outcome: { values: {}, errors: {}, code: "INVALID_TOKEN" } });
  },
  async POST(req, ctx) {
    const form = await readFormFields(req, ["token", "newPassword", "confirmPassword"]);
    const token = form.token.slice(0, TOKEN_MAX);
    const { t } = ctx.state;
    const again = (outcome: Omit<ResetOutcome, "values">) =>
      ctx.render({ token, outcome: { values: {}, ...outcome } }, { status: 400 });
    const errors = resetProblems(form);
    if (Object.keys(errors).length > 0) return again({ errors: authTexts(t, errors) });
    try {
      await resetPasswordWithToken(ctx.state.services, token, form.newPassword);
      return seeOther("/reset-password?done=1");
    } catch (error) {
      if (!(error instanceof AuthError)) throw error;
      if (error.code === "INVALID_TOKEN") return again({ errors: {}, code: error.code });
      if (error.code === "ACCOUNT_SUSPENDED") return ctx.render({ token, suspended: true }, { status: 403 });
      const problem = authCodeProblem(error.code);
      return again({ errors: { newPassword: problem ? authText(t, problem.key) : error.message } });
    }
  },
});

export default define.page<Data>(function ResetPasswordPage({ data, url }) {
  const done = url.searchParams.get("done") === "1";
  const t = useT();
  return (
    <FormCard title={t("auth.reset.title")}>
      <PageHead title={t("auth.reset.title")} />
      {data.suspended ? <SuspendedNotice /> : done || data.token
        ? (
          <ResetPasswordForm
            token={data.token ?? ""}
            done={done}
            outcome={data.outcome}
            text={t.island(RESET_TEXT)}
          />
        )
        : (
          <Notice kind="error" title={t("auth.reset.incompleteTitle")}>
            {t.rich("auth.reset.incomplete", {
              link: (chunks) => <a href="/forgot-password" class="font-medium underline">{chunks}</a>,
            })}
          </Notice>
        )}
    </FormCard>
  );
});
