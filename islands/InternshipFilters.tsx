/**
 * The `/internships` search, filter form and results. Server-rendered, the forms are plain GET forms
 * and the pagination plain links, so the page works without JavaScript. Hydrated, it applies
 * filters as they change (text fields debounced), keeps the URL in step with
 * `history.pushState`/`replaceState` so every result set stays a shareable link, answers the
 * back button, and loads results from `GET /api/internships` without a full reload.
 * The search field sits above everything, always visible; the order of the results ("Sort", `sort`: newest, deadline,
 * stipend; docs/decisions.md, Internships, "Sorting") is chosen beside their count and belongs to the search form
 * (`form` attribute), so without JavaScript "Search" applies both. Each form carries the other's values as hidden
 * fields, so submitting one keeps the other. The other filters sit in a `<details>` whose summary shows the active
 * filter count. It is served folded and the script never changes that, so the page does not move when it hydrates:
 * below the `lg` breakpoint the summary opens it (natively, also without JavaScript) and a phone shows results on its
 * first screen; from `lg` up, CSS shows its content beside the results whether it is open or not
 * (`::details-content`; a browser without it shows the summary). One link under the results follows them as an RSS
 * feed.
 */
import { useEffect, useRef, useState } from "preact/hooks";
import { failureText, fetchJson } from "@/lib/browser/fetch_json.ts";
import { Notice } from "@/components/forms.tsx";
import { INPUT, ROW_INPUT } from "@/lib/browser/styles.ts";
import { type PageLink, Pagination } from "@/components/Pagination.tsx";
import { pagePosition } from "@/lib/browser/pagination.ts";
import { InternshipCard } from "@/components/internships/InternshipCard.tsx";
import { showingInternships } from "@/lib/browser/internship_format.ts";
import {
  DEFAULT_LIMIT,
  feedHref,
  type FilterValues,
  hasFilters,
  type ListParams,
  listQueryString,
  NO_FILTERS,
  readListParams,
} from "@/lib/browser/internship_query.ts";
import type { InternshipPage } from "@/lib/internships/internships.ts";
import type { InternshipSort, InternshipType } from "@/lib/internships/schema.ts";

/**
 * Props: the parameters read from the URL, the first page of results, a note about ignored filters, whether
 * someone is signed in (the cards' save buttons), and the form's words in the page's language (`FilterWords`, the
 * sort menu's `SORT_KEYS`, the work types), made from the catalogue on the server so the island carries no messages.
 */
export interface InternshipFiltersProps {
  params: ListParams;
  results: InternshipPage;
  notice?: string;
  signedIn: boolean;
  words: FilterWords;
  sortLabels: Record<InternshipSort, string>;
  typeLabels: Record<InternshipType, string>;
}

/** The island's words by name, each the catalogue message `internships.filters.<name>`. */
export type FilterWords = Record<
  | "search"
  | "searchForm"
  | "searchPlaceholder"
  | "filters"
  | "active"
  | "filterForm"
  | "types"
  | "tags"
  | "tagsHint"
  | "location"
  | "locationPlaceholder"
  | "stipend"
  | "minimum"
  | "maximum"
  | "minStipend"
  | "maxStipend"
  | "trust"
  | "verifiedOnly"
  | "paidOnly"
  | "includeClosed"
  | "apply"
  | "clear"
  | "results"
  | "sort"
  | "pastEnd"
  | "noMatch"
  | "firstPage"
  | "feed"
  | "invalid",
  string
>;

/** Delay before typed filters apply, in milliseconds. */
const DEBOUNCE_MS = 300;

const LABEL = "block text-sm font-medium text-slate-800";

function pageHref(params: ListParams): string {
  const query = listQueryString(params);
  return query ? `/internships?${query}` : "/internships";
}

/** How many of the folded filters are set: each checked box and each filled-in text field counts once. */
function activeFilterCount(filters: FilterValues): number {
  const fields = [filters.tags, filters.location, filters.minStipend, filters.maxStipend];
  const flags = [filters.includeClosed, filters.verifiedOnly, filters.paidOnly].filter(Boolean).length;
  return filters.types.length + fields.filter((value) => value.trim() !== "").length + flags;
}

/** The result count sentence, e.g. "Showing 1–10 of 34 internships". */
function summary({ internships, pagination }: InternshipPage): string {
  const { offset, total } = pagination;
  if (total === 0) return "No internships found";
  if (internships.length === 0) return `No internships on this page (${total} in all)`;
  return showingInternships(offset, internships.length, total);
}

export default function InternshipFilters(
  { params, results: initialResults, notice, signedIn, words, sortLabels, typeLabels }: InternshipFiltersProps,
) {
  const [filters, setFilters] = useState<FilterValues>(params.filters);
  const [sort, setSort] = useState(params.sort);
  const [results, setResults] = useState<InternshipPage>(initialResults);
  const [error, setError] = useState<string | undefined>(notice);
  const [loading, setLoading] = useState(false);
  const latest = useRef(0);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const heading = useRef<HTMLHeadingElement>(null);
  const typing = useRef<keyof FilterValues | null>(null);
  const limit = params.limit;

  /** Shows the results of `next`, updating the URL as `history` says; `typed` is the text field being typed in. */
  const load = async (
    next: ListParams,
    history: "push" | "replace" | "none",
    typed: keyof FilterValues | null = null,
  ) => {
    clearTimeout(timer.current);
    typing.current = typed;
    const href = pageHref(next);
    if (history === "push") globalThis.history.pushState(null, "", href);
    if (history === "replace") globalThis.history.replaceState(null, "", href);
    const query = listQueryString(next);
    const id = ++latest.current;
    setLoading(true);
    const res = await fetchJson<InternshipPage>(`/api/internships${query ? `?${query}` : ""}`);
    if (id !== latest.current) return;
    setLoading(false);
    if (res.ok) {
      setResults({ internships: res.data.internships, pagination: res.data.pagination });
      setError(undefined);
    } else {
      setError(res.status === 400 ? `${words.invalid} ${failureText(res, words)}` : res.error);
    }
  };

  useEffect(() => {
    const onPopState = () => {
      const next = readListParams(new URLSearchParams(location.search));
      setFilters(next.filters);
      setSort(next.sort);
      load(next, "none");
    };
    addEventListener("popstate", onPopState);
    return () => {
      removeEventListener("popstate", onPopState);
      clearTimeout(timer.current);
    };
  }, []);

  /**
   * Applies changed filters: at once with a new history entry, or after a typing pause. The
   * first pause in a text field adds a history entry; later pauses in the same field replace it.
   */
  const change = (patch: Partial<FilterValues>, field: keyof FilterValues | null) => {
    const next = { ...filters, ...patch };
    setFilters(next);
    clearTimeout(timer.current);
    const run = () =>
      load(
        { filters: next, sort, offset: "", limit },
        field !== null && typing.current === field ? "replace" : "push",
        field,
      );
    if (field === null) run();
    else timer.current = setTimeout(run, DEBOUNCE_MS);
  };

  const goToOffset = (offset: number) => (event: MouseEvent) => {
    event.preventDefault();
    load({ filters, sort, offset: String(offset), limit }, "push").then(() => heading.current?.focus());
  };

  /** The link to the page at `offset` (none when null), loaded in place when clicked. */
  const pageLink = (offset: number | null): PageLink | null =>
    offset === null
      ? null
      : { href: pageHref({ filters, sort, offset: String(offset), limit }), onClick: goToOffset(offset) };

  /** Shows the first page of `nextFilters` in the order `nextSort`, with a new history entry. */
  const apply = (nextFilters: FilterValues, nextSort: string) => {
    setFilters(nextFilters);
    setSort(nextSort);
    load({ filters: nextFilters, sort: nextSort, offset: "", limit }, "push");
  };

  const clear = (event: Event) => {
    event.preventDefault();
    apply(NO_FILTERS, sort);
  };

  /**
   * Hidden fields that carry the list's current query (as links write it) into a plain form submit: the parameters
   * `names` when `keep`, else all but those.
   */
  const carry = (names: string[], keep: boolean) =>
    [...new URLSearchParams(listQueryString({ filters, sort, offset: "", limit }))]
      .filter(([name]) => names.includes(name) === keep)
      .map(([name, value]) => <input key={name} type="hidden" name={name} value={value} />);

  /** Applies both forms' values in place of a plain submit. */
  const submit = (event: Event) => {
    event.preventDefault();
    apply(filters, sort);
  };

  const { internships, pagination } = results;
  const pageSize = pagination.limit || DEFAULT_LIMIT;
  const prev = pagination.offset > 0 ? Math.max(0, pagination.offset - pageSize) : null;
  const next = pagination.offset + pageSize < pagination.total ? pagination.offset + pageSize : null;
  const text = (name: "search" | "tags" | "location" | "minStipend" | "maxStipend") => ({
    id: `filter-${name}`,
    name,
    value: filters[name],
    class: INPUT,
    onInput: (e: Event) => change({ [name]: (e.currentTarget as HTMLInputElement).value }, name),
  });

  /** A checkbox of the folded filters that applies at once. */
  const flag = (name: "verifiedOnly" | "paidOnly" | "includeClosed") => (
    <label class="flex items-center gap-2 text-slate-800">
      <input
        type="checkbox"
        name={name}
        value="true"
        checked={filters[name]}
        class="h-4 w-4 accent-indigo-700"
        onChange={(e) => change({ [name]: e.currentTarget.checked }, null)}
      />
      {words[name]}
    </label>
  );

  const active = activeFilterCount(filters);

  return (
    <div class="space-y-6">
      <form
        id="internship-search"
        method="get"
        action="/internships"
        role="search"
        aria-label={words.searchForm}
        class="flex items-start gap-2"
        onSubmit={submit}
      >
        <label for="filter-search" class="sr-only">{words.search}</label>
        <input type="search" placeholder={words.searchPlaceholder} {...text("search")} />
        {carry(["search", "sort"], false)}
        <button
          type="submit"
          class="mt-1 shrink-0 rounded-md bg-indigo-700 px-4 py-2 font-medium text-white hover:bg-indigo-800 focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-600 focus-visible:ring-offset-2"
        >
          {words.search}
        </button>
      </form>
      <div class="grid gap-6 lg:grid-cols-[18rem_1fr] lg:gap-8">
        <section aria-labelledby="filters-heading">
          <details class="group lg:details-content:[content-visibility:visible]">
            <summary class="flex cursor-pointer list-none items-center justify-between gap-3 rounded-lg border border-slate-200 bg-white px-4 py-3 shadow-sm lg:pointer-events-none lg:cursor-default lg:rounded lg:border-0 lg:bg-transparent lg:p-0 lg:shadow-none [&::-webkit-details-marker]:hidden">
              <span class="flex items-center gap-2">
                <h2 id="filters-heading" class="text-lg font-semibold text-slate-900">{words.filters}</h2>
                {active > 0 && (
                  <span class="rounded-full bg-indigo-50 px-2.5 py-0.5 text-sm font-medium text-indigo-800 ring-1 ring-inset ring-indigo-200">
                    {active} {words.active}
                  </span>
                )}
              </span>
              <svg
                aria-hidden="true"
                viewBox="0 0 20 20"
                class="h-5 w-5 fill-current text-slate-600 group-open:rotate-180 lg:hidden"
              >
                <path d="M5.2 7.5 10 12.3l4.8-4.8 1.1 1.1-5.9 5.9-5.9-5.9Z" />
              </svg>
            </summary>
            <form
              method="get"
              action="/internships"
              role="search"
              aria-label={words.filterForm}
              class="mt-4 space-y-5 rounded-lg border border-slate-200 bg-white p-5 shadow-sm"
              onSubmit={submit}
            >
              {carry(["search", "sort", "limit"], true)}
              <fieldset>
                <legend class={LABEL}>{words.types}</legend>
                <div class="mt-2 space-y-2">
                  {Object.entries(typeLabels).map(([value, label]) => (
                    <label key={value} class="flex items-center gap-2 text-slate-800">
                      <input
                        type="checkbox"
                        name="types"
                        value={value}
                        checked={filters.types.includes(value)}
                        class="h-4 w-4 accent-indigo-700"
                        onChange={(e) =>
                          change({
                            types: e.currentTarget.checked
                              ? [...filters.types, value]
                              : filters.types.filter((t) =>
                                t !== value
                              ),
                          }, null)}
                      />
                      {label}
                    </label>
                  ))}
                </div>
              </fieldset>
              <div>
                <label for="filter-tags" class={LABEL}>{words.tags}</label>
                <p id="filter-tags-hint" class="text-sm text-slate-700">{words.tagsHint}</p>
                <input type="text" aria-describedby="filter-tags-hint" {...text("tags")} />
              </div>
              <div>
                <label for="filter-location" class={LABEL}>{words.location}</label>
                <input type="text" placeholder={words.locationPlaceholder} {...text("location")} />
              </div>
              <fieldset>
                <legend class={LABEL}>{words.stipend}</legend>
                <div class="mt-1 grid grid-cols-2 gap-3">
                  <div>
                    <label for="filter-minStipend" class="text-sm text-slate-700">{words.minimum}</label>
                    <input type="number" min="0" step="1" inputMode="numeric" {...text("minStipend")} />
                  </div>
                  <div>
                    <label for="filter-maxStipend" class="text-sm text-slate-700">{words.maximum}</label>
                    <input type="number" min="0" step="1" inputMode="numeric" {...text("maxStipend")} />
                  </div>
                </div>
              </fieldset>
              <fieldset>
                <legend class={LABEL}>{words.trust}</legend>
                <div class="mt-2 space-y-2">
                  {flag("verifiedOnly")}
                  {flag("paidOnly")}
                </div>
              </fieldset>
              {flag("includeClosed")}
              <div class="flex flex-wrap items-center gap-3">
                <button
                  type="submit"
                  class="rounded-md bg-indigo-700 px-4 py-2 font-medium text-white hover:bg-indigo-800 focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-600 focus-visible:ring-offset-2"
                >
                  {words.apply}
                </button>
                <a href="/internships" onClick={clear} class="text-indigo-700 underline hover:text-indigo-900">
                  {words.clear}
                </a>
              </div>
            </form>
          </details>
        </section>

        <section aria-labelledby="results-heading" aria-busy={loading ? "true" : undefined}>
          <h2
            id="results-heading"
            ref={heading}
            tabIndex={-1}
            class="text-lg font-semibold text-slate-900 focus:outline-none"
          >
            {words.results}
          </h2>
          <div class="mt-1 flex flex-wrap items-center justify-between gap-x-4 gap-y-2">
            <p role="status" aria-live="polite" class="text-slate-700">{summary(results)}</p>
            <div class="flex items-center gap-2">
              <label for="sort" class="text-sm font-medium text-slate-800">{words.sort}</label>
              <select
                id="sort"
                name="sort"
                form="internship-search"
                value={sort || "newest"}
                onChange={(e) => apply(filters, e.currentTarget.value)}
                class={`${ROW_INPUT} py-1.5`}
              >
                {Object.entries(sortLabels).map(([value, label]) => <option key={value} value={value}>{label}</option>)}
              </select>
            </div>
          </div>
          {error && (
            <div class="mt-4">
              <Notice kind="error">{error}</Notice>
            </div>
          )}
          {internships.length > 0
            ? (
              <ul class={`mt-4 space-y-4 ${loading ? "opacity-60" : ""}`}>
                {internships.map((internship) => (
                  <li key={internship.id}>
                    <InternshipCard internship={internship} signedIn={signedIn} />
                  </li>
                ))}
              </ul>
            )
            : (
              <div class="mt-4 rounded-lg border border-dashed border-slate-300 bg-white p-8 text-center">
                <p class="font-medium text-slate-900">
                  {pagination.total > 0 ? words.pastEnd : words.noMatch}
                </p>
                {pagination.total > 0
                  ? (
                    <a
                      href={pageHref({ filters, sort, offset: "", limit })}
                      onClick={goToOffset(0)}
                      class="mt-3 inline-block text-indigo-700 underline"
                    >
                      {words.firstPage}
                    </a>
                  )
                  : hasFilters(filters) && (
                    <a href="/internships" onClick={clear} class="mt-3 inline-block text-indigo-700 underline">
                      {words.clear}
                    </a>
                  )}
              </div>
            )}
          <Pagination
            prev={pageLink(prev)}
            next={pageLink(next)}
            position={pagePosition(null, pagination.offset, internships.length, pagination.total)}
            class="mt-6"
          />
          <p class="mt-4 text-sm">
            <a href={feedHref(filters)} class="text-indigo-700 underline hover:text-indigo-900">
              {words.feed}
            </a>
          </p>
        </section>
      </div>
    </div>
  );
}
