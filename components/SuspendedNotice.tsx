/**
 * The sign-in page's notice that the account is suspended, linking to `/contact` to appeal (docs/decisions.md, Admin,
 * "Suspension"); its words are `auth.signIn.suspendedTitle` and `auth.signIn.suspendedText`.
 */
import { Notice } from "@/components/forms.tsx";
import { useT } from "@/lib/i18n/context.ts";

export function SuspendedNotice() {
  const t = useT();
  return (
    <Notice kind="error" title={t("auth.signIn.suspendedTitle")}>
      {t.rich("auth.signIn.suspendedText", {
        link: (chunks) => <a href="/contact" class="font-medium underline">{chunks}</a>,
      })}
    </Notice>
  );
}
