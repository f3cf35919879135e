/**
 * The demo shows the trust features (docs/decisions.md, Trust): internships linked to organizations, a verified
 * organization whose listings carry the badge, organizations a student can claim (a website, no manager), and a held listing its owner and the admin queue see; seeding twice
 * adds nothing.
 */
import { assert, assertEquals } from "@/tests/helpers/assert.ts";
import { seedDemoData } from "@/lib/demo/seed.ts";
import { HELD_TITLE } from "@/lib/demo/trust.ts";
import { internshipsOfOrganization, listInternships } from "@/lib/internships/internships.ts";
import { InternshipQuerySchema } from "@/lib/internships/schema.ts";
import { organizationProfile } from "@/lib/organizations/organizations.ts";
import { ModerationQuerySchema, moderationQueue } from "@/lib/moderation/admin.ts";
import { getUserByEmail } from "@/lib/users/users.ts";
import { AdminReportQuerySchema, reportedTargets } from "@/lib/reports/reports.ts";
import { translatorFor } from "@/lib/i18n/catalogue.ts";
import { unlinkStrangers } from "@/lib/organizations/unlink.ts";
import { InFlightRequests } from "@/lib/platform/in_flight.ts";

Deno.test("the demo links every internship, verifies one organization, leaves others claimable, holds one listing, has open reports", async () => {
  using kv = await Deno.openKv(":memory:");
  await seedDemoData(kv);
  await seedDemoData(kv);
  const admin = (await getUserByEmail(kv, "admin@demo.careers"))!;
  const recruiter = (await getUserByEmail(kv, "imran.recruiter@demo.careers"))!;
  assertEquals(recruiter.name, "Imran Qureshi", "a name alone: the listing adds its role in the reader's language");
  const all = await listInternships(kv, {
    query: InternshipQuerySchema.parse({ limit: "100", includeInactive: "true", includeClosed: "true" }),
    viewer: admin,
  });
  assert(all.internships.every((internship) => internship.organization !== null), "every listing is linked");
  const zeta = await organizationProfile(kv, { slug: "zeta-fintech" });
  assertEquals([zeta.organization.isVerified, zeta.organization.verifiedDomain], [true, "zetafintech.in"]);
  assert(zeta.internships.length > 0 && zeta.internships.every((i) => i.organization?.isVerified));
  const linked = await internshipsOfOrganization(kv, zeta.organization.id);
  // The organizations-unlink job, a minute apart (unlink, then take applications off), keeps every Zeta listing linked.
  const requests = new InFlightRequests();
  for (const minutes of [1, 3]) {
    await unlinkStrangers({ kv, requests, now: new Date(Date.now() + minutes * 60_000) });
  }
  const afterJob = await internshipsOfOrganization(kv, zeta.organization.id);
  assertEquals(afterJob.length, linked.length, "the job unlinks no Zeta listing");
  assert(new Set(linked.map((record) => record.userId)).size > 2, "listings of the member and both recruiters");
  const claimable = await organizationProfile(kv, { slug: "kisan-connect" });
  assertEquals([claimable.organization.website, claimable.organization.isVerified], ["https://kisanconnect.in", false]);
  const queue = await moderationQueue(kv, ModerationQuerySchema.parse({}));
  assertEquals(queue.items.map((item) => item.listing.title), [HELD_TITLE]);
  const reports = await reportedTargets(kv, AdminReportQuerySchema.parse({}), translatorFor("en"));
  assertEquals(reports.targets.map((target) => target.openReports), [2, 1], "open reports, seeded once");
  const written = reports.targets[0].recentDetails.map((report) => report.details);
  assertEquals(new Set(written).size, 2, `each reporter in their own words: ${written.join(" / ")}`);
});
