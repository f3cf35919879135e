/**
 * The sign-up form. Checks the form's own rules first (a name of at least 3 characters, a valid e-mail, a password of
 * at least 8: `lib/browser/auth_forms.ts`), then calls `POST /api/auth/sign-up/email` with the verification link's
 * target, onboarding (carrying the page's `callbackURL`, the page to return to afterwards), and on success goes to
 * `/check-inbox?email=...`. Server errors are shown beside the field they concern (`USER_ALREADY_EXISTS` by the e-mail,
 * `PASSWORD_TOO_*` by the password; docs/decisions.md, Auth, "Sign-up checks in a fixed order"). Without JavaScript (or
 * before it arrives) the same form posts to `/sign-up`, which runs the same sign-up; a refusal renders the page again
 * and `outcome` brings its values and sentences.
 */
import { useState } from "preact/hooks";
import { failureMessage, fetchJson } from "@/lib/browser/fetch_json.ts";
import { onboardingPath, sameOriginTarget, withReturnPage } from "@/lib/browser/same_origin.ts";
import { Notice, SubmitButton, TextField } from "@/components/forms.tsx";
import { type FieldErrors, useFormSubmit } from "@/lib/browser/use_form_submit.ts";
import { authCodeProblem, authText, authTexts, type FormOutcome, signUpProblems } from "@/lib/browser/auth_forms.ts";
import { useT } from "@/lib/i18n/context.ts";
import { IslandTextProvider } from "@/lib/i18n/island_text.ts";
import type { IslandText, Translate } from "@/lib/i18n/translator.ts";

/** The messages this island uses (its `text`). */
export const SIGN_UP_TEXT = ["auth.signUp.", "auth.field.", "auth.problem.", "common.errors."] as const;

const FIELDS = ["name", "email", "password"] as const;
type Field = typeof FIELDS[number];
type Errors = FieldErrors<Field>;

/**
 * The e-mail's error when it is taken: the sentence and a way to sign in instead, keeping
 * `returnTo` (the page's checked `callbackURL`; the sign-in page checks it again).
 */
function takenEmail(t: Translate, returnTo: string | null, message: string) {
  return t.rich("auth.signUp.taken", {
    message,
    link: (chunks) => <a href={withReturnPage("/sign-in", returnTo)} class="underline">{chunks}</a>,
  });
}

/** Props: the page's checked `callbackURL`, a failed plain submit's outcome, and the messages (`SIGN_UP_TEXT`). */
interface SignUpFormProps {
  callbackURL?: string | null;
  outcome?: FormOutcome<Field>;
  text: IslandText;
}

export default function SignUpForm({ text, ...props }: SignUpFormProps) {
  return (
    <IslandTextProvider text={text}>
      <Form {...props} />
    </IslandTextProvider>
  );
}

function Form({ callbackURL = null, outcome }: Omit<SignUpFormProps, "text">) {
  const t = useT();
  const [name, setName] = useState(outcome?.values.name ?? "");
  const [email, setEmail] = useState(outcome?.values.email ?? "");
  const [password, setPassword] = useState("");
  const initialErrors: Errors = { ...outcome?.errors };
  if (outcome?.code === "USER_ALREADY_EXISTS" && outcome.errors.email) {
    initialErrors.email = takenEmail(t, callbackURL, outcome.errors.email);
  }
  const { form, formError, setFormError, busy, textField, showErrors, submit: submitForm } = useFormSubmit(FIELDS, {
    leaves: true,
    initial: { errors: initialErrors, formError: outcome?.formError },
  });

  const submit = async (event: Event) => {
    const returnTo = callbackURL === null ? null : sameOriginTarget(callbackURL);
    const result = await submitForm(event, {
      check: () => authTexts(t, signUpProblems({ name, email, password })),
      call: () =>
        fetchJson("/api/auth/sign-up/email", {
          body: { name: name.trim(), email: email.trim(), password, callbackURL: onboardingPath(returnTo) },
        }),
    });
    if (!result) return;
    if (result.ok) {
      const inbox = new URLSearchParams({ email: email.trim() });
      if (returnTo !== null && returnTo !== "/") inbox.set("callbackURL", returnTo);
      location.assign(`/check-inbox?${inbox}`);
      return;
    }
    const problem = authCodeProblem(result.code);
    if (problem?.field === "email") showErrors({ email: takenEmail(t, returnTo, authText(t, problem.key)) });
    else if (problem?.field) showErrors({ [problem.field]: authText(t, problem.key) });
    else {
      showErrors({});
      setFormError(problem ? authText(t, problem.key) : failureMessage(t, result));
    }
  };

  return (
    <form ref={form} method="post" action="/sign-up" noValidate onSubmit={submit} class="space-y-4">
      {callbackURL !== null && <input type="hidden" name="callbackURL" value={callbackURL} />}
      {formError && <Notice kind="error" title={t("auth.signUp.errorTitle")}>{formError}</Notice>}
      <TextField {...textField("name", name, setName)} label={t("auth.field.name")} autoComplete="name" required />
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
        autoComplete="new-password"
        required
        hint={authText(t, "auth.field.passwordHint")}
      />
      <SubmitButton
        busy={busy}
        label={t("auth.signUp.submit")}
        busyLabel={t("auth.signUp.busy")}
        worksWithoutScript
      />
    </form>
  );
}
