/**
 * The refusals an island's calls can meet are in its text, so `failureMessage` says them in the page's language
 * (docs/decisions.md, Languages, "Field errors").
 */
import { assertEquals } from "@/tests/helpers/assert.ts";
import { translatorFor } from "@/lib/i18n/catalogue.ts";
import { translatorOf } from "@/lib/i18n/translator.ts";
import { failureMessage } from "@/lib/browser/fetch_json.ts";
import { REFUSALS } from "@/lib/refusals.ts";
import { OPPORTUNITY_FORM_TEXT } from "@/islands/OpportunityForm.tsx";

const failure = (status: number, apiError: string) => ({ ok: false as const, status, apiError, fields: [] });

Deno.test("the opportunity form words an edit refused as reviewed meanwhile, or as gone, in Hindi", () => {
  const page = translatorFor("hi");
  const island = translatorOf(page.island(OPPORTUNITY_FORM_TEXT));
  assertEquals(island.refusal(REFUSALS.opportunityReviewed), page("common.refusal.opportunityReviewed"));
  assertEquals(
    failureMessage(island, failure(409, REFUSALS.opportunityReviewed)),
    page("common.refusal.opportunityReviewed"),
  );
  assertEquals(
    failureMessage(island, failure(404, REFUSALS.opportunityNotFound)),
    page("common.refusal.opportunityNotFound"),
  );
});
