/**
 * Browser-safe: reports as pages show them (docs/decisions.md, Trust, "Reports"): the catalogue message of each reason
 * as the form offers it, and the link to report something from where it is shown.
 */
import type { ReportKind, ReportReason } from "@/lib/reports/schema.ts";
import type { MessageKey } from "@/lib/i18n/translator.ts";

/** The catalogue messages of the reasons as the report form lists them. */
export const REASON_KEYS: Record<ReportReason, MessageKey> = {
  asks_for_money: "trust.report.reason.asks_for_money",
  fake_or_impersonation: "trust.report.reason.fake_or_impersonation",
  stipend_not_paid: "trust.report.reason.stipend_not_paid",
  closed_or_broken_link: "trust.report.reason.closed_or_broken_link",
  misleading: "trust.report.reason.misleading",
  offensive: "trust.report.reason.offensive",
  spam: "trust.report.reason.spam",
  other: "trust.report.reason.other",
};

/** The page that reports `kind`/`id`, coming back to `back` (a path of this site) afterwards. */
export function reportHref(kind: ReportKind, id: string, back: string): string {
  return `/report?${new URLSearchParams({ kind, id, back })}`;
}
