/**
 * "Your data" (`/me/data`, docs/decisions.md, Data rights, "Your data page"): the export read to its person in their
 * language, with titles, amounts in rupees and the résumé's file; guests sent to sign in; a per-person limit of its
 * own, so reading it never uses up the download's.
 */
import { assert, assertEquals } from "@/tests/helpers/assert.ts";
import { createTestUser } from "@/tests/helpers/app.ts";
import { addToolkit, buy, openShop } from "@/tests/fixtures/toolkits.ts";
import { applicant, applyTo, platformInternship } from "@/tests/fixtures/applications.ts";
import { htmlDocument, page } from "@/tests/fixtures/html.ts";
import { translatorFor } from "@/lib/i18n/catalogue.ts";
import { updateUser } from "@/lib/users/users.ts";
import { stillClock } from "@/tests/helpers/clock.ts";
import { PERSON_LIMITS } from "@/lib/platform/rate_limits.ts";

/** Fails unless `text` holds `expected`. */
function assertStringIncludes(text: string, expected: string): void {
  assert(text.includes(expected), `"${expected}" in: ${text}`);
}

/** The figure the page's "Everything else" list gives beside `label`. */
function countBeside(html: string, label: string): string | undefined {
  const rows = [...htmlDocument(html).querySelectorAll("main dl div")];
  return rows.find((row) => row.querySelector("dt")?.textContent?.trim() === label)?.querySelector("dd")?.textContent!;
}

/** The text of `html`'s `main`, spaces collapsed. */
function mainText(html: string): string {
  return htmlDocument(html).querySelector("main")!.textContent!.replace(/\s+/g, " ");
}

Deno.test("Your data names each application and purchase, the résumé and the count of the rest, in English and Hindi", async () => {
  await using shop = await openShop();
  const { t, admin } = shop;
  const internship = await platformInternship(t, admin, { title: "Data Analyst Intern" });
  const student = await applicant(t, "Meera Student");
  await applyTo(t, student, internship);
  const toolkit = await addToolkit(shop, { title: "Interview Kit", price: 499 });
  const { purchaseId } = await buy(shop, student, toolkit.id);
  const saved = await t.json("PUT", `/api/me/saved/internships/${internship.id}`, {
    body: {},
    headers: student.headers,
  });
  assertEquals(saved.status, 200, await saved.clone().text());

  const en = await page(t, "/me/data", student);
  assertEquals(en.res.status, 200);
  const english = mainText(en.html);
  for (const expected of ["Meera Student", student.user.email, "Data Analyst Intern", "Applied", "Interview Kit"]) {
    assertStringIncludes(english, expected);
  }
  assertStringIncludes(english, "₹499 · Paid");
  assertStringIncludes(english, "Applications (1)");
  // The tracker keeps what was applied to beside what was saved: the count says both.
  assertEquals(countBeside(en.html, "Internships and opportunities you saved or applied to"), "1");
  assertEquals(countBeside(en.html, "Organization claims"), "0");
  const links = [...htmlDocument(en.html).querySelectorAll("main a")].map((a) => a.getAttribute("href"));
  for (const href of ["/api/me/export", "/api/me/resume/file", `/purchases/${purchaseId}/receipt`, "/me/tracker"]) {
    assert(links.includes(href), `links to ${href}: ${links.join(" ")}`);
  }
  const file = htmlDocument(en.html).querySelector('main a[href="/api/me/resume/file"]');
  assertEquals(file?.textContent, "resume.pdf", "the résumé's name links to its file");

  await updateUser(t.kv, student.user.id, { language: "hi" });
  const hi = mainText((await page(t, "/me/data", student)).html);
  const th = translatorFor("hi");
  for (const key of ["me.data.title", "me.data.count.saved", "applications.status.applied"] as const) {
    assertStringIncludes(hi, th(key));
  }
  assertStringIncludes(hi, `${th.minorUnits(49900)} · ${th("toolkits.mine.status.paid")}`);
  assert(!hi.includes("Saved internships"), "no English left on the Hindi page");
});

Deno.test("Your data: a guest is sent to sign in; the page has its own limit and spends none of the download's", async () => {
  await using shop = await openShop({ payments: false, rateLimitClock: stillClock() });
  const { t } = shop;
  const guest = await page(t, "/me/data");
  assertEquals(guest.res.status, 302);
  assert(guest.res.headers.get("location")?.startsWith("/sign-in"), guest.res.headers.get("location") ?? "");

  const person = await createTestUser(t);
  let answered = 0;
  for (; answered < 100; answered++) {
    const res = await page(t, "/me/data", person);
    if (res.res.status !== 200) {
      assertEquals(res.res.status, 429);
      break;
    }
  }
  assertEquals(answered, PERSON_LIMITS.data.limit, "the page answers as often as its own limit allows");
  assert(PERSON_LIMITS.data.limit > PERSON_LIMITS.export.limit);
  const download = await t.fetch("/api/me/export", { headers: person.headers });
  assertEquals(download.status, 200, "reading the page used none of the download's reads");
  await download.body?.cancel();
});
