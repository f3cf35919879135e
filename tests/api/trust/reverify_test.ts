/**
 * An organization an admin took the verification from stays unverified until an admin verifies it (docs/decisions.md,
 * Trust, "Verification by domain"): its managers cannot move its website to a domain of their own, no claim verifies
 * it (asking or following a link sent before), and a link verifies only while its address is at the website as it is
 * when followed.
 */
import { assert, assertEquals } from "@/tests/helpers/assert.ts";
import { createTestApp, createTestUser, type TestApp, type TestUser } from "@/tests/helpers/app.ts";
import { postInternship } from "@/tests/fixtures/internships.ts";
import { call, confirmClaim } from "./helpers.ts";

const REMOVED = "An admin took this organization's verification away; only an admin can verify it again";

/** Claims Acme Labs as `who` with `email`, and answers the path of the link mailed. */
async function claimLink(t: TestApp, who: TestUser, email: string): Promise<string> {
  assertEquals((await call(t, who, "POST", "/api/organizations/acme-labs/claim", { email })).status, 202);
  await t.settled();
  return new URL(t.mails.at(-1)!.link).pathname;
}

const organization = async (t: TestApp) =>
  (await call(t, undefined, "GET", "/api/organizations/acme-labs")).body.organization;

for (const how of ["a report resolved with hide", "an admin un-verifies it"]) {
  Deno.test(`after ${how}, a manager cannot get the badge back alone`, async () => {
    await using t = await createTestApp();
    const admin = await createTestUser(t, "admin");
    const manager = await createTestUser(t, "member");
    const listing = await postInternship(t, manager, { hiringOrganization: "Acme Labs" });
    const id = listing.organization!.id as string;
    await call(t, admin, "PATCH", `/api/admin/organizations/${id}`, { website: "https://acme.in" });
    assertEquals((await confirmClaim(t, manager, await claimLink(t, manager, "x@acme.in"))).status, 200);
    assertEquals((await organization(t)).isVerified, true);
    const early = await claimLink(t, manager, "y@acme.in");

    if (how === "an admin un-verifies it") {
      const res = await call(t, admin, "PATCH", `/api/admin/organizations/${id}`, { isVerified: false });
      assertEquals(res.status, 200);
    } else {
      const reporter = await createTestUser(t, "user");
      const report = { kind: "organization", id, reason: "fake_or_impersonation", details: "scam" };
      assertEquals((await call(t, reporter, "POST", "/api/reports", report)).status, 201);
      const resolve = { action: "hide", note: "scam" };
      assertEquals(
        (await call(t, admin, "POST", `/api/admin/reports/organization/${id}/resolve`, resolve)).status,
        200,
      );
    }
    const removed = await organization(t);
    assertEquals([removed.isVerified, removed.verifiedDomain, typeof removed.verificationRemovedAt], [
      false,
      null,
      "string",
    ]);

    const moved = await call(t, manager, "PATCH", "/api/organizations/acme-labs", { website: "https://mine.example" });
    assertEquals(moved, { status: 403, body: { error: REMOVED } });
    assertEquals((await call(t, manager, "PATCH", "/api/organizations/acme-labs", { about: "Still us." })).status, 200);
    const asked = await call(t, manager, "POST", "/api/organizations/acme-labs/claim", { email: "z@acme.in" });
    assertEquals(asked, { status: 403, body: { error: REMOVED } });
    const late = await confirmClaim(t, manager, early);
    assert(late.html.includes("An admin must verify this organization"), "a link sent before changes nothing");
    assertEquals((await organization(t)).isVerified, false);
    const shown = await (await t.fetch("/organizations/acme-labs", { headers: manager.headers })).text();
    assert(shown.includes("only an admin can verify it again") && /id="edit-website"[^>]*readonly/.test(shown));

    // An admin verifies it again: the mark goes, and claims work again.
    assertEquals((await call(t, admin, "PATCH", `/api/admin/organizations/${id}`, { isVerified: true })).status, 200);
    const back = await organization(t);
    assertEquals([back.isVerified, back.verificationRemovedAt], [true, undefined]);
  });
}

Deno.test("a link verifies only while its address is at the organization's website as it is now", async () => {
  await using t = await createTestApp();
  const admin = await createTestUser(t, "admin");
  const student = await createTestUser(t, "user");
  const listing = await postInternship(t, await createTestUser(t, "member"), { hiringOrganization: "Acme Labs" });
  const id = listing.organization!.id as string;
  await call(t, admin, "PATCH", `/api/admin/organizations/${id}`, { website: "https://acme.in" });
  const link = await claimLink(t, student, "jo@acme.in");
  await call(t, admin, "PATCH", `/api/admin/organizations/${id}`, { website: "https://acme-group.com" });
  const followed = await confirmClaim(t, student, link);
  assertEquals(followed.status, 200);
  assert(followed.html.includes("This link no longer fits"), "the website moved since the link was sent");
  assertEquals((await organization(t)).isVerified, false);
  assertEquals((await call(t, student, "PATCH", "/api/organizations/acme-labs", { about: "x" })).status, 403);
});
