/**
 * A claim link verifies only when the person who asked presses "Verify" on its page (docs/decisions.md, Trust,
 * "Verification by domain"): opening it (a mail scanner, a stranger, the claimer) changes nothing; a guest or another
 * account pressing it is refused (403) and changes nothing; the claimer's press needs the page's own origin.
 */
import { assert, assertEquals } from "@/tests/helpers/assert.ts";
import { createTestApp, createTestUser } from "@/tests/helpers/app.ts";
import { postInternship } from "@/tests/fixtures/internships.ts";
import { call, confirmClaim } from "./helpers.ts";

Deno.test("opening a claim link changes nothing; only the claimer's press on Verify verifies", async () => {
  await using t = await createTestApp();
  const admin = await createTestUser(t, "admin");
  const claimer = await createTestUser(t, "user");
  const stranger = await createTestUser(t, "user");
  const listing = await postInternship(t, await createTestUser(t, "member"), { hiringOrganization: "Acme Labs" });
  await call(t, admin, "PATCH", `/api/admin/organizations/${listing.organization!.id}`, { website: "https://acme.in" });
  assertEquals(
    (await call(t, claimer, "POST", "/api/organizations/acme-labs/claim", { email: "hr@acme.in" })).status,
    202,
  );
  await t.settled();
  const link = new URL(t.mails.at(-1)!.link).pathname;
  const verified = async () =>
    (await call(t, undefined, "GET", "/api/organizations/acme-labs")).body.organization.isVerified;

  for (const who of [undefined, stranger, claimer]) {
    const res = await t.fetch(link, { headers: who?.headers });
    const html = await res.text();
    assertEquals(res.status, 200);
    assert(html.includes("Verify Acme Labs") && html.includes("hr@acme.in"), "the page says what is claimed");
    assertEquals(html.includes(`action="${link}"`), who === claimer, "only the claimer sees the button");
  }
  const guestPage = await (await t.fetch(link)).text();
  assert(guestPage.includes(`/sign-in?callbackURL=${encodeURIComponent(link)}`), "a guest is asked to sign in");
  assertEquals(await verified(), false, "opening the link, as anyone, verifies nothing");

  for (const who of [undefined, stranger]) {
    const pressed = await confirmClaim(t, who, link);
    assertEquals(pressed.status, 403);
    assert(pressed.html.includes("Only the account that asked for it can confirm"));
  }
  const foreign = await t.fetch(link, {
    method: "POST",
    headers: {
      cookie: claimer.cookie,
      origin: "https://evil.example",
      "content-type": "application/x-www-form-urlencoded",
    },
    body: "",
  });
  await foreign.body?.cancel();
  assertEquals(foreign.status, 403, "a press from another site is refused");
  assertEquals(await verified(), false);
  assertEquals((await call(t, stranger, "PATCH", "/api/organizations/acme-labs", { about: "x" })).status, 403);

  const pressed = await confirmClaim(t, claimer, link);
  assertEquals(pressed.status, 200);
  assert(pressed.html.includes("Acme Labs is verified"));
  assertEquals(await verified(), true);
  assertEquals((await call(t, claimer, "PATCH", "/api/organizations/acme-labs", { about: "Hi." })).status, 200);
});
