/**
 * Browser-safe: an alert in words (docs/decisions.md, Alerts), as the e-mails and `/me/alerts` name it, e.g.
 * "Internships: search data, location Pune"; "All new internships" without filters. Given a translator, in its
 * language (the messages `me.alertWords.*`); without, in English (an island that has no messages yet).
 */
import type { Translate } from "@/lib/i18n/translator.ts";
import type { Alert } from "./alerts.ts";

/** The filter names as people read them. */
const LABELS: Record<string, string> = {
  types: "work type",
  type: "type",
  tags: "tags",
  location: "location",
  search: "search",
  minStipend: "stipend from ₹",
  maxStipend: "stipend up to ₹",
  verifiedOnly: "verified only",
  paidOnly: "paid only",
};

/** Filters that are on or off: named alone when on. */
const FLAGS = new Set(["verifiedOnly", "paidOnly"]);

/** What `alert` watches, in words: in `t`'s language when given. */
export function describeAlert(alert: Pick<Alert, "kind" | "query">, t?: Translate): string {
  if (t) {
    const filters = Object.entries(alert.query).map(([name, value]) => {
      const key = `me.alertWords.filter.${name}`;
      return t.has(key) ? t.dynamic(key, { value: String(value) }) : `${name} ${value}`;
    });
    return filters.length === 0
      ? t("me.alertWords.all", { kind: alert.kind })
      : t("me.alertWords.some", { kind: alert.kind, filters: filters.join(", ") });
  }
  const kind = alert.kind === "internships" ? "Internships" : "Opportunities";
  const filters = Object.entries(alert.query).map(([name, value]) => {
    const label = LABELS[name] ?? name;
    if (FLAGS.has(name)) return label;
    return label.endsWith("₹") ? `${label}${value}` : `${label} ${value}`;
  });
  return filters.length === 0 ? `All new ${alert.kind}` : `${kind}: ${filters.join(", ")}`;
}
