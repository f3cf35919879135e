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
import { fetchJson } from "@/lib/browser/fetch_json.ts";
import { onboardingPath, sameOriginTarget, withReturnPage } from "@/lib/browser/same_origin.ts";
import { Notice, SubmitButton, TextField } from "@/components/forms.tsx";
import { type FieldErrors, useFormSubmit } from "@/lib/browser/use_form_submit.ts";
import { authCodeProblem, type FormOutcome, signUpProblems } from "@/lib/browser/auth_forms.ts";

const FIELDS = ["name", "email", "password"] as const;
type Field = typeof FIELDS[number];
type Errors = FieldErrors<Field>;

/**
 * The e-mail's error when it is taken: the sentence and a way to sign in instead, keeping
 * `returnTo` (the page's checked `callbackURL`; the sign-in page checks it again).
 */
function takenEmail(returnTo: string | null, message: string) {
  return (
    <>
      {message} <a href={withReturnPage("/sign-in", returnTo)} class="underline">Sign in instead</a>.
    </>
  );
}

export default function SignUpForm(
  { callbackURL = null, outcome }: { callbackURL?: string | null; outcome?: FormOutcome<Field> },
) {
  const [name, setName] = useState(outcome?.values.name ?? "");
  const [email, setEmail] = useState(outcome?.values.email ?? "");
  const [password, setPassword] = useState("");
  const initialErrors: Errors = { ...outcome?.errors };
  if (outcome?.code === "USER_ALREADY_EXISTS" && outcome.errors.email) {
    initialErrors.email = takenEmail(callbackURL, outcome.errors.email);
  }
  const { form, formError, setFormError, busy, textField, showErrors, submit: submitForm } = useFormSubmit(FIELDS, {
    leaves: true,
    initial: { errors: initialErrors, formError: outcome?.formError },
  });

  const submit = async (event: Event) => {
    const returnTo = callbackURL === null ? null : sameOriginTarget(callbackURL);
    const result = await submitForm(event, {
      check: () => signUpProblems({ name, email, password }),
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
    if (problem?.field === "email") showErrors({ email: takenEmail(returnTo, problem.message) });
    else if (problem?.field) showErrors({ [problem.field]: problem.message });
    else {
      showErrors({});
      setFormError(problem?.message ?? result.error);
    }
  };

  return (
    <form ref={form} method="post" action="/sign-up" noValidate onSubmit={submit} class="space-y-4">
      {callbackURL !== null && <input type="hidden" name="callbackURL" value={callbackURL} />}
      {formError && <Notice kind="error" title="We could not create your account">{formError}</Notice>}
      <TextField {...textField("name", name, setName)} label="Name" autoComplete="name" required />
      <TextField {...textField("email", email, setEmail)} label="E-mail" type="email" autoComplete="email" required />
      <TextField
        {...textField("password", password, setPassword)}
        label="Password"
        type="password"
        autoComplete="new-password"
        required
        hint="At least 8 characters."
      />
      <SubmitButton busy={busy} label="Create account" busyLabel="Creating account…" worksWithoutScript />
    </form>
  );
}
