/**
 * `/organizations/claim/{token}`: the link of a claim e-mail (docs/decisions.md, Trust, "Verification by domain").
 * Following it within 24 hours, the first time, verifies the organization and makes the person who asked a manager of
 * it; a used, expired or unknown link changes nothing and the page says which (an unknown one with status 404).
 */
import { define } from "@/lib/platform/define.ts";
import { FormCard } from "@/components/FormCard.tsx";
import { PageHead } from "@/components/PageHead.tsx";
import { type ClaimOutcome, followClaim } from "@/lib/organizations/claims.ts";
import { useT } from "@/lib/i18n/context.ts";
import type { Translate } from "@/lib/i18n/translator.ts";

export const handler = define.handlers<ClaimOutcome>({
  async GET(_req, ctx) {
    const outcome = await followClaim(ctx.state.services.kv, ctx.params.token);
    return ctx.render(outcome, { status: outcome.status === "unknown" ? 404 : 200 });
  },
});

/** What each outcome says in `t`'s language: a title and a sentence. */
function wordsOf(t: Translate, outcome: ClaimOutcome): { title: string; lead: string } {
  const name = outcome.organization?.name ?? t("trust.claim.theOrganization");
  switch (outcome.status) {
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
    default:
      return { title: t("trust.claim.invalidTitle"), lead: t("trust.claim.invalidLead") };
  }
}

export default define.page<ClaimOutcome>(function ClaimPage({ data }) {
  const t = useT();
  const { title, lead } = wordsOf(t, data);
  return (
    <FormCard title={title} lead={lead}>
      <PageHead title={title} />
      {data.organization && (
        <p>
          <a href={`/organizations/${data.organization.slug}`} class="font-medium text-indigo-700 underline">
            {t("trust.claim.goTo", { name: data.organization.name })}
          </a>
        </p>
      )}
    </FormCard>
  );
});
