/**
 * Browser-safe: the filters an alert saves, in the list's query-string form (docs/decisions.md, Alerts). An "Alert
 * me" button reads them from the query string of the list page it sits on: internships take the list's own
 * parameters (`lib/browser/internship_query.ts`), opportunities their `type` and `search` (or `q`). An alert's own
 * form (`/me/alerts`) edits the same filters. Values are trimmed and empty ones left out, so the alert's query holds
 * only what the page filters by.
 */
import type { AlertKind } from "@/lib/alerts/alerts.ts";
import { type FilterValues, readListParams } from "@/lib/browser/internship_query.ts";

/** The filters an alert holds: the types as a list, the rest as typed. Opportunities use `types` and `search` only. */
export type AlertFilters =
  & Pick<FilterValues, "types" | "tags" | "location" | "search" | "minStipend" | "maxStipend">
  & Partial<Pick<FilterValues, "verifiedOnly" | "paidOnly">>;

const NO_ALERT_FILTERS: AlertFilters = {
  types: [],
  tags: "",
  location: "",
  search: "",
  minStipend: "",
  maxStipend: "",
};

/**
 * `filters` as the query of an alert of `kind`, by the list's query-string names (internships: `types`, `tags`,
 * `location`, `search`, `minStipend`, `maxStipend`, `verifiedOnly`, `paidOnly`; opportunities: `type`, `search`),
 * trimmed, without empty ones (a flag only when on).
 */
export function alertQueryOf(kind: AlertKind, filters: AlertFilters): Record<string, string> {
  const { types, tags, location, search, minStipend, maxStipend, verifiedOnly, paidOnly } = filters;
  const flag = (on: boolean | undefined) => on ? "true" : "";
  const query: Record<string, string> = kind === "internships"
    ? {
      types: types.join(","),
      tags,
      location,
      search,
      minStipend,
      maxStipend,
      verifiedOnly: flag(verifiedOnly),
      paidOnly: flag(paidOnly),
    }
    : { type: types.join(","), search };
  return Object.fromEntries(
    Object.entries(query).map(([name, value]) => [name, value.trim()]).filter(([, value]) => value !== ""),
  );
}

/** The alert filters of `search` (a query string, with or without `?`) for a list of `kind`, without empty ones. */
export function alertQuery(kind: AlertKind, search: string): Record<string, string> {
  const params = new URLSearchParams(search);
  if (kind === "internships") return alertQueryOf(kind, readListParams(params).filters);
  const type = params.get("type") ?? "";
  return alertQueryOf(kind, {
    ...NO_ALERT_FILTERS,
    types: type ? [type] : [],
    search: params.get("search") ?? params.get("q") ?? "",
  });
}
