/**
 * The demo's trust features (`deno task seed`; docs/decisions.md, Trust): the demo internships linked to their
 * organizations, one organization verified by its domain with the demo member and the two recruiters who own demo
 * listings as its managers (its listings keep the badge when the `organizations-unlink` job judges them), three with a website and no manager (a student can claim one), a listing that asks applicants to pay, held: its owner sees why on their page and in "My internships", the
 * admin finds it in `/admin/moderation`; and open reports from the demo students for `/admin/reports`. Idempotent.
 */
import { linkOrganizations } from "@/lib/organizations/link.ts";
import { addManagerOps, getOrganization, organizationBySlug, replaceOrganization } from "@/lib/organizations/store.ts";
import { listInternships } from "@/lib/internships/internships.ts";
import { createInternships } from "@/lib/internships/writes.ts";
import { InternshipCreateSchema, InternshipQuerySchema } from "@/lib/internships/schema.ts";
import { InFlightRequests } from "@/lib/platform/in_flight.ts";
import type { Organization } from "@/lib/organizations/schema.ts";
import { getUserByEmail, type User } from "@/lib/users/users.ts";
import { RECRUITERS } from "./internships.ts";
import { fileReport } from "@/lib/reports/reports.ts";

/** The organization the demo verifies, by its slug, with its website. */
const VERIFIED = { slug: "zeta-fintech", website: "https://zetafintech.in", domain: "zetafintech.in" };

/**
 * Organizations the demo gives a website and nobody verifies, so a student working there can claim one with an address
 * at its host (docs/decisions.md, Trust, "Verification by domain"), by slug.
 */
const CLAIMABLE = [
  { slug: "kisan-connect", website: "https://kisanconnect.in" },
  { slug: "byteloom-labs", website: "https://byteloomlabs.in" },
  { slug: "swasth-health", website: "https://swasthhealth.in" },
];

/** The held listing's title. */
export const HELD_TITLE = "Work-from-home Data Entry Intern";

/**
 * Seeds the trust part for the demo `member` (a manager, and the held listing's poster) and `students` (who report);
 * returns what it did.
 */
export async function seedTrust(
  kv: Deno.Kv,
  { member, students }: { member: User; students: User[] },
): Promise<string[]> {
  const link = await linkOrganizations({ kv, requests: new InFlightRequests(), now: new Date() });
  const lines = [`Organizations: ${link.linked} demo internships linked`];
  const found = await organizationBySlug(kv, VERIFIED.slug);
  if (found && !found.isVerified) {
    const entry = await getOrganization(kv, found.id);
    const now = new Date().toISOString();
    const verified: Organization = {
      ...found,
      website: VERIFIED.website,
      about: "Payments and savings apps for small businesses across India.",
      isVerified: true,
      verifiedDomain: VERIFIED.domain,
      verifiedAt: now,
    };
    // Everyone who owns demo listings manages it (the admin moderates), so the job unlinks none of them.
    const recruiters = await Promise.all(RECRUITERS.map(({ email }) => getUserByEmail(kv, email)));
    const managers = [member, ...recruiters.flatMap((recruiter) => recruiter ?? [])];
    await replaceOrganization(kv, entry as Deno.KvEntry<Organization>, verified, (op) => {
      for (const manager of managers) addManagerOps(op, found.id, manager.id, now);
    });
    lines.push(
      `Organizations: ${found.name} verified by ${VERIFIED.domain}, managed by ${
        managers.map((manager) => manager.email).join(", ")
      }`,
    );
  }
  for (const { slug, website } of CLAIMABLE) {
    const organization = await organizationBySlug(kv, slug);
    if (!organization || organization.website) continue;
    const entry = await getOrganization(kv, organization.id);
    await replaceOrganization(kv, entry as Deno.KvEntry<Organization>, { ...organization, website });
    lines.push(`Organizations: ${organization.name} has its website ${website}, unverified (claimable)`);
  }
  const mine = await listInternships(kv, {
    query: InternshipQuerySchema.parse({ mine: "true", search: "data entry", limit: "100" }),
    viewer: member,
  });
  if (!mine.internships.some((internship) => internship.title === HELD_TITLE)) {
    const [held] = await createInternships(kv, member, [InternshipCreateSchema.parse({
      title: HELD_TITLE,
      hiringOrganization: "QuickEarn Solutions",
      link: "https://quickearn.example.com/apply",
      description: "Earn from home! Selected candidates must pay a registration fee of ₹499 to receive the work kit.",
      stipend: 15000,
      type: "remote",
      location: "Remote",
    })]);
    lines.push(`Moderation: "${held.title}" held (${held.moderation.reasons.join(", ")})`);
  }
  // The newest listings that link elsewhere: the demo's listing taking applications here has its own story.
  const newest = await listInternships(kv, { query: InternshipQuerySchema.parse({ limit: "5" }), viewer: null });
  const reported = newest.internships.filter((internship) => internship.applyMode !== "platform").slice(0, 2);
  // Each student's report in their own words: the admin's queue shows what every reporter wrote.
  const reports = [
    [
      ["misleading", "The stipend on the company site is half of this."],
      ["misleading", "The listing says paid, but the interviewer told me there is no stipend for the first month."],
    ],
    [["spam", null]],
  ] as const;
  let filed = 0;
  for (const [i, internship] of reported.entries()) {
    for (const [j, student] of students.slice(0, reports[i].length).entries()) {
      const [reason, details] = reports[i][j];
      const { created } = await fileReport(kv, student, { kind: "internship", id: internship.id, reason, details });
      if (created) filed++;
    }
  }
  if (filed > 0) lines.push(`Reports: ${filed} open reports from the demo students`);
  return lines;
}
