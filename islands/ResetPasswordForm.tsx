/**
 * The new-password form of a reset link: new password and confirmation, checked in the
 * browser (8 to 128 characters, equal), then `POST /api/auth/reset-password {newPassword,
 * token}` (docs/decisions.md, Auth). A bad, used or expired token (`INVALID_TOKEN`) ends in a message
 * with a link to request a new one; success links to sign-in. Without JavaScript (or before it
 * arrives) the form posts to `/reset-password`, which runs the same reset and comes back with
 * `done`, or with `outcome` carrying its sentences (or the `INVALID_TOKEN` code).
 */
import { useState } from "preact/hooks";
import { failureMessage, fetchJson } from "@/lib/browser/fetch_json.ts";
import { Notice, SubmitButton, TextField } from "@/components/forms.tsx";
import { useFormSubmit } from "@/lib/browser/use_form_submit.ts";
import {
  authCodeProblem,
  authText,
  authTexts,
  type FormOutcome,
  newPasswordProblem,
  resetProblems,
} from "@/lib/browser/auth_forms.ts";
import { useT } from "@/lib/i18n/context.ts";
import { IslandTextProvider } from "@/lib/i18n/island_text.ts";
import type { IslandText } from "@/lib/i18n/translator.ts";

/** The messages this island uses (its `text`). */
export const RESET_TEXT = ["auth.reset.", "auth.field.", "auth.problem.", "common.errors."] as const;

const FIELDS = ["newPassword", "confirmPassword"] as const;

/** A refused plain HTML reset: its sentences, or the `INVALID_TOKEN` code. */
export type ResetOutcome = FormOutcome<typeof FIELDS[number]>;

/** Props: the link's token, whether the change is done, a plain submit's refusal, the messages (`RESET_TEXT`). */
interface ResetPasswordFormProps {
  token: string;
  done?: boolean;
  outcome?: ResetOutcome;
  text: IslandText;
}

export default function ResetPasswordForm({ text, ...props }: ResetPasswordFormProps) {
  return (
    <IslandTextProvider text={text}>
      <Form {...props} />
    </IslandTextProvider>
  );
}

function Form({ token, done = false, outcome: refused }: Omit<ResetPasswordFormProps, "text">) {
  const t = useT();
  const [newPassword, setNewPassword] = useState("");
  const [confirmPassword, setConfirmPassword] = useState("");
  const [outcome, setOutcome] = useState<"done" | "invalid" | null>(
    done ? "done" : refused?.code === "INVALID_TOKEN" ? "invalid" : null,
  );
  const { form, setErrors, formError, setFormError, busy, textField, submit: submitForm } = useFormSubmit(FIELDS, {
    initial: refused,
  });

  const check = () => authTexts(t, resetProblems({ newPassword, confirmPassword }));

  const submit = async (event: Event) => {
    const result = await submitForm(event, {
      check,
      call: () => fetchJson("/api/auth/reset-password", { body: { newPassword, token } }),
    });
    if (!result) return;
    if (result.ok) setOutcome("done");
    else if (result.code === "INVALID_TOKEN") setOutcome("invalid");
    else if (result.code === "PASSWORD_TOO_SHORT" || result.code === "PASSWORD_TOO_LONG") {
      const key = newPasswordProblem(newPassword) ?? authCodeProblem(result.code)?.key;
      setErrors({ newPassword: key && authText(t, key) });
    } else setFormError(failureMessage(t, result));
  };

  if (outcome === "done") {
    return (
      <Notice kind="success" title={t("auth.reset.doneTitle")}>
        {t.rich("auth.reset.done", {
          link: (chunks) => <a href="/sign-in" class="font-medium underline">{chunks}</a>,
        })}
      </Notice>
    );
  }
  if (outcome === "invalid") {
    return (
      <Notice kind="error" title={t("auth.reset.invalidTitle")}>
        {t.rich("auth.reset.invalid", {
          link: (chunks) => <a href="/forgot-password" class="font-medium underline">{chunks}</a>,
        })}
      </Notice>
    );
  }
  return (
    <form ref={form} method="post" action="/reset-password" noValidate onSubmit={submit} class="space-y-4">
      <input type="hidden" name="token" value={token} />
      {formError && <Notice kind="error" title={t("auth.reset.errorTitle")}>{formError}</Notice>}
      <TextField
        {...textField("newPassword", newPassword, setNewPassword)}
        label={t("auth.reset.newPassword")}
        type="password"
        autoComplete="new-password"
        required
        hint={authText(t, "auth.field.passwordHint")}
      />
      <TextField
        {...textField("confirmPassword", confirmPassword, setConfirmPassword)}
        label={t("auth.reset.confirm")}
        type="password"
        autoComplete="new-password"
        required
      />
      <SubmitButton
        busy={busy}
        label={t("auth.reset.submit")}
        busyLabel={t("auth.reset.busy")}
        worksWithoutScript
      />
    </form>
  );
}
