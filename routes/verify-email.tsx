/**
 * `/verify-email?token=&callbackURL=`: the confirm page of a verification link followed by a browser that did not ask
 * for it (docs/decisions.md, Auth, "A verification link verifies only in the browser that asked for it");
 * `GET /api/auth/verify-email` sends such a browser here. `GET` changes nothing (mail scanners fetch links) and offers
 * a button, in the language of the person the link names unless the browser is signed in or `?lang=` asks for another.
 * `POST` (that button: the fields `token`, `callbackURL` and `password`, under the auth origin rule) spends the token
 * and verifies the address without signing anyone in: 303 to `callbackURL` (default `/`) for a signed-in browser, whose
 * session is kept, else to `/sign-in?callbackURL=…&verified=1&email=…`, whose form has the address filled in. Unless
 * the browser is signed in as the link's person,
 * an account with a password is verified only with that password (counted by the sign-in limits): whoever pressed may
 * be the address's owner, who never chose the password a stranger signed up with (docs/decisions.md, Auth, "A
 * verification link verifies only in the browser that asked for it"); a wrong or empty one answers 401 with the page
 * again (an empty one asks for the password). An account without a password is verified only from a browser signed in
 * as it: elsewhere the page has no button and says
 * to sign in the way the account was made and open the link again, or, for whoever did not make it, to close the page
 * or choose a password (a reset drops the links of whoever made it); a press there answers 403 and writes nothing. An
 * unknown, spent or expired token: 400, the page saying so.
 */
import { define, type RouteContext } from "@/lib/platform/define.ts";
import type { RouteOptions } from "@/lib/platform/route_options.ts";
import { FormCard } from "@/components/FormCard.tsx";
import { Notice, TextField } from "@/components/forms.tsx";
import { PageHead } from "@/components/PageHead.tsx";
import { checkCredentials, readVerificationLink, verifyEmail } from "@/lib/auth/email_password.ts";
import { signInSubject } from "@/lib/auth/password_flows.ts";
import { RATE_LIMITS } from "@/lib/platform/rate_limits.ts";
import { getPasswordEntry } from "@/lib/users/users.ts";
import { AuthError } from "@/lib/errors.ts";
import { returnPage, withQuery } from "@/lib/auth/redirects.ts";
import { withReturnPage } from "@/lib/browser/same_origin.ts";
import { readVerifyBindingCookie } from "@/lib/http/cookies.ts";
import { readFormFields, seeOther } from "@/lib/http/form_posts.ts";
import { useT } from "@/lib/i18n/context.ts";
import { translatorFor } from "@/lib/i18n/catalogue.ts";
import { isLang, type Lang, LANG_PARAM } from "@/lib/i18n/languages.ts";

/** An auth write: the login-CSRF rule applies before anything else runs (docs/decisions.md, Security). */
export const routeOptions: RouteOptions = { originCheck: "login" };

/** Longest token the page passes on; real ones are far shorter. */
const TOKEN_MAX = 512;

interface Data {
  /** The link's token while it is live; null when it is unknown, spent or expired. */
  token: string | null;
  callbackURL: string | null;
  /** Whether the button asks for the account's password (see above). */
  askPassword: boolean;
  /** Whether the account has no password and this browser is not signed in as it: no button (see above). */
  signInFirst?: boolean;
  /** Set when the password sent was not the account's. */
  wrongPassword?: boolean;
  /** Set when no password was sent: the field asks for it. */
  noPassword?: boolean;
}

/**
 * What a press from this browser needs for `userId`'s link: nothing in a browser signed in as them, else their password
 * when they have one, else a sign-in as them first (see above).
 */
async function pressNeeds(ctx: RouteContext<Data>, userId: string): Promise<"press" | "password" | "signIn"> {
  if (ctx.state.user?.id === userId) return "press";
  return (await getPasswordEntry(ctx.state.services.kv, userId)).value !== null ? "password" : "signIn";
}

/** Writes the page in the language of the link's person (`language`), unless the browser has its own. */
function speakTo(ctx: RouteContext<Data>, language: Lang | undefined): void {
  if (!language || ctx.state.user || isLang(ctx.url.searchParams.get(LANG_PARAM))) return;
  ctx.state.lang = language;
  ctx.state.t = translatorFor(language);
}

export const handler = define.handlers<Data>({
  async GET(req, ctx) {
    const { kv, config } = ctx.state.services;
    const token = ctx.url.searchParams.get("token")?.slice(0, TOKEN_MAX) ?? "";
    const callbackURL = returnPage(ctx.url.searchParams.get("callbackURL"), config.appUrl);
    const link = await readVerificationLink(kv, token, readVerifyBindingCookie(req, config.secure));
    speakTo(ctx, link?.user.language);
    const needs = link ? await pressNeeds(ctx, link.user.id) : "press";
    return ctx.render(
      { token: link ? token : null, callbackURL, askPassword: needs === "password", signInFirst: needs === "signIn" },
      { status: link ? 200 : 400 },
    );
  },
  async POST(req, ctx) {
    const { kv, config } = ctx.state.services;
    const form = await readFormFields(req, ["token", "callbackURL", "password"]);
    const callbackURL = returnPage(form.callbackURL || null, config.appUrl);
    const token = form.token.slice(0, TOKEN_MAX);
    const binding = readVerifyBindingCookie(req, config.secure);
    const link = await readVerificationLink(kv, token, binding);
    if (!link) return ctx.render({ token: null, callbackURL, askPassword: false }, { status: 400 });
    const needs = await pressNeeds(ctx, link.user.id);
    if (needs === "signIn") {
      // No password entry may also mean the account went meanwhile: then the link is dead, as below.
      if (!await readVerificationLink(kv, token, binding)) {
        return ctx.render({ token: null, callbackURL, askPassword: false }, { status: 400 });
      }
      speakTo(ctx, link.user.language);
      return ctx.render({ token, callbackURL, askPassword: false, signInFirst: true }, { status: 403 });
    }
    if (needs === "password") {
      const { rateLimits } = ctx.state.services;
      await rateLimits.hit(RATE_LIMITS.signInPerIp, ctx.state.clientIp);
      await rateLimits.hit(RATE_LIMITS.signInPerEmailAndIp, signInSubject(link.user.email, ctx.state.clientIp));
      if (form.password === "") {
        speakTo(ctx, link.user.language);
        return ctx.render({ token, callbackURL, askPassword: true, noPassword: true }, { status: 401 });
      }
      try {
        await checkCredentials(kv, link.user.email, form.password);
      } catch (error) {
        if (!(error instanceof AuthError)) throw error;
        speakTo(ctx, link.user.language);
        return ctx.render({ token, callbackURL, askPassword: true, wrongPassword: true }, { status: 401 });
      }
    }
    const verified = await verifyEmail(kv, token, { binding, adminEmails: config.adminEmails });
    if (!verified) return ctx.render({ token: null, callbackURL, askPassword: false }, { status: 400 });
    if (ctx.state.user) return seeOther(callbackURL ?? "/");
    return seeOther(
      withQuery("/sign-in", config.appUrl, {
        ...(callbackURL ? { callbackURL } : {}),
        verified: "1",
        email: link.user.email,
      }),
    );
  },
});

export default define.page<Data>(function VerifyEmailPage({ data }) {
  const t = useT();
  return (
    <FormCard title={t("auth.verify.title")}>
      <PageHead title={t("auth.verify.title")} />
      {!data.token
        ? (
          <Notice kind="error" title={t("auth.signInCode.INVALID_TOKEN.title")}>
            <p>{t("auth.signInCode.INVALID_TOKEN.text")}</p>
            <p class="mt-2">
              <a href={withReturnPage("/sign-in", data.callbackURL)} class="font-medium underline">
                {t("auth.signIn.title")}
              </a>
            </p>
          </Notice>
        )
        : data.signInFirst
        ? (
          <div class="space-y-4">
            <p class="text-slate-700">{t("auth.verify.signInFirst")}</p>
            <p>
              <a href="/sign-in" class="font-medium text-indigo-700 underline">{t("auth.signIn.title")}</a>
            </p>
            <p class="text-sm text-slate-700">
              {t.rich("auth.verify.signInFirstNotYou", {
                link: (chunks) => <a href="/forgot-password" class="font-medium underline">{chunks}</a>,
              })}
            </p>
          </div>
        )
        : (
          <form method="post" class="space-y-4" noValidate>
            <p class="text-slate-700">{t(data.askPassword ? "auth.verify.leadPassword" : "auth.verify.lead")}</p>
            <p class="text-sm text-slate-700">{t("auth.verify.notYou")}</p>
            <input type="hidden" name="token" value={data.token} />
            {data.callbackURL && <input type="hidden" name="callbackURL" value={data.callbackURL} />}
            {data.askPassword && (
              <TextField
                id="password"
                type="password"
                label={t("auth.field.password")}
                hint={t("auth.verify.passwordHint")}
                error={data.noPassword
                  ? t("auth.problem.password")
                  : data.wrongPassword
                  ? t("auth.verify.wrongPassword")
                  : undefined}
                autocomplete="current-password"
                required
              />
            )}
            <button
              type="submit"
              class="rounded-md bg-indigo-700 px-4 py-2 font-medium text-white hover:bg-indigo-800"
            >
              {t("auth.verify.submit")}
            </button>
          </form>
        )}
    </FormCard>
  );
});
