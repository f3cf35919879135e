/**
 * "For you": the signed-in person's recommended internships (and, on the home page, toolkits), each with the reasons
 * it was picked (docs/decisions.md, Recommendations). Only matches are shown: internships that score more than a
 * nearby place alone (`W_NEARBY`: remote, or elsewhere in the person's state), toolkits above 0; someone whose answers
 * match nothing yet is pointed to onboarding, where they can say what they look for.
 */
import type { InternshipView } from "@/lib/internships/internships.ts";
import type { Recommendation, RecommendationReason } from "@/lib/recommendations/recommendations.ts";
import { W_NEARBY } from "@/lib/recommendations/weights.ts";
import type { Toolkit } from "@/lib/toolkits/catalog.ts";
import { InternshipCard } from "@/components/internships/InternshipCard.tsx";
import { useT } from "@/lib/i18n/context.ts";
import type { Translate } from "@/lib/i18n/translator.ts";
import { choiceLabel } from "@/lib/browser/choice_labels.ts";

/** Props: the recommendations as `recommend` answers them, best first. */
export interface ForYouProps {
  internships: Recommendation<InternshipView>[];
  toolkits?: Recommendation<Toolkit>[];
}

/**
 * A reason in the reader's language: the stored choices (interests, field, struggles) through the catalogue
 * (`choiceLabel`), the person's place and state as written.
 */
function reasonText(t: Translate, reason: RecommendationReason): string {
  switch (reason.code) {
    case "interest":
      return t("home.forYou.reason.interest", { label: choiceLabel(t, reason.label) });
    case "field":
      return t("home.forYou.reason.field", { label: choiceLabel(t, reason.label) });
    case "place":
      return t("home.forYou.reason.place", { place: reason.place });
    case "state":
      return t("home.forYou.reason.state", { state: reason.state });
    case "remote":
      return t("home.forYou.reason.remote");
    case "helpsWith": {
      // The choice sits inside a sentence: its first letter in lower case (Devanagari has none, so Hindi is as is).
      const label = choiceLabel(t, reason.label);
      return t("home.forYou.reason.helpsWith", { label: label.charAt(0).toLowerCase() + label.slice(1) });
    }
  }
}

/** The reasons of one recommendation, as one line. */
function Reasons({ reasons, class: extra }: { reasons: RecommendationReason[]; class: string }) {
  const t = useT();
  return (
    <p class={`${extra} text-sm text-indigo-900`}>
      <span class="font-medium">{t("home.forYou.why")}</span>{" "}
      {reasons.map((reason) => reasonText(t, reason)).join(" · ")}
    </p>
  );
}

export function ForYou({ internships, toolkits = [] }: ForYouProps) {
  const matches = internships.filter((r) => r.score > W_NEARBY);
  const kits = toolkits.filter((r) => r.score > 0);
  const t = useT();
  return (
    <section
      id="for-you"
      aria-labelledby="for-you-heading"
      class="scroll-mt-20 rounded-xl border border-indigo-100 bg-indigo-50/50 p-4 sm:p-6"
    >
      <div class="flex flex-wrap items-baseline justify-between gap-3">
        <h2 id="for-you-heading" class="text-2xl font-bold tracking-tight text-slate-900">
          {t("home.forYou.heading")}
        </h2>
        <a href="/onboarding" class="text-sm font-medium text-indigo-700 underline hover:text-indigo-900">
          {t("home.forYou.change")}
        </a>
      </div>
      {matches.length === 0 && kits.length === 0
        ? (
          <p class="mt-3 text-slate-700">
            {t.rich("home.forYou.empty", {
              link: (chunks) => <a href="/onboarding" class="text-indigo-700 underline">{chunks}</a>,
            })}
          </p>
        )
        : (
          <>
            {matches.length > 0 && (
              <ul class="mt-4 grid gap-4 lg:grid-cols-2" aria-label={t("home.forYou.internships")}>
                {matches.map(({ listing, reasons }) => (
                  <li key={listing.id} class="*:h-full">
                    <InternshipCard internship={listing} signedIn>
                      <Reasons reasons={reasons} class="mt-3" />
                    </InternshipCard>
                  </li>
                ))}
              </ul>
            )}
            {kits.length > 0 && (
              <div class="mt-6">
                <h3 class="font-semibold text-slate-900">{t("home.forYou.toolkits")}</h3>
                <ul class="mt-2 space-y-2">
                  {kits.map(({ listing, reasons }) => (
                    <li
                      key={listing.id}
                      class="rounded-lg border border-slate-200 bg-white p-3 [overflow-wrap:anywhere]"
                    >
                      <a href={`/toolkits/${listing.id}`} class="font-medium text-slate-900 hover:text-indigo-700">
                        {listing.title}
                      </a>
                      {listing.category && <span class="ml-2 text-sm text-slate-700">{listing.category}</span>}
                      <Reasons reasons={reasons} class="mt-1" />
                    </li>
                  ))}
                </ul>
              </div>
            )}
          </>
        )}
    </section>
  );
}
