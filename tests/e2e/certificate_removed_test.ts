/**
 * A certificate link after its holder deleted the account (docs/decisions.md, Money operations, "Certificates"): at
 * 360 px the page says the certificate is no longer available, answers 410 Gone and names no one; an address no
 * certificate ever had is a 404 that says so.
 */
import { assert, assertEquals } from "@/tests/helpers/assert.ts";
import { createTestApp, createTestUser } from "@/tests/helpers/app.ts";
import { assertAccessible, openBrowser } from "@/tests/helpers/browser.ts";
import { issueCertificateOps } from "@/lib/certificates/certificates.ts";
import { phoneContext } from "@/tests/helpers/phone.ts";

Deno.test("a deleted account's certificate link says the certificate is no longer available", async () => {
  await using t = await createTestApp({ listen: true });
  const holder = await createTestUser(t, "user", { name: "Meera Krishnan" });
  const op = t.kv.atomic();
  const certificate = await issueCertificateOps(t.kv, op, {
    learner: { id: holder.user.id, name: holder.user.name },
    toolkit: { id: crypto.randomUUID(), title: "Negotiation Basics" },
    at: new Date().toISOString(),
  });
  assert((await op.commit()).ok && certificate);
  const path = `/certificates/${certificate.id}`;
  assertEquals((await t.fetch(path)).status, 200);

  const deleted = await t.json("DELETE", "/api/me", { body: { confirm: holder.user.email }, headers: holder.headers });
  assertEquals(deleted.status, 200, await deleted.text());
  await t.settled(); // the deletion's job, which the answer does not wait for

  await using browser = await openBrowser();
  const page = await (await phoneContext(browser)).newPage();
  const answer = await page.goto(`${t.origin}${path}`);
  assertEquals(answer?.status(), 410);
  await page.getByRole("heading", { level: 1, name: "This certificate is no longer available" }).waitFor();
  const html = await page.content();
  for (const personal of ["Meera", "Krishnan", "Negotiation Basics", certificate.serial, holder.user.email]) {
    assert(!html.includes(personal), `the page shows nothing of the removed certificate: ${personal}`);
  }
  await assertAccessible(page, "removed certificate at 360 px");

  const unknown = await page.goto(`${t.origin}/certificates/${crypto.randomUUID()}`);
  assertEquals(unknown?.status(), 404);
  await page.getByRole("heading", { level: 1, name: "Certificate not found" }).waitFor();
  await assertAccessible(page, "unknown certificate at 360 px");
});
