/**
 * The e-mail sign-in form (`POST /api/auth/sign-in/email`). After signing in, a user who still
 * needs onboarding goes to `/onboarding` carrying `callbackURL` along (new-user detection:
 * `createdAt` equal to `updatedAt`, or `GET /api/onboarding` answering `profile: null`), others
 * to `callbackURL` (a same-origin path checked by the page, and checked again here: anything
 * that resolves off this origin goes to `/`) or `/`. An unverified e-mail
 * (`EMAIL_NOT_VERIFIED`) switches to a state that explains the fresh link and can send it again
 * by signing in again (the server sends at most one link per 5 minutes); that link too opens
 * onboarding and then `callbackURL`. A suspended account (`ACCOUNT_SUSPENDED`) is told so, with the contact page to
 * appeal (`SuspendedNotice`).
 *
 * Without JavaScript (or before it arrives) the same form posts to `/sign-in`, whose handler
 * runs the same sign-in; a refusal renders the page again and `outcome` brings its e-mail,
 * choice and sentences into the form (docs/decisions.md, Auth).
 */
import { useState } from "preact/hooks";
import { type ApiResult, failureMessage, fetchJson } from "@/lib/browser/fetch_json.ts";
import { Notice, SubmitButton, TextField } from "@/components/forms.tsx";
import { SuspendedNotice } from "@/components/SuspendedNotice.tsx";
import { onboardingPath, sameOriginTarget } from "@/lib/browser/same_origin.ts";
import { useFormSubmit } from "@/lib/browser/use_form_submit.ts";
import { authCodeProblem, authText, authTexts, type FormOutcome, signInProblems } from "@/lib/browser/auth_forms.ts";
import { useT } from "@/lib/i18n/context.ts";
import { IslandTextProvider } from "@/lib/i18n/island_text.ts";
import type { IslandText } from "@/lib/i18n/translator.ts";
import type { AuthUserView } from "@/lib/auth/views.ts";
import type { OnboardingProfile } from "@/lib/onboarding/onboarding.ts";

/** A failed plain HTML sign-in: the form's outcome and whether "Keep me signed in" was ticked. */
export interface SignInOutcome extends FormOutcome<"email" | "password"> {
  rememberMe: boolean;
}

async function destination(user: AuthUserView, returnTo: string): Promise<string> {
  if (user.createdAt === user.updatedAt) return onboardingPath(returnTo);
  const onboarding = await fetchJson<{ profile: OnboardingProfile | null }>("/api/onboarding");
  if (!onboarding.ok || onboarding.data.profile === null) return onboardingPath(returnTo);
  return returnTo;
}

/** The messages this island uses (its `text`). */
export const SIGN_IN_TEXT = ["auth.signIn.", "auth.field.", "auth.problem.", "common.errors."] as const;

/**
 * Props: the page's checked `callbackURL`, the address to fill in (`?email=`), a failed plain submit's outcome, and the
 * messages (`SIGN_IN_TEXT`).
 */
interface SignInFormProps {
  callbackURL: string | null;
  email?: string;
  outcome?: SignInOutcome;
  text: IslandText;
}

export default function SignInForm({ text, ...props }: SignInFormProps) {
  return (
    <IslandTextProvider text={text}>
      <Form {...props} />
    </IslandTextProvider>
  );
}

function Form({ callbackURL, email: given, outcome }: Omit<SignInFormProps, "text">) {
  const t = useT();
  const [email, setEmail] = useState(outcome?.values.email ?? given ?? "");
  const [password, setPassword] = useState("");
  const [rememberMe, setRememberMe] = useState(outcome?.rememberMe ?? true);
  const [suspended, setSuspended] = useState(outcome?.code === "ACCOUNT_SUSPENDED");
  const [unverified, setUnverified] = useState<{ email: string; resent: boolean } | null>(
    outcome?.code === "EMAIL_NOT_VERIFIED" ? { email: outcome.values.email ?? "", resent: false } : null,
  );
  const { form, formError, setFormError, busy, textField, send, submit: submitForm } = useFormSubmit(
    ["email", "password"] as const,
    { leaves: true, initial: outcome },
  );

  const check = () => authTexts(t, signInProblems({ email, password }));

  const signIn = async (): Promise<ApiResult<{ user: AuthUserView }>> => {
    const returnTo = sameOriginTarget(callbackURL);
    const result = await fetchJson<{ user: AuthUserView }>("/api/auth/sign-in/email", {
      body: { email: email.trim(), password, rememberMe, callbackURL: onboardingPath(returnTo) },
    });
    if (result.ok) location.assign(await destination(result.data.user, returnTo));
    return result;
  };

  const submit = async (event: Event) => {
    setUnverified(null);
    setSuspended(false);
    const result = await submitForm(event, { check, call: signIn });
    if (!result || result.ok) return;
    if (result.code === "EMAIL_NOT_VERIFIED") setUnverified({ email: email.trim(), resent: false });
    else if (result.code === "ACCOUNT_SUSPENDED") setSuspended(true);
    else {
      const problem = authCodeProblem(result.code);
      setFormError(problem ? authText(t, problem.key) : failureMessage(t, result));
    }
  };

  const resend = async () => {
    const result = await send(signIn);
    if (!result.ok && result.code === "EMAIL_NOT_VERIFIED") setUnverified({ email: email.trim(), resent: true });
    else if (!result.ok) setFormError(failureMessage(t, result));
  };

  return (
    <form ref={form} method="post" action="/sign-in" noValidate onSubmit={submit} class="space-y-4">
      {callbackURL !== null && <input type="hidden" name="callbackURL" value={callbackURL} />}
      {formError && <Notice kind="error" title={t("auth.signIn.errorTitle")}>{formError}</Notice>}
      {suspended && <SuspendedNotice />}
      {unverified && (
        <Notice kind="info" title={t("auth.signIn.verifyTitle")}>
          <p>{t(unverified.resent ? "auth.signIn.resent" : "auth.signIn.unverified", { email: unverified.email })}</p>
          {password === "" ? <p class="mt-2">{t("auth.problem.resendHint")}</p> : (
            <button
              type="button"
              onClick={resend}
              disabled={busy}
              class="mt-2 rounded-md border border-sky-700 px-3 py-1.5 font-medium text-sky-900 hover:bg-sky-100 disabled:opacity-70"
            >
              {t(busy ? "auth.signIn.sending" : "auth.signIn.sendAgain")}
            </button>
          )}
        </Notice>
      )}
      <TextField
        {...textField("email", email, setEmail)}
        label={t("auth.field.email")}
        type="email"
        autoComplete="email"
        required
      />
      <TextField
        {...textField("password", password, setPassword)}
        label={t("auth.field.password")}
        type="password"
        autoComplete="current-password"
        required
      />
      <div class="flex items-center justify-between gap-4 text-sm">
        <label class="flex items-center gap-2 text-slate-800">
          <input
            type="checkbox"
            name="rememberMe"
            checked={rememberMe}
            class="h-4 w-4 accent-indigo-700"
            onChange={(e) => setRememberMe(e.currentTarget.checked)}
          />
          {t("auth.signIn.remember")}
        </label>
        <a href="/forgot-password" class="font-medium text-indigo-700 underline">{t("auth.signIn.forgot")}</a>
      </div>
      <SubmitButton
        busy={busy}
        label={t("auth.signIn.submit")}
        busyLabel={t("auth.signIn.busy")}
        worksWithoutScript
      />
    </form>
  );
}
