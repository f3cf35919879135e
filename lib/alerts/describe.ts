/**
 * Browser-safe: an alert in words (docs/decisions.md, Alerts), as the e-mails, the home page and `/me/alerts` name it,
 * in the reader's language (the messages `me.alertWords.*`), e.g. "Internships: search data, location Pune"; "All new
 * internships" without filters.
 */
import type { Translate } from "@/lib/i18n/translator.ts";
import type { Alert } from "./alerts.ts";

/** What `alert` watches, in words, in `t`'s language; a filter without a message is named as stored. */
export function describeAlert(alert: Pick<Alert, "kind" | "query">, t: Translate): string {
  const filters = Object.entries(alert.query).map(([name, value]) => {
    const key = `me.alertWords.filter.${name}`;
    return t.has(key) ? t.dynamic(key, { value: String(value) }) : `${name} ${value}`;
  });
  return filters.length === 0
    ? t("me.alertWords.all", { kind: alert.kind })
    : t("me.alertWords.some", { kind: alert.kind, filters: filters.join(", ") });
}
