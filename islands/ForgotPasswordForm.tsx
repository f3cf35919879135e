/**
 * The password-reset request form: `POST /api/auth/forget-password {email, redirectTo:
 * "/reset-password"}` (docs/decisions.md, Auth). The answer never says whether the account exists, so
 * neither does the form: it always confirms in the same words. Without JavaScript (or before it
 * arrives) the form posts to `/forgot-password`, which runs the same flow and comes back with
 * `sentTo` set; `outcome` brings a refused submit's e-mail and sentences.
 */
import { useState } from "preact/hooks";
import { fetchJson } from "@/lib/browser/fetch_json.ts";
import { Notice, SubmitButton, TextField } from "@/components/forms.tsx";
import { useFormSubmit } from "@/lib/browser/use_form_submit.ts";
import { forgotProblems, type FormOutcome } from "@/lib/browser/auth_forms.ts";

export default function ForgotPasswordForm(
  { sentTo: sentBefore, outcome }: { sentTo?: string; outcome?: FormOutcome<"email"> },
) {
  const [email, setEmail] = useState(outcome?.values.email ?? "");
  const [sentTo, setSentTo] = useState(sentBefore ?? "");
  const { form, formError, setFormError, busy, textField, submit: submitForm } = useFormSubmit(["email"] as const, {
    initial: outcome,
  });

  const submit = async (event: Event) => {
    const address = email.trim();
    const result = await submitForm(event, {
      check: () => forgotProblems({ email: address }),
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
    <form ref={form} method="post" action="/forgot-password" noValidate onSubmit={submit} class="space-y-4">
      {formError && <Notice kind="error" title="We could not send the e-mail">{formError}</Notice>}
      <TextField {...textField("email", email, setEmail)} label="E-mail" type="email" autoComplete="email" required />
      <SubmitButton busy={busy} label="Send reset link" busyLabel="Sending…" worksWithoutScript />
    </form>
  );
}
