/**
 * Browser-safe: an organization's standing in words (docs/decisions.md, Trust, "Organizations"): its track record from
 * its stats (how often and how fast it answers applicants, whether interns were paid as listed, how much it has
 * posted), and whether and why a listing shows the verified badge.
 */
import type { OrganizationStats } from "@/lib/organizations/organizations.ts";

/** Below this many applications the answer figures say nothing (they are null). */
const MIN_APPLICATIONS = 5;
/** Below this many stipend answers the reports are not shown (they are all 0). */
const MIN_STIPEND_ANSWERS = 3;

/**
 * The sentences of `name`'s track record: "Answers 80 % of applicants within 14 days", "Stipend paid as listed: 9 of
 * 10 interns", "12 internships posted here", or, before any figures exist, what the record will show.
 */
export function trackRecord(name: string, stats: OrganizationStats): string[] {
  const sentences: string[] = [];
  if (stats.applications >= MIN_APPLICATIONS && stats.responseRate !== null) {
    const days = stats.medianDaysToFirstResponse;
    sentences.push(
      `Answers ${Math.round(stats.responseRate * 100)} % of applicants within 14 days` +
        (days !== null ? `, usually in ${days === 1 ? "1 day" : `${Math.round(days)} days`}` : ""),
    );
  }
  const { yes, partly, no } = stats.stipendReports;
  const answers = yes + partly + no;
  if (answers >= MIN_STIPEND_ANSWERS) {
    sentences.push(`Stipend paid as listed: ${yes} of ${answers} ${answers === 1 ? "intern" : "interns"}`);
  }
  if (sentences.length === 0) {
    sentences.push(
      `No track record yet: once students apply to ${name} here, this shows how often and how fast it answers, ` +
        "and whether interns were paid as listed.",
    );
  }
  sentences.push(
    stats.internships === 1 ? "1 internship posted here" : `${stats.internships} internships posted here`,
  );
  return sentences;
}

/** Whether a listing shows the badge: the internship itself or its organization is verified. */
export function isVerifiedListing(
  internship: { isVerified: boolean; organization: { isVerified: boolean } | null },
): boolean {
  return internship.isVerified || internship.organization?.isVerified === true;
}

/** What the badge of a verified listing says. */
export function verifiedLabel(internship: { isVerified: boolean; organization: { isVerified: boolean } | null }) {
  return internship.organization?.isVerified ? "the organization is verified" : "an admin checked this listing";
}
