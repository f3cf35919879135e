/**
 * Browser-safe: the words of reports (docs/decisions.md, Trust, "Reports"): each reason as the form offers it, each
 * admin action as the admin pages name it, and the link to report something from where it is shown.
 */
import type { ReportKind, ReportReason, ResolveAction } from "@/lib/reports/schema.ts";
import type { MessageKey } from "@/lib/i18n/translator.ts";

/** The reasons as the report form lists them, in order. */
export const REASON_LABELS: Record<ReportReason, string> = {
  asks_for_money: "It asks for money (a fee or a deposit)",
  fake_or_impersonation: "It is fake, or pretends to be another organization",
  stipend_not_paid: "The stipend was not paid",
  closed_or_broken_link: "It is closed, or its link does not work",
  misleading: "It is misleading",
  offensive: "It is offensive",
  spam: "It is spam",
  other: "Something else (tell us below)",
};

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

/** The reasons in a few words, for the admin lists. */
export const REASON_SHORT: Record<ReportReason, string> = {
  asks_for_money: "asks for money",
  fake_or_impersonation: "fake or impersonation",
  stipend_not_paid: "stipend not paid",
  closed_or_broken_link: "closed or broken link",
  misleading: "misleading",
  offensive: "offensive",
  spam: "spam",
  other: "other",
};

/** The admin's actions, as the resolve forms offer them. */
export const ACTION_LABELS: Record<ResolveAction, string> = {
  dismiss: "Dismiss: nothing is wrong, keep it",
  hide: "Hide it from students",
  delete: "Delete it",
};

/** The kinds as the pages name them. */
export const KIND_LABELS: Record<ReportKind, string> = {
  internship: "Internship",
  opportunity: "Opportunity",
  organization: "Organization",
  post: "Post",
  comment: "Comment",
};

/** The page that reports `kind`/`id`, coming back to `back` (a path of this site) afterwards. */
export function reportHref(kind: ReportKind, id: string, back: string): string {
  return `/report?${new URLSearchParams({ kind, id, back })}`;
}
