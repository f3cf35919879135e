/**
 * The results of `/internships` (docs/decisions.md, Internships, "The list page on a phone"): the heading, the count
 * sentence, the order menu beside it (it belongs to the search form through its `form` attribute, so without
 * JavaScript "Search" applies it), a note or error, the cards or an empty state, the page links and the RSS link of the
 * same filters. The page renders it in its language inside `#internship-results`; the filter island imports it on
 * demand and renders it there again for the results it loads in place, with its own messages. It has no
 * handlers: its links are plain links to list pages, which the island loads in place when it runs, so the markup works
 * the same before, without and after JavaScript. Browser-safe.
 */
import { InternshipCard } from "@/components/internships/InternshipCard.tsx";
import { Notice } from "@/components/forms.tsx";
import { Pagination } from "@/components/Pagination.tsx";
import { ROW_INPUT } from "@/lib/browser/styles.ts";
import { pagePosition } from "@/lib/browser/pagination.ts";
import {
  DEFAULT_LIMIT,
  feedHref,
  hasFilters,
  listPageHref,
  type ListParams,
  NO_FILTERS,
  RESULTS_HEADING_ID,
  RESULTS_NOTICE_ID,
  SORT_KEYS,
} from "@/lib/browser/internship_query.ts";
import { useT } from "@/lib/i18n/context.ts";
import type { Translate } from "@/lib/i18n/translator.ts";
import type { InternshipPage } from "@/lib/internships/internships.ts";

/** Props: the list's parameters, its page of results, a note or error to show above them, whether someone is signed in. */
export interface InternshipResultsProps {
  params: ListParams;
  results: InternshipPage;
  notice?: string;
  signedIn: boolean;
}

/** The count sentence, e.g. "Showing 1–10 of 34 internships". */
function summary(t: Translate, { internships, pagination }: InternshipPage): string {
  const { offset, total } = pagination;
  if (total === 0) return t("internships.results.none");
  if (internships.length === 0) return t("internships.results.pastEnd", { total });
  return t("internships.results.showing", { from: offset + 1, to: offset + internships.length, total });
}

/** The results' note or error, if any (the content of `#results-notice`). */
export function ResultsNotice({ notice }: { notice?: string }) {
  return notice
    ? (
      <div class="mt-4">
        <Notice kind="error">{notice}</Notice>
      </div>
    )
    : null;
}

/** The results as described in the module docstring (the content of `#internship-results`). */
export function InternshipResults({ params, results, notice, signedIn }: InternshipResultsProps) {
  const t = useT();
  const { filters, sort, limit } = params;
  const { internships, pagination } = results;
  const pageSize = pagination.limit || DEFAULT_LIMIT;
  const prev = pagination.offset > 0 ? Math.max(0, pagination.offset - pageSize) : null;
  const next = pagination.offset + pageSize < pagination.total ? pagination.offset + pageSize : null;
  const at = (offset: number | null) =>
    offset === null ? null : { href: listPageHref({ filters, sort, offset: String(offset), limit }) };
  return (
    <>
      <h2 id={RESULTS_HEADING_ID} tabIndex={-1} class="text-lg font-semibold text-slate-900 focus:outline-none">
        {t("internships.filters.results")}
      </h2>
      <div class="mt-1 flex flex-wrap items-center justify-between gap-x-4 gap-y-2">
        <p role="status" aria-live="polite" class="text-slate-700">{summary(t, results)}</p>
        <div class="flex items-center gap-2">
          <label for="sort" class="text-sm font-medium text-slate-800">{t("internships.filters.sort")}</label>
          <select id="sort" name="sort" form="internship-search" value={sort || "newest"} class={`${ROW_INPUT} py-1.5`}>
            {Object.entries(SORT_KEYS).map(([value, key]) => <option key={value} value={value}>{t(key)}</option>)}
          </select>
        </div>
      </div>
      <div id={RESULTS_NOTICE_ID}>
        <ResultsNotice notice={notice} />
      </div>
      {internships.length > 0
        ? (
          <ul class="mt-4 space-y-4">
            {internships.map((internship) => (
              <li key={internship.id}>
                <InternshipCard internship={internship} signedIn={signedIn} inList />
              </li>
            ))}
          </ul>
        )
        : (
          <div class="mt-4 rounded-lg border border-dashed border-slate-300 bg-white p-8 text-center">
            <p class="font-medium text-slate-900">
              {pagination.total > 0 ? t("internships.filters.pastEnd") : t("internships.filters.noMatch")}
            </p>
            {pagination.total > 0
              ? (
                <a href={at(0)!.href} class="mt-3 inline-block text-indigo-700 underline">
                  {t("internships.filters.firstPage")}
                </a>
              )
              : hasFilters(filters) && (
                <a
                  href={listPageHref({ filters: NO_FILTERS, sort, offset: "", limit })}
                  class="mt-3 inline-block text-indigo-700 underline"
                >
                  {t("internships.filters.clear")}
                </a>
              )}
          </div>
        )}
      <Pagination
        prev={at(prev)}
        next={at(next)}
        position={pagePosition(t, pagination.offset, internships.length, pagination.total)}
        class="mt-6"
      />
      <p class="mt-4 text-sm">
        <a href={feedHref(filters)} class="text-indigo-700 underline hover:text-indigo-900">
          {t("internships.filters.feed")}
        </a>
      </p>
    </>
  );
}
