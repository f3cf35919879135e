/**
 * What a resolution of reports did, in words (docs/decisions.md, Trust, "Reports"), as the admin's reports pages say
 * it: who removed the target when it went without an admin's decision on the reports, else the admin's decision (an
 * organization's "hide" takes its verified badge away).
 */
import type { Outcome, ReportKind } from "@/lib/reports/schema.ts";
import { useT } from "@/lib/i18n/context.ts";

export function ResolutionWords({ kind, outcome: { action, by } }: { kind: ReportKind; outcome: Outcome }) {
  const t = useT();
  if (by) return <>{t.dynamic(`admin.reports.removedBy.${by}`)}</>;
  const words = action === "removed" ? "delete" : kind === "organization" && action === "hide" ? "unverify" : action;
  return <>{t.dynamic(`admin.reports.outcome.${words}`)}</>;
}
