/**
 * "For you": the signed-in person's recommended internships (and, on the home page, toolkits), each with the reasons
 * it was picked (docs/decisions.md, Recommendations). Only matches are shown: internships that score more than a
 * nearby place alone (`W_NEARBY`: remote, or elsewhere in the person's state), toolkits above 0; someone whose answers
 * match nothing yet is pointed to onboarding, where they can say what they look for.
 */
import type { InternshipView } from "@/lib/internships/internships.ts";
import type { Recommendation } from "@/lib/recommendations/recommendations.ts";
import { W_NEARBY } from "@/lib/recommendations/weights.ts";
import type { Toolkit } from "@/lib/toolkits/catalog.ts";
import { InternshipCard } from "@/components/internships/InternshipCard.tsx";

/** Props: the recommendations as `recommend` answers them, best first. */
export interface ForYouProps {
  internships: Recommendation<InternshipView>[];
  toolkits?: Recommendation<Toolkit>[];
}

/** The reasons of one recommendation, as one line. */
function Reasons({ reasons }: { reasons: string[] }) {
  return (
    <p class="mt-3 text-sm text-indigo-900">
      <span class="font-medium">Why:</span> {reasons.join(" · ")}
    </p>
  );
}

export function ForYou({ internships, toolkits = [] }: ForYouProps) {
  const matches = internships.filter((r) => r.score > W_NEARBY);
  const kits = toolkits.filter((r) => r.score > 0);
  return (
    <section
      id="for-you"
      aria-labelledby="for-you-heading"
      class="scroll-mt-20 rounded-xl border border-indigo-100 bg-indigo-50/50 p-4 sm:p-6"
    >
      <div class="flex flex-wrap items-baseline justify-between gap-3">
        <h2 id="for-you-heading" class="text-2xl font-bold tracking-tight text-slate-900">For you</h2>
        <a href="/onboarding" class="text-sm font-medium text-indigo-700 underline hover:text-indigo-900">
          Change what you look for
        </a>
      </div>
      {matches.length === 0 && kits.length === 0
        ? (
          <p class="mt-3 text-slate-700">
            Nothing matches your answers yet.{" "}
            <a href="/onboarding" class="text-indigo-700 underline">Tell us your interests and city</a>{" "}
            and we will pick internships, opportunities and toolkits for you.
          </p>
        )
        : (
          <>
            {matches.length > 0 && (
              <ul class="mt-4 grid gap-4 lg:grid-cols-2" aria-label="Internships for you">
                {matches.map(({ listing, reasons }) => (
                  <li key={listing.id} class="*:h-full">
                    <InternshipCard internship={listing} signedIn>
                      <Reasons reasons={reasons} />
                    </InternshipCard>
                  </li>
                ))}
              </ul>
            )}
            {kits.length > 0 && (
              <div class="mt-6">
                <h3 class="font-semibold text-slate-900">Toolkits for you</h3>
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
                      <p class="mt-1 text-sm text-indigo-900">
                        <span class="font-medium">Why:</span> {reasons.join(" · ")}
                      </p>
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
