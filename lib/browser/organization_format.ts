/**
 * Browser-safe: an organization's standing in words (docs/decisions.md, Trust, "Organizations"): its track record from
 * its stats (how often and how fast it answers applicants, whether interns were paid as listed, how much it has
 * posted), and whether and why a listing shows the verified badge.
 */
import type { OrganizationStats } from "@/lib/organizations/organizations.ts";
import type { Translate } from "@/lib/i18n/translator.ts";

/** Below this many applications the answer figures say nothing (they are null). */
const MIN_APPLICATIONS = 5;
/** Days an application must be old to count toward the answer figures (`MATURE_DAYS` of the track record). */
const MATURE_DAYS = 7;
/** Below this many stipend answers the reports are not shown (they are all 0). */
const MIN_STIPEND_ANSWERS = 3;

/**
 * The sentences of `name`'s track record in `t`'s language: "Answers 80 % of applicants within 14 days", "Stipend paid
 * as listed: 9 of 10 interns", "12 internships posted here", or, before any figures exist, what the record waits for
 * (applications old enough, interns' answers), which holds whether or not anyone applied yet.
 */
export function trackRecord(t: Translate, name: string, stats: OrganizationStats): string[] {
  const sentences: string[] = [];
  if (stats.applications >= MIN_APPLICATIONS && stats.responseRate !== null) {
    const rate = Math.round(stats.responseRate * 100);
    const days = stats.medianDaysToFirstResponse;
    sentences.push(
      days === null
        ? t("trust.record.answers", { rate })
        : t("trust.record.answersUsually", { rate, days: Math.round(days) }),
    );
  }
  const { yes, partly, no } = stats.stipendReports;
  const answers = yes + partly + no;
  if (answers >= MIN_STIPEND_ANSWERS) sentences.push(t("trust.record.stipend", { yes, answers }));
  if (sentences.length === 0) {
    const waits = { applications: MIN_APPLICATIONS, days: MATURE_DAYS, interns: MIN_STIPEND_ANSWERS };
    sentences.push(t("trust.record.none", { name, ...waits }));
  }
  sentences.push(t("trust.record.posted", { count: stats.internships }));
  return sentences;
}

/** What a verified listing's badge says was verified: its organization, or the listing itself by an admin. */
export type VerifiedBy = "organization" | "listing";

/** Whether a listing shows the badge: the internship itself or its organization is verified. */
export function isVerifiedListing(
  internship: { isVerified: boolean; organization: { isVerified: boolean } | null },
): boolean {
  return internship.isVerified || internship.organization?.isVerified === true;
}

/** What the badge of a verified listing says was verified; its words are the message `trust.verified.<it>`. */
export function verifiedBy(internship: { organization: { isVerified: boolean } | null }): VerifiedBy {
  return internship.organization?.isVerified ? "organization" : "listing";
}
