/**
 * Browser-safe: the filters an "Alert me" button saves, read from the query string of the list page it sits on
 * (docs/decisions.md, Alerts). Internships take the list's own parameters (`lib/browser/internship_query.ts`);
 * opportunities their `type` and `search` (or `q`). Empty filters are left out, so the alert's query holds only what
 * the page filters by.
 */
import type { AlertKind } from "@/lib/alerts/alerts.ts";
import { readListParams } from "@/lib/browser/internship_query.ts";

/** The alert filters of `search` (a query string, with or without `?`) for a list of `kind`, without empty ones. */
export function alertQuery(kind: AlertKind, search: string): Record<string, string> {
  const params = new URLSearchParams(search);
  let query: Record<string, string>;
  if (kind === "internships") {
    const { types, tags, location, search, minStipend, maxStipend } = readListParams(params).filters;
    query = { types: types.join(","), tags, location, search, minStipend, maxStipend };
  } else {
    query = { type: params.get("type") ?? "", search: params.get("search") ?? params.get("q") ?? "" };
  }
  return Object.fromEntries(Object.entries(query).filter(([, value]) => value.trim() !== ""));
}
