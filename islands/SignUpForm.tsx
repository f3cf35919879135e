/**
 * The sign-up form. Checks the API's documented client-side rules first ("Authentication" 9:
 * name at least 3 characters, a valid e-mail, password at least 8), then calls
 * `POST /api/auth/sign-up/email` with the verification link's target, onboarding (carrying the
 * page's `callbackURL`, the page to return to afterwards), and on success goes to
 * `/check-inbox?email=...`. Server errors are shown beside the field they concern
 * (docs/decisions.md, Auth codes: `USER_ALREADY_EXISTS` by the e-mail, `PASSWORD_TOO_*` by the password).
 */
import { useState } from "preact/hooks";
import { fetchJson } from "@/lib/browser/fetch_json.ts";
import { onboardingPath, sameOriginTarget, withReturnPage } from "@/lib/browser/same_origin.ts";
import { Notice, SubmitButton, TextField } from "@/components/forms.tsx";
import { type FieldErrors, useFormSubmit } from "@/lib/browser/use_form_submit.ts";

/** Client-side e-mail shape check: something@something.tld, no spaces. */
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

const FIELDS = ["name", "email", "password"] as const;
type Errors = FieldErrors<typeof FIELDS[number]>;

function check(name: string, email: string, password: string): Errors {
  const errors: Errors = {};
  if (name.trim().length < 3) errors.name = "Enter a name of at least 3 characters.";
  if (!EMAIL.test(email.trim())) errors.email = "Enter a valid e-mail address, like name@example.com.";
  if (password.length < 8) errors.password = "Use at least 8 characters.";
  else if (password.length > 128) errors.password = "Use at most 128 characters.";
  return errors;
}

export default function SignUpForm({ callbackURL = null }: { callbackURL?: string | null }) {
  const returnTo = callbackURL === null ? null : sameOriginTarget(callbackURL);
  const [name, setName] = useState("");
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const { form, formError, setFormError, busy, textField, showErrors, submit: submitForm } = useFormSubmit(FIELDS, {
    leaves: true,
  });

  const submit = async (event: Event) => {
    const result = await submitForm(event, {
      check: () => check(name, email, password),
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
    const server: Errors = {};
    if (result.code === "USER_ALREADY_EXISTS") {
      server.email = (
        <>
          An account with this e-mail already exists.{" "}
          <a href={withReturnPage("/sign-in", returnTo)} class="underline">Sign in instead</a>.
        </>
      );
    } else if (result.code === "PASSWORD_TOO_SHORT") server.password = "Use at least 8 characters.";
    else if (result.code === "PASSWORD_TOO_LONG") server.password = "Use at most 128 characters.";
    else setFormError(result.error);
    showErrors(server);
  };

  return (
    <form ref={form} method="post" noValidate onSubmit={submit} class="space-y-4">
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
      <SubmitButton busy={busy} label="Create account" busyLabel="Creating account…" />
    </form>
  );
}
