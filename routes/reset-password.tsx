/**
 * `/reset-password?token=`: the page a reset e-mail links to (docs/decisions.md, Auth). Without a
 * token it explains that the link is incomplete and offers to request a new one.
 */
import { FormCard } from "@/components/FormCard.tsx";
import { Notice } from "@/components/forms.tsx";
import { PageHead } from "@/components/PageHead.tsx";
import ResetPasswordForm from "@/islands/ResetPasswordForm.tsx";
import type { PageProps } from "@/lib/web/types.ts";

export default function ResetPasswordPage({ url }: PageProps) {
  const token = url.searchParams.get("token")?.slice(0, 512);
  return (
    <FormCard title="Choose a new password">
      <PageHead title="Choose a new password" />
      {token ? <ResetPasswordForm token={token} /> : (
        <Notice kind="error" title="This reset link is incomplete">
          Open the link from the e-mail again, or{" "}
          <a href="/forgot-password" class="font-medium underline">request a new link</a>.
        </Notice>
      )}
    </FormCard>
  );
}
