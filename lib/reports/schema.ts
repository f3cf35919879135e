/**
 * The Report resource (docs/api.md, Trust; docs/decisions.md, Trust, "Reports"): what can be reported and why, the
 * stored report and the answers, and the zod schemas of the report body, the admin queries and the resolution.
 */
import { z } from "zod";
import { TextSchema } from "@/lib/text.ts";

/** What can be reported. */
export const REPORT_KINDS = ["internship", "opportunity", "organization", "post", "comment"] as const;
export type ReportKind = typeof REPORT_KINDS[number];

/** Why, in the order the form lists them. */
export const REPORT_REASONS = [
  "asks_for_money",
  "fake_or_impersonation",
  "stipend_not_paid",
  "closed_or_broken_link",
  "misleading",
  "offensive",
  "spam",
  "other",
] as const;
export type ReportReason = typeof REPORT_REASONS[number];

/** The reasons that only a listing or organization can have: a post or comment pays no stipend and has no link. */
const LISTING_ONLY_REASONS: ReadonlySet<ReportReason> = new Set(["stipend_not_paid", "closed_or_broken_link"]);

/** The reasons the report form offers for `kind`, in the form's order (a post or comment leaves out the listing-only ones). */
export function reasonsFor(kind: ReportKind): readonly ReportReason[] {
  if (kind !== "post" && kind !== "comment") return REPORT_REASONS;
  return REPORT_REASONS.filter((reason) => !LISTING_ONLY_REASONS.has(reason));
}

/** The reasons whose reports, from three different people, hold a listing until an admin decides. */
export const HOLD_REASONS: ReadonlySet<ReportReason> = new Set(["asks_for_money", "fake_or_impersonation"]);
/** How many different people's reports of `HOLD_REASONS` hold a listing. */
export const HOLD_REPORTERS = 3;
/** How many people whose reports of a target were dismissed its summary remembers (the latest), to leave out of holds. */
export const DISMISSED_REPORTERS_MAX = 200;
/**
 * How many mailboxes of a target's open reports that count toward the hold its summary remembers (the latest), so one
 * mailbox counts once; past them, an older reporter's alias could count again, after hundreds of other reporters.
 */
export const HOLD_MAILBOXES_MAX = 200;
/** At most this many reports per person a day. */
export const REPORTS_PER_DAY = 20;
/** The longest `details`, in characters. */
export const DETAILS_MAX = 1000;
/** How many reports' own words the admin list shows of a target (the newest). */
export const RECENT_DETAILS_MAX = 3;
/** The longest of those words the list shows, in characters (cut with an ellipsis; the target's page has them all). */
export const RECENT_DETAILS_LENGTH = 280;

/** What an admin does with a target's open reports. */
export const RESOLVE_ACTIONS = ["dismiss", "hide", "delete"] as const;
export type ResolveAction = typeof RESOLVE_ACTIONS[number];

/**
 * Who removed a reported target other than by resolving its reports (docs/decisions.md, Trust, "Reports of what is
 * removed"): its author (a listing's poster), an admin (a deletion), a suspension (its removal of the author's comments,
 * its hide of their listings), the deletion of the post a comment was under, or an admin's reject of a listing in the
 * moderation queue.
 */
export const REMOVERS = ["author", "admin", "suspension", "post", "moderation"] as const;
export type Remover = typeof REMOVERS[number];

/**
 * How a report was resolved: an admin's action on its reports, or `removed` when what it reported was removed by other
 * means, with who removed it (`by`, only then) and no note.
 */
export interface Resolution {
  action: ResolveAction | "removed";
  by?: Remover;
  note: string | null;
  at: string;
}

/** What a resolution did and when, without its note: what the admin list shows of a resolved target. */
export type Outcome = Omit<Resolution, "note">;

/** The `Outcome` of `resolution` (without a `by` it does not have). */
export function outcomeOf({ action, by, at }: Resolution): Outcome {
  return by ? { action, by, at } : { action, at };
}

/** A report as stored. Times are ISO 8601. */
export interface Report {
  id: string;
  kind: ReportKind;
  targetId: string;
  reason: ReportReason;
  details: string | null;
  status: "open" | "resolved";
  /** The reporter; null once they deleted their account (the report is kept without them). */
  userId: string | null;
  createdAt: string;
  resolvedAt: string | null;
  resolution: Resolution | null;
  /**
   * Whether it counts toward the hold: a reason of `HOLD_REASONS` from someone whose reports of the target were not
   * dismissed before, whose mailbox sent no other counting report of it still open (absent on reports filed before it
   * was kept: its reason alone decides).
   */
  countsToHold?: boolean;
  /**
   * The reporter's mailbox (`mailboxId`: a hash of the canonical address), which the hold counts by; absent on reports
   * filed before it was kept and once the reporter deleted their account.
   */
  mailbox?: string;
}

/** Whether `report` counts toward holding its target (`Report.countsToHold`). */
export function countsToHold(report: Pick<Report, "reason" | "countsToHold">): boolean {
  return report.countsToHold ?? HOLD_REASONS.has(report.reason);
}

/** The kinds a report can hold: listings (docs/decisions.md, Trust, "Reports"). */
const HOLDABLE_KINDS: ReadonlySet<ReportKind> = new Set(["internship", "opportunity"]);

/**
 * Whether `report` is one of money or impersonation of a listing that does not count toward holding it, because an
 * admin dismissed its reporter's earlier report of it (docs/decisions.md, Trust, "Dismissed reporters").
 */
export function notCounted(report: Pick<Report, "kind" | "reason" | "countsToHold">): boolean {
  return HOLDABLE_KINDS.has(report.kind) && HOLD_REASONS.has(report.reason) && !countsToHold(report);
}

/** A report as its reporter reads it (`POST /api/reports`). */
export interface ReportView {
  id: string;
  kind: ReportKind;
  targetId: string;
  reason: ReportReason;
  details: string | null;
  status: "open" | "resolved";
  createdAt: string;
}

/** A report as admins read it: who sent it, and how it was resolved. */
export interface AdminReportView extends ReportView {
  reporter: { id: string; name: string } | null;
  /**
   * Whether it does not count toward holding its listing: its reporter's (or their mailbox's) earlier report of it
   * dismissed, or another open one from their mailbox counting already (`notCounted`).
   */
  notCounted: boolean;
  resolvedAt: string | null;
  resolution: Resolution | null;
}

/** `report` as its reporter reads it. */
export function reportView(report: Report): ReportView {
  const { id, kind, targetId, reason, details, status, createdAt } = report;
  return { id, kind, targetId, reason, details, status, createdAt };
}

/** The longest id a report names (characters): no target with a longer one has reports. */
export const TARGET_ID_MAX = 100;

/** The report body: `details` plain text of at most 1,000 characters, required for `other`. */
export const ReportCreateSchema = z.strictObject({
  kind: z.enum(REPORT_KINDS),
  id: z.string().min(1).max(TARGET_ID_MAX),
  reason: z.enum(REPORT_REASONS),
  details: TextSchema.trim().max(DETAILS_MAX).nullish().transform((text) => text || null),
}).refine((report) => report.reason !== "other" || report.details !== null, {
  path: ["details"],
  message: "fields.reportDetails",
});
export type ReportCreate = z.infer<typeof ReportCreateSchema>;

const integer = (min: number, max: number) =>
  z.string().trim().regex(/^\d+$/, "Expected an integer").transform(Number).pipe(z.number().int().min(min).max(max));

/** `GET /api/admin/reports`: `status` (`open`, the default, or `resolved`), `kind`, `limit` 1–100 (50), `offset`. */
export const AdminReportQuerySchema = z.strictObject({
  status: z.enum(["open", "resolved"]).default("open"),
  kind: z.enum(REPORT_KINDS).optional(),
  limit: integer(1, 100).default(50),
  offset: integer(0, Number.MAX_SAFE_INTEGER).default(0),
});
export type AdminReportQuery = z.infer<typeof AdminReportQuerySchema>;

/** The resolution body: what to do, and a note (plain text, at most 1,000 characters) the reporters and owner read. */
export const ResolveSchema = z.strictObject({
  action: z.enum(RESOLVE_ACTIONS),
  note: TextSchema.trim().max(DETAILS_MAX).nullish().transform((text) => text || null),
});
export type ResolveBody = z.infer<typeof ResolveSchema>;

/** One reported target in the admin list. */
export interface ReportedTarget {
  kind: ReportKind;
  targetId: string;
  title: string;
  /** Its open reports (0 in the resolved view). */
  openReports: number;
  /** Its reports by reason: the open ones, or in the resolved view the resolved ones. */
  reasons: Partial<Record<ReportReason, number>>;
  lastReportedAt: string;
  /**
   * What the newest of those reports that have `details` say, newest first, at most `RECENT_DETAILS_MAX`, each on one
   * line and at most `RECENT_DETAILS_LENGTH` characters (none for a target last reported before they were kept).
   */
  recentDetails: RecentDetails[];
  /**
   * In the resolved view, what resolved its last open reports and when; null in the open view (and when no report of
   * it says).
   */
  outcome: Outcome | null;
}

/** A report's own words as the admin list shows them: its reason, its `details` cut short, when it was sent (ISO). */
export interface RecentDetails {
  reason: ReportReason;
  details: string;
  createdAt: string;
}
