/**
 * `/organizations/claim/{token}`: the link of a claim e-mail (docs/decisions.md, Trust, "Verification by domain").
 * Opening it changes nothing (mail scanners open links): `GET` shows what is claimed, and to the person who asked,
 * signed in, a "Verify" button: a plain form posting here (origin-checked with the session), whose `POST` verifies the
 * organization and makes that person a manager. Anyone else is told to sign in as the account that asked (a `POST` of
 * theirs changes nothing: 403). A used, expired, un-verified by an admin, moved, already managed by someone else or
 * unknown link changes nothing and the page says which (an unknown one with status 404, a managed one 409).
 */
import { define } from "@/lib/platform/define.ts";
import { FormCard } from "@/components/FormCard.tsx";
import { PageHead } from "@/components/PageHead.tsx";
import { SubmitButton } from "@/components/forms.tsx";
import { type ClaimOutcome, claimState, followClaim } from "@/lib/organizations/claims.ts";
import type { Organization } from "@/lib/organizations/schema.ts";
import { useT } from "@/lib/i18n/context.ts";
import type { Translate } from "@/lib/i18n/translator.ts";

/** What the page shows: a claim to confirm (`mine`: by the person signed in), or what confirming did or why not. */
type Shown =
  | { status: "pending"; organization: Organization; email: string; mine: boolean }
  | ClaimOutcome;

interface Data {
  shown: Shown;
  signedIn: boolean;
}

/** The status a page of `shown` is answered with. */
function statusOf(shown: Shown): number {
  if (shown.status === "unknown") return 404;
  if (shown.status === "managed") return 409;
  return shown.status === "notYours" ? 403 : 200;
}

export const handler = define.handlers<Data>({
  async GET(_req, ctx) {
    const state = await claimState(ctx.state.services.kv, ctx.params.token);
    const shown: Shown = state.status === "pending"
      ? {
        status: "pending",
        organization: state.organization,
        email: state.email,
        mine: state.userId === ctx.state.user?.id,
      }
      : state;
    return ctx.render({ shown, signedIn: !!ctx.state.user }, { status: statusOf(shown) });
  },

  async POST(_req, ctx) {
    const userId = ctx.state.user?.id ?? null;
    const shown = await followClaim(ctx.state.services.kv, { token: ctx.params.token, userId });
    return ctx.render({ shown, signedIn: !!ctx.state.user }, { status: statusOf(shown) });
  },
});

/** What each state says in `t`'s language: a title and a sentence. */
function wordsOf(t: Translate, shown: Shown): { title: string; lead: string } {
  const name = shown.organization?.name ?? t("trust.claim.theOrganization");
  switch (shown.status) {
    case "pending":
    case "notYours":
      return {
        title: t("trust.claim.confirmTitle", { name }),
        lead: shown.status === "pending" && shown.mine
          ? t("trust.claim.confirmMine", { name, email: shown.email })
          : t("trust.claim.confirmOthers", { name, email: shown.email }),
      };
    case "verified":
      return { title: t("trust.claim.verifiedTitle", { name }), lead: t("trust.claim.verifiedLead", { name }) };
    case "used":
      return { title: t("trust.claim.usedTitle"), lead: t("trust.claim.usedLead", { name }) };
    case "expired":
      return { title: t("trust.claim.expiredTitle"), lead: t("trust.claim.expiredLead", { name }) };
    case "removed":
      return { title: t("trust.claim.removedTitle"), lead: t("trust.claim.removedLead", { name }) };
    case "moved":
      return { title: t("trust.claim.movedTitle"), lead: t("trust.claim.movedLead", { name }) };
    case "managed":
      return { title: t("trust.claim.managedTitle", { name }), lead: t("trust.claim.managedLead", { name }) };
    default:
      return { title: t("trust.claim.invalidTitle"), lead: t("trust.claim.invalidLead") };
  }
}

export default define.page<Data>(function ClaimPage({ data, url }) {
  const t = useT();
  const { shown } = data;
  const { title, lead } = wordsOf(t, shown);
  const waiting = shown.status === "pending" || shown.status === "notYours";
  return (
    <FormCard title={title} lead={lead}>
      <PageHead title={title} />
      {shown.status === "pending" && shown.mine && (
        <form method="post" action={url.pathname}>
          <SubmitButton
            busy={false}
            label={t("trust.claim.verify", { name: shown.organization.name })}
            busyLabel={t("trust.claim.verifying")}
            worksWithoutScript
          />
        </form>
      )}
      {waiting && !(shown.status === "pending" && shown.mine) && (
        <p class="text-slate-700">
          {data.signedIn ? t("trust.claim.otherAccount") : t.rich("trust.claim.signIn", {
            link: (chunks) => (
              <a
                href={`/sign-in?${new URLSearchParams({ callbackURL: url.pathname })}`}
                class="font-medium text-indigo-700 underline"
              >
                {chunks}
              </a>
            ),
          })}
        </p>
      )}
      {shown.organization && (
        <p>
          <a href={`/organizations/${shown.organization.slug}`} class="font-medium text-indigo-700 underline">
            {t("trust.claim.goTo", { name: shown.organization.name })}
          </a>
        </p>
      )}
    </FormCard>
  );
});
