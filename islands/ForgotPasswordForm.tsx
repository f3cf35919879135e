/**
 * The password-reset request form: `POST /api/auth/forget-password {email, redirectTo:
 * "/reset-password"}` (docs/decisions.md, Auth). The answer never says whether the account exists, so
 * neither does the form: it always confirms in the same words. Without JavaScript (or before it
 * arrives) the form posts to `/forgot-password`, which runs the same flow and comes back with
 * `sentTo` set; `outcome` brings a refused submit's e-mail and sentences.
 */
import { useState } from "preact/hooks";
import { failureMessage, fetchJson } from "@/lib/browser/fetch_json.ts";
import { Notice, SubmitButton, TextField } from "@/components/forms.tsx";
import { useFormSubmit } from "@/lib/browser/use_form_submit.ts";
import { authTexts, forgotProblems, type FormOutcome } from "@/lib/browser/auth_forms.ts";
import { useT } from "@/lib/i18n/context.ts";
import { IslandTextProvider } from "@/lib/i18n/island_text.ts";
import type { IslandText } from "@/lib/i18n/translator.ts";

/** The messages this island uses (its `text`). */
export const FORGOT_TEXT = ["auth.forgot.", "auth.field.", "auth.problem.", "common.errors."] as const;

/** Props: the address a plain submit sent the link to, its refusal, and the messages (`FORGOT_TEXT`). */
interface ForgotPasswordFormProps {
  sentTo?: string;
  outcome?: FormOutcome<"email">;
  text: IslandText;
}

export default function ForgotPasswordForm({ text, ...props }: ForgotPasswordFormProps) {
  return (
    <IslandTextProvider text={text}>
      <Form {...props} />
    </IslandTextProvider>
  );
}

function Form({ sentTo: sentBefore, outcome }: Omit<ForgotPasswordFormProps, "text">) {
  const t = useT();
  const [email, setEmail] = useState(outcome?.values.email ?? "");
  const [sentTo, setSentTo] = useState(sentBefore ?? "");
  const { form, formError, setFormError, busy, textField, submit: submitForm } = useFormSubmit(["email"] as const, {
    initial: outcome,
  });

  const submit = async (event: Event) => {
    const address = email.trim();
    const result = await submitForm(event, {
      check: () => authTexts(t, forgotProblems({ email: address })),
      call: () => fetchJson("/api/auth/forget-password", { body: { email: address, redirectTo: "/reset-password" } }),
    });
    if (!result) return;
    if (result.ok) setSentTo(address);
    else setFormError(failureMessage(t, result));
  };

  if (sentTo) {
    return (
      <Notice kind="success" title={t("auth.forgot.sentTitle")}>{t("auth.forgot.sent", { email: sentTo })}</Notice>
    );
  }
  return (
    <form ref={form} method="post" action="/forgot-password" noValidate onSubmit={submit} class="space-y-4">
      {formError && <Notice kind="error" title={t("auth.forgot.errorTitle")}>{formError}</Notice>}
      <TextField
        {...textField("email", email, setEmail)}
        label={t("auth.field.email")}
        type="email"
        autoComplete="email"
        required
      />
      <SubmitButton
        busy={busy}
        label={t("auth.forgot.submit")}
        busyLabel={t("auth.forgot.busy")}
        worksWithoutScript
      />
    </form>
  );
}
