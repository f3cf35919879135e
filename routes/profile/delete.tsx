/**
 * `/profile/delete`: account deletion without JavaScript (docs/decisions.md, Data rights; docs/decisions.md, Islands,
 * "Forms work without JavaScript"). "Delete my account" on the profile page opens a confirmation dialog once its
 * script runs; before that (or without it) the button leads here: the same consequences, the account's e-mail address
 * and, for an account with a password, the password. `POST` checks them as `DELETE /api/me` does (the same schema,
 * the per-session limit of tries and `deleteAccount`), then answers 303 to `/?accountDeleted=1` with the session cookie
 * cleared; a refusal renders the form again with the reason in the page's language (400 e-mail, 401 password,
 * 403 last admin or a sign-in too old, 429 too many tries). An account without a password whose sign-in is not fresh
 * (docs/decisions.md, Data rights, "Deleting an account without a password") sees, instead of the form, why and the
 * buttons of its providers, which sign in again, asking the provider for a new login (docs/decisions.md, Social sign-in,
 * "A fresh sign-in is a new login at the provider"), and come back here; when its sign-in came through a provider that
 * does not tell the time of its login (never fresh), also the way to choose a password and confirm with it instead.
 * Guests are sent to sign in.
 */
import { define } from "@/lib/platform/define.ts";
import { assertSignedIn } from "@/lib/http/guards.ts";
import { readFormFields, seeOther } from "@/lib/http/form_posts.ts";
import { signedOutHeaders } from "@/lib/http/cookies.ts";
import { RATE_LIMITS } from "@/lib/platform/rate_limits.ts";
import { CHOOSE_PASSWORD_TO_DELETE, deleteAccount, SIGN_IN_AGAIN } from "@/lib/account/deletion.ts";
import { signInMethods } from "@/lib/auth/sign_in_methods.ts";
import { freshSignIn } from "@/lib/auth/sessions.ts";
import { providerChoices } from "@/lib/auth/oauth/providers.ts";
import type { SignedInState } from "@/lib/platform/state.ts";
import { type SocialButtonProvider, SocialSignInButtons } from "@/components/SocialSignInButtons.tsx";
import { EMAIL_MAX } from "@/lib/auth/input.ts";
import { PASSWORD_MAX } from "@/lib/auth/passwords.ts";
import { ForbiddenError, InvalidInputError, RateLimitedError, UnauthenticatedError } from "@/lib/errors.ts";
import { PageHead } from "@/components/PageHead.tsx";
import { FormCard } from "@/components/FormCard.tsx";
import { Notice, TextField } from "@/components/forms.tsx";
import { useT } from "@/lib/i18n/context.ts";
import type { MessageKey } from "@/lib/i18n/translator.ts";

/**
 * Whether the account has a password to confirm with, whether it must sign in again first (no password, and the
 * sign-in is not fresh) with which of its providers, the e-mail typed, and why the last try was refused.
 */
interface Data {
  hasPassword: boolean;
  signInFirst: boolean;
  /** Whether the session's provider did not tell when the person logged in there (`Session.loginUnknown`). */
  loginUnknown: boolean;
  providers: SocialButtonProvider[];
  confirm: string;
  refused: MessageKey | null;
}

/** How the account confirms a deletion: by password, by a fresh sign-in, or it must sign in again first. */
async function confirmationOf(
  state: SignedInState,
): Promise<Pick<Data, "hasPassword" | "signInFirst" | "loginUnknown" | "providers">> {
  const methods: string[] = await signInMethods(state.services.kv, state.user.id);
  const hasPassword = methods.includes("email");
  return {
    hasPassword,
    signInFirst: !hasPassword && !freshSignIn(state.session),
    loginUnknown: state.session.loginUnknown === true,
    providers: providerChoices(state.services.oauth).filter((provider) => methods.includes(provider.id)),
  };
}

/** Why `deleteAccount` refused, as the page says it, with the status the API answers. */
function refusalOf(error: unknown): { status: number; key: MessageKey } | null {
  if (error instanceof InvalidInputError) return { status: 400, key: "profile.delete.wrongEmail" };
  if (error instanceof UnauthenticatedError) return { status: 401, key: "profile.delete.wrongPassword" };
  if (error instanceof ForbiddenError) {
    return {
      status: 403,
      key: error.message === SIGN_IN_AGAIN || error.message === CHOOSE_PASSWORD_TO_DELETE
        ? "profile.delete.signInFirst"
        : "profile.delete.lastAdmin",
    };
  }
  if (error instanceof RateLimitedError) return { status: 429, key: "common.errors.tooMany" };
  return null;
}

export const handler = define.handlers<Data>({
  async GET(_req, ctx) {
    assertSignedIn(ctx.state);
    return ctx.render({ ...await confirmationOf(ctx.state), confirm: "", refused: null });
  },

  async POST(req, ctx) {
    assertSignedIn(ctx.state);
    const { services, session } = ctx.state;
    const form = await readFormFields(req, ["confirm", "password"]);
    const confirm = form.confirm.slice(0, EMAIL_MAX);
    try {
      await services.rateLimits.hit(RATE_LIMITS.deleteAccountPerSession, session.id);
      await deleteAccount(services, ctx.state, {
        confirm,
        password: form.password === "" ? undefined : form.password.slice(0, PASSWORD_MAX * 4),
      });
    } catch (error) {
      const refusal = refusalOf(error);
      if (!refusal) throw error;
      return ctx.render({ ...await confirmationOf(ctx.state), confirm, refused: refusal.key }, {
        status: refusal.status,
      });
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
        {data.signInFirst
          ? (
            <div class="space-y-4">
              {!data.refused && <p class="text-slate-700">{t("profile.delete.signInFirst")}</p>}
              {data.loginUnknown && (
                <p class="text-slate-700">
                  {t.rich("profile.delete.loginUnknown", {
                    link: (chunks) => (
                      <a href="/forgot-password" class="font-medium text-indigo-700 underline">{chunks}</a>
                    ),
                  })}
                </p>
              )}
              <SocialSignInButtons
                providers={data.providers}
                callbackURL="/profile/delete"
                newUserCallbackURL="/profile/delete"
                divider={false}
                fresh
              />
              <a href="/profile#your-data" class="text-indigo-700 underline">{t("profile.delete.back")}</a>
            </div>
          )
          : <DeleteForm data={data} />}
      </FormCard>
    </>
  );
});

/** The confirmation form: the account's e-mail address, and its password when it has one. */
function DeleteForm({ data }: { data: Data }) {
  const t = useT();
  return (
    <form method="post" action="/profile/delete" noValidate class="space-y-4">
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
  );
}
