/**
 * The `/internships` search and filter forms (docs/decisions.md, Internships, "The list page on a phone"). Served as
 * plain GET forms, so the page works without JavaScript. Hydrated, it applies filters as they change (text fields
 * debounced), keeps the URL in step with `history.pushState`/`replaceState` so every result set stays a shareable link,
 * answers the back button, and loads results from `GET /api/internships` without a full reload, hiding "For you" while
 * the results are narrowed, ordered or paged (it shows above the plain list only). The search field sits above
 * everything, always visible; each form carries the other's values as hidden fields, so submitting one keeps the other.
 * The other filters sit in a `<details>` whose summary shows the active filter count. It is served folded and
 * the script never changes that, so the page does not move when it hydrates: below the `lg` breakpoint the summary
 * opens it (natively, also without JavaScript) and a phone shows results on its first screen; from `lg` up, CSS shows
 * its content beside the results whether it is open or not (`::details-content`; a browser without it shows the
 * summary).
 *
 * The results are not part of the island (docs/decisions.md, Islands, "Hydration kept cheap"): the page renders them
 * in `#internship-results` (`components/internships/InternshipResults.tsx`), and the island renders them there again,
 * with that component, which it imports on demand, only once it has loaded new ones. It
 * also answers their order menu and their links to other pages of the list (paging, "Clear filters") in place.
 */
import { h, render } from "preact";
import { useEffect, useRef, useState } from "preact/hooks";
import { failureMessage, fetchJson, refusalPrefixes } from "@/lib/browser/fetch_json.ts";
import { INPUT } from "@/lib/browser/styles.ts";
import {
  type FilterValues,
  FOR_YOU_SLOT_ID,
  isPlainList,
  listPageHref,
  type ListParams,
  listQueryString,
  NO_FILTERS,
  readListParams,
  RESULTS_HEADING_ID,
  RESULTS_ID,
  RESULTS_NOTICE_ID,
} from "@/lib/browser/internship_query.ts";
import { type IslandText, translatorOf } from "@/lib/i18n/translator.ts";
import { IslandTextProvider } from "@/lib/i18n/island_text.ts";
import type { InternshipPage } from "@/lib/internships/internships.ts";
import type { InternshipType } from "@/lib/internships/schema.ts";

/**
 * Props: the parameters read from the URL, whether someone is signed in, the messages. Not the page's results: the page
 * renders them, and the island's props would only carry them again (docs/decisions.md, Islands, "Hydration kept
 * cheap").
 */
export interface InternshipFiltersProps {
  params: ListParams;
  signedIn: boolean;
  /** The messages (`INTERNSHIP_FILTERS_TEXT`): the forms' and those of the results it renders. */
  text: IslandText;
}

/** The messages this island uses (its `text`), the results it renders included. */
export const INTERNSHIP_FILTERS_TEXT = [
  "internships.filters.",
  "internships.results.",
  "internships.type.",
  "internships.timing.",
  "internships.sort.",
  "internships.stipend.",
  "internships.deadline.",
  "internships.card.",
  "internships.save.",
  ...refusalPrefixes("tooManySaved"),
  "trust.verified.word",
  "trust.verified.organization",
  "trust.verified.listing",
  "trust.checked.word",
  "common.pagination.",
  "common.errors.",
  // The field sentences a refused list query can carry (a stipend, a long search, an unknown type or order).
  "fields.format",
  "fields.number",
  "fields.wholeNumber",
  "fields.minNumber",
  "fields.maxChars",
  "fields.maxItems",
  "fields.option",
  "fields.fromList",
] as const;

/** The work types, in the order the form shows them. */
const TYPES: InternshipType[] = ["remote", "hybrid", "onsite"];

/** Delay before typed filters apply, in milliseconds. */
const DEBOUNCE_MS = 300;

const LABEL = "block text-sm font-medium text-slate-800";

/** The results' component, fetched the first time results are loaded, or when the person starts to act. */
const resultsView = () => import("@/components/internships/InternshipResults.tsx");

/** The sections whose server-rendered content was replaced by a render here. */
const rendered = new WeakSet<HTMLElement>();

/** How many of the folded filters are set: each checked box and each filled-in text field counts once. */
function activeFilterCount(filters: FilterValues): number {
  const fields = [filters.tags, filters.location, filters.minStipend, filters.maxStipend];
  const flags = [filters.includeClosed, filters.verifiedOnly, filters.paidOnly].filter(Boolean).length;
  return filters.types.length + fields.filter((value) => value.trim() !== "").length + flags;
}

export default function InternshipFilters({ params, signedIn, text }: InternshipFiltersProps) {
  const t = translatorOf(text);
  const [filters, setFilters] = useState<FilterValues>(params.filters);
  const [sort, setSort] = useState(params.sort);
  const latest = useRef(0);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const typing = useRef<keyof FilterValues | null>(null);
  /** The results last loaded in place (null while the section shows the page's own). */
  const shown = useRef<InternshipPage | null>(null);
  /** The state the results' own controls act on (their listeners are added once). */
  const current = useRef({ filters, sort });
  current.current = { filters, sort };
  const limit = params.limit;

  /**
   * Shows the results of `next`, updating the URL as `history` says; `typed` is the text field being typed in;
   * `focus` moves the focus to the results' heading once they are shown (a page link).
   */
  const load = async (
    next: ListParams,
    history: "push" | "replace" | "none",
    { typed = null, focus = false }: { typed?: keyof FilterValues | null; focus?: boolean } = {},
  ) => {
    clearTimeout(timer.current);
    typing.current = typed;
    const href = listPageHref(next);
    if (history === "push") globalThis.history.pushState(null, "", href);
    if (history === "replace") globalThis.history.replaceState(null, "", href);
    const query = listQueryString(next);
    const id = ++latest.current;
    const section = document.getElementById(RESULTS_ID);
    section?.setAttribute("aria-busy", "true");
    // "For you" sits above the plain list only: a search, filter, order or later page shows its results first.
    const forYou = document.getElementById(FOR_YOU_SLOT_ID);
    if (forYou) forYou.hidden = !isPlainList(next);
    const [res, view] = await Promise.all([
      fetchJson<InternshipPage>(`/api/internships${query ? `?${query}` : ""}`),
      resultsView(),
    ]);
    if (id !== latest.current || !section) return;
    section.removeAttribute("aria-busy");
    let notice: string | undefined;
    if (res.ok) shown.current = { internships: res.data.internships, pagination: res.data.pagination };
    else {
      const labels = Object.fromEntries(
        ["search", "tags", "location", "minStipend", "maxStipend"].map((name) => [
          name,
          t.dynamic(`internships.filters.${name}`),
        ]),
      );
      const message = failureMessage(t, res, labels);
      notice = res.status === 400 ? `${t("internships.filters.invalid")} ${message}` : message;
    }
    // A load that failed while the section shows the page's own results shows its error among them.
    if (!shown.current) {
      const slot = document.getElementById(RESULTS_NOTICE_ID);
      if (slot) render(h(IslandTextProvider, { text }, h(view.ResultsNotice, { notice })), slot);
      return;
    }
    // The first render replaces the server's content (and the islands in it) whole; a control that had the focus in
    // it (the order menu) keeps it.
    const focused = section.contains(document.activeElement) ? document.activeElement?.id : undefined;
    if (!rendered.has(section)) {
      section.textContent = "";
      rendered.add(section);
    }
    const props = { params: next, results: shown.current, notice, signedIn };
    render(h(IslandTextProvider, { text }, h(view.InternshipResults, props)), section);
    const focusOn = focus ? RESULTS_HEADING_ID : focused;
    if (focusOn) document.getElementById(focusOn)?.focus();
  };

  /** Shows the first page of `nextFilters` in the order `nextSort`, with a new history entry. */
  const apply = (nextFilters: FilterValues, nextSort: string) => {
    setFilters(nextFilters);
    setSort(nextSort);
    load({ filters: nextFilters, sort: nextSort, offset: "", limit }, "push");
  };

  useEffect(() => {
    const onPopState = () => {
      const next = readListParams(new URLSearchParams(location.search));
      setFilters(next.filters);
      setSort(next.sort);
      load(next, "none");
    };
    const section = document.getElementById(RESULTS_ID);
    // The order menu and the links of the results, which the page rendered outside the island.
    const onChange = (event: Event) => {
      const target = event.target as HTMLSelectElement;
      if (target.id === "sort") apply(current.current.filters, target.value);
    };
    const onClick = (event: MouseEvent) => {
      const link = (event.target as Element).closest("a");
      if (
        !link || event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey ||
        event.altKey || link.origin !== location.origin || link.pathname !== "/internships"
      ) return;
      event.preventDefault();
      const next = readListParams(new URL(link.href).searchParams);
      const paging = listQueryString({ ...next, offset: "" }) ===
        listQueryString({ ...current.current, offset: "", limit });
      setFilters(next.filters);
      setSort(next.sort);
      load(next, "push", { focus: paging });
    };
    // The results' module is fetched once the person starts to act, so the first change shows without waiting for it.
    const warm = () => void resultsView();
    addEventListener("popstate", onPopState);
    section?.addEventListener("change", onChange);
    section?.addEventListener("click", onClick);
    for (const type of ["pointerdown", "focusin", "keydown"]) addEventListener(type, warm, { once: true });
    return () => {
      removeEventListener("popstate", onPopState);
      section?.removeEventListener("change", onChange);
      section?.removeEventListener("click", onClick);
      for (const type of ["pointerdown", "focusin", "keydown"]) removeEventListener(type, warm);
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
        { typed: field },
      );
    if (field === null) run();
    else timer.current = setTimeout(run, DEBOUNCE_MS);
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

  const textField = (name: "search" | "tags" | "location" | "minStipend" | "maxStipend") => ({
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
      {t.dynamic(`internships.filters.${name}`)}
    </label>
  );

  const active = activeFilterCount(filters);

  return (
    <>
      <form
        id="internship-search"
        method="get"
        action="/internships"
        role="search"
        aria-label={t("internships.filters.searchForm")}
        class="flex items-start gap-2 lg:col-span-2"
        onSubmit={submit}
      >
        <label for="filter-search" class="sr-only">{t("internships.filters.search")}</label>
        <input type="search" placeholder={t("internships.filters.searchPlaceholder")} {...textField("search")} />
        {carry(["search", "sort"], false)}
        <button
          type="submit"
          class="mt-1 shrink-0 rounded-md bg-indigo-700 px-4 py-2 font-medium text-white hover:bg-indigo-800 focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-600 focus-visible:ring-offset-2"
        >
          {t("internships.filters.search")}
        </button>
      </form>
      <section aria-labelledby="filters-heading">
        <details class="group lg:details-content:[content-visibility:visible]">
          <summary class="flex cursor-pointer list-none items-center justify-between gap-3 rounded-lg border border-slate-200 bg-white px-4 py-3 shadow-sm lg:pointer-events-none lg:cursor-default lg:rounded lg:border-0 lg:bg-transparent lg:p-0 lg:shadow-none [&::-webkit-details-marker]:hidden">
            <span class="flex items-center gap-2">
              <h2 id="filters-heading" class="text-lg font-semibold text-slate-900">
                {t("internships.filters.filters")}
              </h2>
              {active > 0 && (
                <span class="rounded-full bg-indigo-50 px-2.5 py-0.5 text-sm font-medium text-indigo-800 ring-1 ring-inset ring-indigo-200">
                  {active} {t("internships.filters.active")}
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
            aria-label={t("internships.filters.filterForm")}
            class="mt-4 space-y-5 rounded-lg border border-slate-200 bg-white p-5 shadow-sm"
            noValidate
            onSubmit={submit}
          >
            {carry(["search", "sort", "limit"], true)}
            <fieldset>
              <legend class={LABEL}>{t("internships.filters.types")}</legend>
              <div class="mt-2 space-y-2">
                {TYPES.map((value) => (
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
                            : filters.types.filter((type) => type !== value),
                        }, null)}
                    />
                    {t.dynamic(`internships.type.${value}`)}
                  </label>
                ))}
              </div>
            </fieldset>
            <div>
              <label for="filter-tags" class={LABEL}>{t("internships.filters.tags")}</label>
              <p id="filter-tags-hint" class="text-sm text-slate-700">{t("internships.filters.tagsHint")}</p>
              <input type="text" aria-describedby="filter-tags-hint" {...textField("tags")} />
            </div>
            <div>
              <label for="filter-location" class={LABEL}>{t("internships.filters.location")}</label>
              <input
                type="text"
                placeholder={t("internships.filters.locationPlaceholder")}
                {...textField("location")}
              />
            </div>
            <fieldset>
              <legend class={LABEL}>{t("internships.filters.stipend")}</legend>
              <div class="mt-1 grid grid-cols-2 gap-3">
                <div>
                  <label for="filter-minStipend" class="text-sm text-slate-700">
                    {t("internships.filters.minimum")}
                  </label>
                  <input type="number" min="0" step="1" inputMode="numeric" {...textField("minStipend")} />
                </div>
                <div>
                  <label for="filter-maxStipend" class="text-sm text-slate-700">
                    {t("internships.filters.maximum")}
                  </label>
                  <input type="number" min="0" step="1" inputMode="numeric" {...textField("maxStipend")} />
                </div>
              </div>
            </fieldset>
            <fieldset>
              <legend class={LABEL}>{t("internships.filters.trust")}</legend>
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
                {t("internships.filters.apply")}
              </button>
              <a href="/internships" onClick={clear} class="text-indigo-700 underline hover:text-indigo-900">
                {t("internships.filters.clear")}
              </a>
            </div>
          </form>
        </details>
      </section>
    </>
  );
}
