/**
 * `/profile/delete`: account deletion without JavaScript (docs/decisions.md, Data rights; docs/decisions.md, Islands,
 * "Forms work without JavaScript"). "Delete my account" on the profile page opens a confirmation dialog once its
 * script runs; before that (or without it) the button leads here: the same consequences, the account's e-mail address
 * and, for an account with a password, the password. `POST` checks them as `DELETE /api/me` does (the same schema,
 * the per-session limit of tries and `deleteAccount`), then answers 303 to `/?accountDeleted=1` with the session cookie
 * cleared; a refusal renders the form again with the reason in the page's language (400 e-mail, 401 password,
 * 403 last admin, 429 too many tries). Guests are sent to sign in.
 */
import { define } from "@/lib/platform/define.ts";
import { assertSignedIn } from "@/lib/http/guards.ts";
import { readFormFields, seeOther } from "@/lib/http/form_posts.ts";
import { signedOutHeaders } from "@/lib/http/cookies.ts";
import { RATE_LIMITS } from "@/lib/platform/rate_limits.ts";
import { deleteAccount } from "@/lib/account/deletion.ts";
import { signInMethods } from "@/lib/auth/sign_in_methods.ts";
import { EMAIL_MAX } from "@/lib/auth/input.ts";
import { PASSWORD_MAX } from "@/lib/auth/passwords.ts";
import { ForbiddenError, InvalidInputError, RateLimitedError, UnauthenticatedError } from "@/lib/errors.ts";
import { PageHead } from "@/components/PageHead.tsx";
import { FormCard } from "@/components/FormCard.tsx";
import { Notice, TextField } from "@/components/forms.tsx";
import { useT } from "@/lib/i18n/context.ts";
import type { MessageKey } from "@/lib/i18n/translator.ts";

/** Whether the account has a password to confirm with, the e-mail typed, and why the last try was refused. */
interface Data {
  hasPassword: boolean;
  confirm: string;
  refused: MessageKey | null;
}

/** Why `deleteAccount` refused, as the page says it, with the status the API answers. */
function refusalOf(error: unknown): { status: number; key: MessageKey } | null {
  if (error instanceof InvalidInputError) return { status: 400, key: "profile.delete.wrongEmail" };
  if (error instanceof UnauthenticatedError) return { status: 401, key: "profile.delete.wrongPassword" };
  if (error instanceof ForbiddenError) return { status: 403, key: "profile.delete.lastAdmin" };
  if (error instanceof RateLimitedError) return { status: 429, key: "common.errors.tooMany" };
  return null;
}

export const handler = define.handlers<Data>({
  async GET(_req, ctx) {
    assertSignedIn(ctx.state);
    const methods = await signInMethods(ctx.state.services.kv, ctx.state.user.id);
    return ctx.render({ hasPassword: methods.includes("email"), confirm: "", refused: null });
  },

  async POST(req, ctx) {
    assertSignedIn(ctx.state);
    const { services, session, user } = ctx.state;
    const form = await readFormFields(req, ["confirm", "password"]);
    const confirm = form.confirm.slice(0, EMAIL_MAX);
    try {
      await services.rateLimits.hit(RATE_LIMITS.deleteAccountPerSession, session.id);
      await deleteAccount(services, user, {
        confirm,
        password: form.password === "" ? undefined : form.password.slice(0, PASSWORD_MAX * 4),
      });
    } catch (error) {
      const refusal = refusalOf(error);
      if (!refusal) throw error;
      const methods = await signInMethods(services.kv, user.id);
      return ctx.render(
        { hasPassword: methods.includes("email"), confirm, refused: refusal.key },
        { status: refusal.status },
      );
    }
    return seeOther("/?accountDeleted=1", signedOutHeaders(services.config.secure));
  },
});

export default define.page<Data>(function DeleteAccountPage({ data }) {
  const t = useT();
  return (
    <>
      <PageHead title={t("profile.delete.title")} />
      <FormCard title={t("profile.delete.title")} lead={t("profile.delete.body")}>
        {data.refused && <Notice kind="error">{t(data.refused)}</Notice>}
        <form method="post" action="/profile/delete" class="space-y-4">
          <TextField
            id="delete-confirm"
            name="confirm"
            label={t("profile.delete.email")}
            type="email"
            autocomplete="email"
            required
            value={data.confirm}
          />
          {data.hasPassword && (
            <TextField
              id="delete-password"
              name="password"
              label={t("profile.delete.password")}
              type="password"
              autocomplete="current-password"
              required
              value=""
            />
          )}
          <div class="flex flex-wrap items-center gap-4">
            <button
              type="submit"
              class="rounded-md bg-red-700 px-4 py-2 font-medium text-white hover:bg-red-800 focus:outline-none focus-visible:ring-2 focus-visible:ring-red-600 focus-visible:ring-offset-2"
            >
              {t("profile.delete.button")}
            </button>
            <a href="/profile#your-data" class="text-indigo-700 underline">{t("profile.delete.back")}</a>
          </div>
        </form>
      </FormCard>
    </>
  );
});
