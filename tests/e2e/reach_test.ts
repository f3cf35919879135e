/**
 * Reach and rights in Chromium (docs/decisions.md, Search engines and sharing; docs/decisions.md, Data rights): the
 * tags a link preview reads are in the head of internship, opportunity, toolkit and post pages; the legal pages, the
 * API reference and the internship list's feed link; "Download my data" downloads the export; "Delete my account" asks
 * for the e-mail and the password in a dialog and signs the person out. axe-core checks every page.
 */
import { assert, assertEquals } from "@/tests/helpers/assert.ts";
import { createTestApp, createTestUser } from "@/tests/helpers/app.ts";
import { assertAccessible, downloadedText, openBrowser, openHydrated, signInBrowser } from "@/tests/helpers/browser.ts";
import { postInternships } from "@/tests/fixtures/internships.ts";
import { NEXT_YEAR, submitOpportunity } from "@/tests/fixtures/opportunities.ts";
import { addToolkit } from "@/tests/fixtures/toolkits.ts";
import { createPost } from "@/tests/fixtures/posts.ts";
import { createSession } from "@/lib/auth/sessions.ts";
import { hashPassword } from "@/lib/auth/passwords.ts";
import { createUser } from "@/lib/users/users.ts";

/** The head tags a link preview (WhatsApp, LinkedIn, X) reads, as the browser sees them. */
const PREVIEW_TAGS = ["og:title", "og:description", "og:url", "og:image", "og:type", "twitter:card", "description"];

Deno.test("internship, opportunity, toolkit and post pages carry the tags of a share preview", async () => {
  await using t = await createTestApp({ listen: true });
  await using browser = await openBrowser();
  const admin = await createTestUser(t, "admin");
  const [internship] = await postInternships(t, admin, [{ title: "Design Intern" }]);
  const opportunity = await submitOpportunity(t, admin, {
    title: "Open Data Hackathon",
    startDate: `${NEXT_YEAR}-02-01`,
    endDate: `${NEXT_YEAR}-02-02`,
  });
  const toolkit = await addToolkit({ t, admin }, {
    title: "Interview Toolkit",
    description: "Prepare for interviews.",
    price: 299,
  });
  const post = await createPost(t, admin, { title: "Notes from my first internship" });

  const page = await browser.newPage();
  const pages: [string, string, string][] = [
    [`/internships/${internship.id}`, "Design Intern", "JobPosting"],
    [`/opportunities/${opportunity.id}`, "Open Data Hackathon", "Event"],
    [`/toolkits/${toolkit.id}`, "Interview Toolkit", "Course"],
    [`/ungatekeep/${post.id}`, "Notes from my first internship", "Article"],
  ];
  for (const [path, title, type] of pages) {
    await page.goto(`${t.origin}${path}`);
    const head = await page.evaluate((keys) => ({
      tags: Object.fromEntries(keys.map((key) => [
        key,
        document.head.querySelector(`meta[property="${key}"], meta[name="${key}"]`)?.getAttribute("content") ?? null,
      ])),
      canonical: document.head.querySelector('link[rel="canonical"]')?.getAttribute("href"),
      jsonLd: [...document.querySelectorAll('script[type="application/ld+json"]')].map((s) => s.textContent),
    }), PREVIEW_TAGS);
    for (const key of PREVIEW_TAGS) assert(head.tags[key], `${path}: ${key}`);
    assertEquals(head.tags["og:title"], title);
    assertEquals([head.tags["og:url"], head.canonical], [`${t.origin}${path}`, `${t.origin}${path}`]);
    assertEquals(JSON.parse(head.jsonLd[0]!)["@type"], type);
    const image = await page.request.get(head.tags["og:image"]!);
    assertEquals(image.status(), 200, `${path}: the share image loads`);
    await assertAccessible(page, path);
  }
});

Deno.test("the legal pages, the API reference and the list's feed link are reachable and accessible", async () => {
  await using t = await createTestApp({ listen: true, env: { GRIEVANCE_EMAIL: "grievances@example.org" } });
  await using browser = await openBrowser();
  const page = await browser.newPage();
  await page.goto(`${t.origin}/`);
  for (
    const [link, heading] of [
      ["Privacy", "Privacy policy"],
      ["Terms", "Terms of use"],
      ["Cancellation and refunds", "Cancellation and refunds"],
      ["Contact", "Contact us"],
    ]
  ) {
    await page.getByRole("navigation", { name: "Footer" }).getByRole("link", { name: link, exact: true }).click();
    await page.getByRole("heading", { level: 1, name: heading }).waitFor();
    await assertAccessible(page, heading);
  }
  await page.goto(`${t.origin}/privacy`);
  await page.getByRole("heading", { name: "Grievance officer" }).waitFor();
  await page.getByRole("main").getByRole("link", { name: "grievances@example.org" }).waitFor();
  await page.getByRole("contentinfo").getByRole("link", { name: "grievances@example.org" }).waitFor();

  await page.goto(`${t.origin}/api/docs`);
  await page.getByRole("heading", { level: 1, name: "Career Community API" }).waitFor();
  await page.getByRole("heading", { level: 2, name: "Internships" }).waitFor();
  await assertAccessible(page, "/api/docs");

  await openHydrated(page, `${t.origin}/internships`);
  await page.getByLabel("Tags").fill("react");
  await page.waitForURL(`${t.origin}/internships?tags=react`);
  // The results, with their feed link, are drawn again after the address changes.
  const feed = page.getByRole("main").getByRole("link", { name: "RSS feed" });
  await feed.and(page.locator('[href="/internships/rss.xml?tags=react"]')).waitFor();
});

Deno.test("a person downloads their data, then deletes their account and is signed out", async () => {
  await using t = await createTestApp({ listen: true });
  await using browser = await openBrowser();
  const email = "nisha@example.com";
  const user = await createUser(t.kv, {
    name: "Nisha",
    email,
    emailVerified: true,
    role: "user",
    passwordHash: await hashPassword("nisha password 1"),
  });
  const cookie = `session=${(await createSession(t.kv, user.id)).token}`;
  const context = await browser.newContext({ acceptDownloads: true });
  await signInBrowser(context, t.origin, { cookie });
  const page = await context.newPage();
  await openHydrated(page, `${t.origin}/profile`);
  await page.getByRole("heading", { name: "Your data" }).waitFor();
  await assertAccessible(page, "profile: your data");

  const [download] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("link", { name: "Download my data" }).click(),
  ]);
  assert(/^career-community-data-\d{4}-\d{2}-\d{2}\.json$/.test(download.suggestedFilename()));
  const exported = JSON.parse(await downloadedText(download));
  assertEquals(exported.user.email, email);

  await page.getByRole("button", { name: "Delete my account" }).click();
  const dialog = page.getByRole("dialog", { name: "Delete your account?" });
  await dialog.waitFor();
  await assertAccessible(page, "profile: delete dialog");
  await dialog.getByLabel("Your e-mail address").fill(email);
  await dialog.getByLabel("Your password").fill("not my password");
  await dialog.getByRole("button", { name: "Delete my account" }).click();
  await dialog.getByText("Wrong password").waitFor();
  await dialog.getByLabel("Your password").fill("nisha password 1");
  await dialog.getByRole("button", { name: "Delete my account" }).click();
  await page.waitForURL(`${t.origin}/?accountDeleted=1`);
  await page.getByText("Your account has been deleted").waitFor();
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Sign in" }).first().waitFor();
  assertEquals((await context.cookies()).filter((c) => c.name === "session").length, 0);
  await assertAccessible(page, "home after deletion");
  await page.goto(`${t.origin}/profile`);
  await page.waitForURL(/\/sign-in\?callbackURL=%2Fprofile/);
});
