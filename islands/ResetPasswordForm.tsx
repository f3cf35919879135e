/**
 * The new-password form of a reset link: new password and confirmation, checked in the
 * browser (8 to 128 characters, equal), then `POST /api/auth/reset-password {newPassword,
 * token}` (docs/decisions.md, Auth). A bad, used or expired token (`INVALID_TOKEN`) ends in a message
 * with a link to request a new one; success links to sign-in. Without JavaScript (or before it
 * arrives) the form posts to `/reset-password`, which runs the same reset and comes back with
 * `done`, or with `outcome` carrying its sentences (or the `INVALID_TOKEN` code).
 */
import { useState } from "preact/hooks";
import { fetchJson } from "@/lib/browser/fetch_json.ts";
import { Notice, SubmitButton, TextField } from "@/components/forms.tsx";
import { useFormSubmit } from "@/lib/browser/use_form_submit.ts";
import { authCodeProblem, type FormOutcome, newPasswordProblem, resetProblems } from "@/lib/browser/auth_forms.ts";

const FIELDS = ["newPassword", "confirmPassword"] as const;

/** A refused plain HTML reset: its sentences, or the `INVALID_TOKEN` code. */
export type ResetOutcome = FormOutcome<typeof FIELDS[number]>;

export default function ResetPasswordForm(
  { token, done = false, outcome: refused }: { token: string; done?: boolean; outcome?: ResetOutcome },
) {
  const [newPassword, setNewPassword] = useState("");
  const [confirmPassword, setConfirmPassword] = useState("");
  const [outcome, setOutcome] = useState<"done" | "invalid" | null>(
    done ? "done" : refused?.code === "INVALID_TOKEN" ? "invalid" : null,
  );
  const { form, setErrors, formError, setFormError, busy, textField, submit: submitForm } = useFormSubmit(FIELDS, {
    initial: refused,
  });

  const check = () => resetProblems({ newPassword, confirmPassword });

  const submit = async (event: Event) => {
    const result = await submitForm(event, {
      check,
      call: () => fetchJson("/api/auth/reset-password", { body: { newPassword, token } }),
    });
    if (!result) return;
    if (result.ok) setOutcome("done");
    else if (result.code === "INVALID_TOKEN") setOutcome("invalid");
    else if (result.code === "PASSWORD_TOO_SHORT" || result.code === "PASSWORD_TOO_LONG") {
      setErrors({ newPassword: newPasswordProblem(newPassword) ?? authCodeProblem(result.code)?.message });
    } else setFormError(result.error);
  };

  if (outcome === "done") {
    return (
      <Notice kind="success" title="Your password has been changed">
        You have been signed out everywhere.{" "}
        <a href="/sign-in" class="font-medium underline">Sign in with your new password</a>.
      </Notice>
    );
  }
  if (outcome === "invalid") {
    return (
      <Notice kind="error" title="This reset link has expired or was already used">
        Reset links work once and for 24 hours.{" "}
        <a href="/forgot-password" class="font-medium underline">Request a new link</a>.
      </Notice>
    );
  }
  return (
    <form ref={form} method="post" action="/reset-password" noValidate onSubmit={submit} class="space-y-4">
      <input type="hidden" name="token" value={token} />
      {formError && <Notice kind="error" title="We could not change the password">{formError}</Notice>}
      <TextField
        {...textField("newPassword", newPassword, setNewPassword)}
        label="New password"
        type="password"
        autoComplete="new-password"
        required
        hint="At least 8 characters."
      />
      <TextField
        {...textField("confirmPassword", confirmPassword, setConfirmPassword)}
        label="Confirm new password"
        type="password"
        autoComplete="new-password"
        required
      />
      <SubmitButton busy={busy} label="Change password" busyLabel="Changing password…" worksWithoutScript />
    </form>
  );
}
