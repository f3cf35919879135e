/** `/forgot-password`: asks for the e-mail to send a password-reset link to. */
import { FormCard } from "@/components/FormCard.tsx";
import { PageHead } from "@/components/PageHead.tsx";
import ForgotPasswordForm from "@/islands/ForgotPasswordForm.tsx";

export default function ForgotPasswordPage() {
  return (
    <FormCard title="Reset your password" lead="Enter the e-mail of your account and we will send you a reset link.">
      <PageHead title="Forgot your password" />
      <ForgotPasswordForm />
      <p class="text-sm text-slate-700">
        Remembered it? <a href="/sign-in" class="font-medium text-indigo-700 underline">Sign in</a>
      </p>
    </FormCard>
  );
}
