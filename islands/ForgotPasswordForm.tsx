/**
 * The password-reset request form: `POST /api/auth/forget-password {email, redirectTo:
 * "/reset-password"}` (docs/decisions.md, Auth). The answer never says whether the account exists, so
 * neither does the form: it always confirms in the same words.
 */
import { useState } from "preact/hooks";
import { fetchJson } from "@/lib/browser/fetch_json.ts";
import { Notice, SubmitButton, TextField } from "@/components/forms.tsx";
import { useFormSubmit } from "@/lib/browser/use_form_submit.ts";

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export default function ForgotPasswordForm() {
  const [email, setEmail] = useState("");
  const [sentTo, setSentTo] = useState("");
  const { form, formError, setFormError, busy, textField, submit: submitForm } = useFormSubmit(["email"] as const);

  const submit = async (event: Event) => {
    const address = email.trim();
    const result = await submitForm(event, {
      check: () => EMAIL.test(address) ? {} : { email: "Enter a valid e-mail address, like name@example.com." },
      call: () => fetchJson("/api/auth/forget-password", { body: { email: address, redirectTo: "/reset-password" } }),
    });
    if (!result) return;
    if (result.ok) setSentTo(address);
    else setFormError(result.error);
  };

  if (sentTo) {
    return (
      <Notice kind="success" title="Check your inbox">
        If an account exists for {sentTo}, we sent it a link to reset the password. The link expires in 24 hours.
      </Notice>
    );
  }
  return (
    <form ref={form} method="post" noValidate onSubmit={submit} class="space-y-4">
      {formError && <Notice kind="error" title="We could not send the e-mail">{formError}</Notice>}
      <TextField {...textField("email", email, setEmail)} label="E-mail" type="email" autoComplete="email" required />
      <SubmitButton busy={busy} label="Send reset link" busyLabel="Sending…" />
    </form>
  );
}
