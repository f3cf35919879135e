/**
 * Browser-safe: an alert in words (docs/decisions.md, Alerts), as the e-mails, the home page and `/me/alerts` name it,
 * in the reader's language (the messages `me.alertWords.*`), e.g. "Internships: search data, location Pune, work type
 * Remote or Hybrid, stipend from ₹10,000"; "All new internships" without filters. The types an alert watches are named as the list pages name
 * them (`internships.type.*`, `opportunities.type.*`).
 */
import type { Translate } from "@/lib/i18n/translator.ts";
import type { Alert } from "./alerts.ts";

/** The catalogue prefix of the values of the filters that hold types, by the filter's name. */
const TYPE_PREFIXES: Record<string, string> = { types: "internships.type.", type: "opportunities.type." };

/** The filters that hold rupees, written with grouping as listings write money ("10,000"; the message adds the ₹). */
const RUPEE_FILTERS: ReadonlySet<string> = new Set(["minStipend", "maxStipend"]);

/**
 * A filter's value in words: each type by its name ("Remote or Hybrid"), an amount of rupees grouped ("10,000"),
 * anything else as stored.
 */
function valueWords(t: Translate, name: string, value: unknown): string {
  if (RUPEE_FILTERS.has(name) && value !== "" && Number.isFinite(Number(value))) return t.number(Number(value));
  const prefix = TYPE_PREFIXES[name];
  if (!prefix) return String(value);
  const words = String(value).split(",").map((v) => v.trim()).filter(Boolean)
    .map((v) => t.has(`${prefix}${v}`) ? t.dynamic(`${prefix}${v}`) : v);
  return new Intl.ListFormat(t.locale, { type: "disjunction" }).format(words);
}

/** What `alert` watches, in words, in `t`'s language; a filter without a message is named as stored. */
export function describeAlert(alert: Pick<Alert, "kind" | "query">, t: Translate): string {
  const filters = Object.entries(alert.query).map(([name, value]) => {
    const key = `me.alertWords.filter.${name}`;
    return t.has(key) ? t.dynamic(key, { value: valueWords(t, name, value) }) : `${name} ${value}`;
  });
  return filters.length === 0
    ? t("me.alertWords.all", { kind: alert.kind })
    : t("me.alertWords.some", { kind: alert.kind, filters: filters.join(", ") });
}
