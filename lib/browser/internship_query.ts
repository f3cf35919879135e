/**
 * The listing's URL query, shared by the `/internships` page and its filter island so a filtered
 * page is a shareable link (docs/api.md, Internships). The page accepts what a plain GET form
 * sends (`types` repeated, empty fields) as well as the API's own form (`types` comma-separated);
 * links are always written in the API's form, so the same query string serves `/internships?…` and
 * `/api/internships?…`.
 */
import type { InternshipSort } from "@/lib/internships/schema.ts";

/** The id of the `/internships` page's `<section>` of results, which the filter island renders loaded results into. */
export const RESULTS_ID = "internship-results";

/** The id of the `/internships` page's "For you" block, which the filter island hides once results are narrowed. */
export const FOR_YOU_SLOT_ID = "internships-for-you";

/**
 * The id of the results' note or error (empty when none), where the filter island shows a failed load's error while
 * the results are still the page's own.
 */
export const RESULTS_NOTICE_ID = "results-notice";

/** The id of the results' heading, focused after a page link loads in place. */
export const RESULTS_HEADING_ID = "results-heading";

/** Default page size of the listing (docs/api.md, Internships). */
export const DEFAULT_LIMIT = 10;

/** The filter form's values as typed: text fields stay strings until the server parses them. */
export interface FilterValues {
  types: string[];
  tags: string;
  location: string;
  minStipend: string;
  maxStipend: string;
  search: string;
  /** Closed listings too (`includeClosed=true`). */
  includeClosed: boolean;
  /** Only listings verified themselves or by their organization (`verifiedOnly=true`). */
  verifiedOnly: boolean;
  /** Only listings with a stipend of at least ₹1 (`paidOnly=true`). */
  paidOnly: boolean;
}

/** The filters, order, page position and size read from a URL; `sort`, `limit` and `offset` are raw strings ("" = default). */
export interface ListParams {
  filters: FilterValues;
  /** `deadline` or `stipend`; "" (or `newest`) for newest first. */
  sort: string;
  offset: string;
  limit: string;
}

/** The orders the list offers, in the sort menu's order (docs/decisions.md, Internships, "Sorting"). */
export const SORT_KEYS = {
  newest: "internships.sort.newest",
  deadline: "internships.sort.deadline",
  stipend: "internships.sort.stipend",
} as const satisfies Record<InternshipSort, string>;

/** Filters that match everything. */
export const NO_FILTERS: FilterValues = {
  types: [],
  tags: "",
  location: "",
  minStipend: "",
  maxStipend: "",
  search: "",
  includeClosed: false,
  verifiedOnly: false,
  paidOnly: false,
};

function first(params: URLSearchParams, ...names: string[]): string {
  for (const name of names) {
    const value = params.get(name)?.trim();
    if (value) return value;
  }
  return "";
}

/** Reads the listing parameters of `params`; `q` is accepted for `search`, `types` in both forms. */
export function readListParams(params: URLSearchParams): ListParams {
  const types = params.getAll("types").flatMap((value) => value.split(",")).map((t) => t.trim()).filter(Boolean);
  return {
    filters: {
      types: [...new Set(types)],
      tags: first(params, "tags"),
      location: first(params, "location"),
      minStipend: first(params, "minStipend"),
      maxStipend: first(params, "maxStipend"),
      search: first(params, "search", "q"),
      includeClosed: params.getAll("includeClosed").includes("true"),
      verifiedOnly: params.getAll("verifiedOnly").includes("true"),
      paidOnly: params.getAll("paidOnly").includes("true"),
    },
    sort: first(params, "sort"),
    offset: first(params, "offset"),
    limit: first(params, "limit"),
  };
}

/**
 * The query string (without `?`) of a listing page; empty fields, the default order, offset 0 and the default limit
 * are left out.
 */
export function listQueryString({ filters, sort, offset, limit }: ListParams): string {
  const params = new URLSearchParams();
  if (filters.types.length > 0) params.set("types", filters.types.join(","));
  for (const name of ["tags", "location", "minStipend", "maxStipend", "search"] as const) {
    const value = filters[name].trim();
    if (value) params.set(name, value);
  }
  if (filters.verifiedOnly) params.set("verifiedOnly", "true");
  if (filters.paidOnly) params.set("paidOnly", "true");
  if (filters.includeClosed) params.set("includeClosed", "true");
  if (sort && sort !== "newest") params.set("sort", sort);
  if (offset && offset !== "0") params.set("offset", offset);
  if (limit && limit !== String(DEFAULT_LIMIT)) params.set("limit", limit);
  return params.toString();
}

/** The `/internships` page of `params`, as links write it. */
export function listPageHref(params: ListParams): string {
  const query = listQueryString(params);
  return query ? `/internships?${query}` : "/internships";
}

/**
 * True for the plain list's first page (no filter, the default order, offset and limit), the only page that shows "For
 * you" above the results: a search or a later page shows the results first.
 */
export function isPlainList(params: ListParams): boolean {
  return listQueryString(params) === "";
}

/** True when any filter is set. */
export function hasFilters(filters: FilterValues): boolean {
  return listQueryString({ filters, sort: "", offset: "", limit: "" }) !== "";
}

/** The RSS feed of the newest open internships matching `filters` (`/internships/rss.xml`, the list's own query). */
export function feedHref(filters: FilterValues): string {
  const query = listQueryString({ filters, sort: "", offset: "", limit: "" });
  return query ? `/internships/rss.xml?${query}` : "/internships/rss.xml";
}
