/**
 * `/organizations/claim/{token}`: the link of a claim e-mail (docs/decisions.md, Trust, "Verification by domain").
 * Following it within 24 hours, the first time, verifies the organization and makes the person who asked a manager of
 * it; a used, expired or unknown link changes nothing and the page says which (an unknown one with status 404).
 */
import { define } from "@/lib/platform/define.ts";
import { FormCard } from "@/components/FormCard.tsx";
import { PageHead } from "@/components/PageHead.tsx";
import { type ClaimOutcome, followClaim } from "@/lib/organizations/claims.ts";

export const handler = define.handlers<ClaimOutcome>({
  async GET(_req, ctx) {
    const outcome = await followClaim(ctx.state.services.kv, ctx.params.token);
    return ctx.render(outcome, { status: outcome.status === "unknown" ? 404 : 200 });
  },
});

/** What each outcome says: a title and a sentence. */
function wordsOf(outcome: ClaimOutcome): { title: string; lead: string } {
  const name = outcome.organization?.name ?? "the organization";
  switch (outcome.status) {
    case "verified":
      return {
        title: `${name} is verified`,
        lead: `You now manage ${name}'s page, and its listings show the verified badge to students.`,
      };
    case "used":
      return {
        title: "This link was already used",
        lead: `Each link works once. ${name} was verified with it; nothing changed now.`,
      };
    case "expired":
      return {
        title: "This link has expired",
        lead: `Links work for 24 hours. Ask for a new one on ${name}'s page; nothing changed.`,
      };
    default:
      return { title: "This link is not valid", lead: "Check that you copied the whole link from the e-mail." };
  }
}

export default define.page<ClaimOutcome>(function ClaimPage({ data }) {
  const { title, lead } = wordsOf(data);
  return (
    <FormCard title={title} lead={lead}>
      <PageHead title={title} />
      {data.organization && (
        <p>
          <a href={`/organizations/${data.organization.slug}`} class="font-medium text-indigo-700 underline">
            Go to {data.organization.name}'s page
          </a>
        </p>
      )}
    </FormCard>
  );
});
