/**
 * The password-reset request form: `POST /api/auth/forget-password {email, redirectTo:
 * "/reset-password"}` (CONTRACT.md §2). The answer never says whether the account exists, so
 * neither does the form: it always confirms in the same words.
 */
import { useState } from "preact/hooks";
import { fetchJson } from "../components/fetch_json.ts";
import { Notice, SubmitButton, TextField } from "../components/forms.tsx";

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export default function ForgotPasswordForm() {
  const [email, setEmail] = useState("");
  const [error, setError] = useState("");
  const [formError, setFormError] = useState("");
  const [sentTo, setSentTo] = useState("");
  const [busy, setBusy] = useState(false);

  const submit = async (event: Event) => {
    event.preventDefault();
    setFormError("");
    const address = email.trim();
    if (!EMAIL.test(address)) {
      setError("Enter a valid e-mail address, like name@example.com.");
      (event.currentTarget as HTMLFormElement).querySelector<HTMLInputElement>("#email")?.focus();
      return;
    }
    setError("");
    setBusy(true);
    const result = await fetchJson("/api/auth/forget-password", {
      body: { email: address, redirectTo: "/reset-password" },
    });
    setBusy(false);
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
    <form method="post" noValidate onSubmit={submit} class="space-y-4">
      {formError && <Notice kind="error" title="We could not send the e-mail">{formError}</Notice>}
      <TextField
        id="email"
        label="E-mail"
        type="email"
        autoComplete="email"
        required
        value={email}
        error={error}
        onInput={(e) => setEmail(e.currentTarget.value)}
      />
      <SubmitButton busy={busy} label="Send reset link" busyLabel="Sending…" />
    </form>
  );
}
