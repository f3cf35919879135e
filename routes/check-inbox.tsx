/**
 * `/check-inbox?email=&callbackURL=`: after sign-up, tells the user where the verification link
 * went and how long it lives; its sign-in link keeps the page to return to (a same-origin path).
 */
import { FormCard } from "@/components/FormCard.tsx";
import { PageHead } from "@/components/PageHead.tsx";
import { withReturnPage } from "@/lib/browser/same_origin.ts";
import { returnPage } from "@/lib/auth/redirects.ts";
import { define } from "@/lib/platform/define.ts";
import { useT } from "@/lib/i18n/context.ts";

export default define.page(function CheckInboxPage({ url, state }) {
  const callbackURL = returnPage(url.searchParams.get("callbackURL"), state.services.config.appUrl);
  const email = url.searchParams.get("email")?.trim().slice(0, 254);
  const t = useT();
  return (
    <FormCard title={t("auth.checkInbox.title")}>
      <PageHead title={t("auth.checkInbox.title")} />
      <p class="text-slate-700">
        {email
          ? t.rich("auth.checkInbox.sentTo", {
            email,
            strong: (chunks) => <strong class="font-semibold text-slate-900">{chunks}</strong>,
          })
          : t("auth.checkInbox.sent")} {t("auth.checkInbox.open")}
      </p>
      <p class="text-sm text-slate-700">
        {t.rich("auth.checkInbox.noMail", {
          link: (chunks) => (
            <a href={withReturnPage("/sign-in", callbackURL)} class="font-medium text-indigo-700 underline">
              {chunks}
            </a>
          ),
        })}
      </p>
    </FormCard>
  );
});
