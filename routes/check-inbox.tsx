/**
 * `/check-inbox?email=&callbackURL=`: after sign-up, tells the user where the verification link
 * went and how long it lives; its sign-in link keeps the page to return to (a same-origin path).
 */
import { FormCard } from "@/components/FormCard.tsx";
import { PageHead } from "@/components/PageHead.tsx";
import { withReturnPage } from "@/lib/browser/same_origin.ts";
import { returnPage } from "@/lib/auth/redirects.ts";
import { define } from "@/lib/platform/define.ts";

export default define.page(function CheckInboxPage({ url, state }) {
  const callbackURL = returnPage(url.searchParams.get("callbackURL"), state.services.config.appUrl);
  const email = url.searchParams.get("email")?.trim().slice(0, 254);
  return (
    <FormCard title="Check your inbox">
      <PageHead title="Check your inbox" />
      <p class="text-slate-700">
        {email
          ? (
            <>
              We sent a verification link to <strong class="font-semibold text-slate-900">{email}</strong>.
            </>
          )
          : "We sent a verification link to your e-mail address."}{" "}
        Open it to verify your e-mail and finish setting up your account. The link expires in 24 hours.
      </p>
      <p class="text-sm text-slate-700">
        No e-mail? Check your spam folder. If the link has expired,{" "}
        <a href={withReturnPage("/sign-in", callbackURL)} class="font-medium text-indigo-700 underline">sign in</a>{" "}
        and we will send you a new one.
      </p>
    </FormCard>
  );
});
