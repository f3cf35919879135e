/**
 * Server side of the listing's URL query: turns what `readListParams` read into the domain's
 * `InternshipQuery`, forgivingly. Pages never fail on a bad link: parameters that do not pass
 * `InternshipQuerySchema` are dropped and named, so the page shows the remaining filters'
 * results with a friendly note (the API answers 400 for the same input, docs/decisions.md, Internships).
 */
import { type InternshipQuery, InternshipQuerySchema } from "@/lib/internships/internships.ts";
import type { ListParams } from "@/lib/browser/internship_query.ts";
import type { Translate } from "@/lib/i18n/translator.ts";

/** The parsed query and the names of the parameters that were ignored because they were invalid. */
export interface ParsedListQuery {
  query: InternshipQuery;
  ignored: string[];
}

/**
 * Parses `params` (plus `extra` string parameters such as the admin flags) into a query,
 * dropping invalid parameters one round at a time.
 */
export function parseListQuery(params: ListParams, extra: Record<string, string> = {}): ParsedListQuery {
  const input: Record<string, string> = { ...extra };
  const { filters } = params;
  if (filters.types.length > 0) input.types = filters.types.join(",");
  for (const name of ["tags", "location", "minStipend", "maxStipend", "search"] as const) {
    if (filters[name]) input[name] = filters[name];
  }
  if (filters.includeClosed) input.includeClosed = "true";
  if (filters.verifiedOnly) input.verifiedOnly = "true";
  if (filters.paidOnly) input.paidOnly = "true";
  if (params.sort) input.sort = params.sort;
  if (params.offset) input.offset = params.offset;
  if (params.limit) input.limit = params.limit;
  const ignored: string[] = [];
  for (;;) {
    const parsed = InternshipQuerySchema.safeParse(input);
    if (parsed.success) return { query: parsed.data, ignored };
    const bad = [...new Set(parsed.error.issues.map((issue) => String(issue.path[0] ?? "")))]
      .filter((name) => name in input);
    if (bad.length === 0) return { query: InternshipQuerySchema.parse({}), ignored };
    for (const name of bad) {
      delete input[name];
      ignored.push(name);
    }
  }
}

/**
 * The friendly note for ignored parameters in `t`'s language, naming each by its catalogue name
 * (`internships.ignored.param.<name>`, the parameter itself when it has none), or undefined when none were ignored.
 */
export function ignoredNote(t: Translate, ignored: string[]): string | undefined {
  if (ignored.length === 0) return undefined;
  const names = ignored.map((name) => {
    const key = `internships.ignored.param.${name}`;
    return t.has(key) ? t.dynamic(key) : name;
  }).join(", ");
  return t("internships.ignored.note", { names });
}
