/**
 * The admin forms show each problem of a submit at the field it concerns, in plain words: the
 * control marked `aria-invalid` and described by its sentence, never one "Label: sentence" line
 * above the form, a field path or zod's wording. Covers the coupon, banner, lesson and post
 * forms and the users table's role control, each refused by the browser check or the server; an article too long to
 * store is refused at its field in English and in Hindi, and the form keeps what was typed.
 */
import { Buffer } from "node:buffer";
import type { Locator, Page } from "playwright-core";
import { assert, assertEquals } from "@/tests/helpers/assert.ts";
import { createTestApp, createTestUser } from "@/tests/helpers/app.ts";
import { assertAccessible, openBrowser, openHydrated, signInBrowser } from "@/tests/helpers/browser.ts";
import { HTTP_VIDEO as HTTP_VIDEO_KEY } from "@/lib/browser/admin_checks.ts";
import { EXPIRY_PASSED as EXPIRY_PASSED_KEY } from "@/lib/browser/coupon_checks.ts";
import { translatorFor } from "@/lib/i18n/catalogue.ts";
import { ROLE_SENTENCE } from "@/lib/users/admin.ts";
import { addCoupon, addToolkit } from "@/tests/fixtures/toolkits.ts";
import { ARTICLE_MAX } from "@/lib/toolkits/limits.ts";
import { PNG } from "@/tests/fixtures/posts.ts";

/** The sentences the coupon and lesson forms say before sending, in English. */
const EXPIRY_PASSED = translatorFor("en")(EXPIRY_PASSED_KEY);
const HTTP_VIDEO = translatorFor("en")(HTTP_VIDEO_KEY);

/** Developer wording: a camelCase name before a colon, zod's default messages, or a "Label: sentence" line. */
const DEVELOPER_WORDING =
  /\b[a-z]+[A-Z]\w*:|Too (small|big)|[Ee]xpected (string|number|a date)|Invalid input|(Expiry|Link url|Title|Role): /;

/** Fails when the page's main content shows developer wording anywhere. */
async function assertPlainWords(page: Page, label: string): Promise<void> {
  const text = await page.locator("main").innerText();
  assert(!DEVELOPER_WORDING.test(text), `${label} shows developer wording: ${text.match(DEVELOPER_WORDING)?.[0]}`);
}

/** Fails unless `control` is marked invalid and described by an error that reads `sentence`. */
async function assertFieldError(control: Locator, sentence: string): Promise<void> {
  const id = await control.getAttribute("id");
  const exactly = new RegExp(`^${sentence.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}$`);
  await control.page().locator(`#${id}-error`, { hasText: exactly }).waitFor();
  assertEquals(await control.getAttribute("aria-invalid"), "true", `#${id} is marked invalid`);
  const describedBy = (await control.getAttribute("aria-describedby")) ?? "";
  assert(describedBy.split(" ").includes(`${id}-error`), `#${id} is described by its error (${describedBy})`);
}

Deno.test("admin forms show each refusal at its field, in plain words", async (t) => {
  await using app = await createTestApp({ listen: true, env: { RATE_LIMITS: "off" } });
  const admin = await createTestUser(app, "admin");
  await createTestUser(app, "member", { name: "Meera Member" });
  await using browser = await openBrowser();
  const context = await browser.newContext();
  await signInBrowser(context, app.origin, admin);
  const page = await context.newPage();
  page.setDefaultTimeout(30_000);

  await t.step("coupon: an expiry in the past, then a code already taken", async () => {
    await addCoupon({ t: app, admin }, { code: "TAKEN", discountType: "percentage", discountValue: 10 });
    await openHydrated(page, `${app.origin}/admin/coupons`);
    await page.getByLabel("Code", { exact: true }).fill("LATE");
    await page.getByLabel("Percent off").fill("10");
    await page.getByLabel("Expires (IST, optional)").fill("2020-01-01T10:00");
    await page.getByRole("button", { name: "Create coupon" }).click();
    await assertFieldError(page.getByLabel("Expires (IST, optional)"), EXPIRY_PASSED);
    await assertPlainWords(page, "coupon form");
    await assertAccessible(page, "coupon form with an error");

    await page.getByLabel("Expires (IST, optional)").fill("");
    await page.getByLabel("Code", { exact: true }).fill("taken");
    await page.getByRole("button", { name: "Create coupon" }).click();
    await assertFieldError(
      page.getByLabel("Code", { exact: true }),
      "Another coupon has this code: choose a different one.",
    );
    assertEquals(await page.locator("#coupon-expiresAt-error").count(), 0, "the earlier error is gone");
    await assertPlainWords(page, "coupon form");
  });

  await t.step("banner: a link that is neither a path nor a web address", async () => {
    await openHydrated(page, `${app.origin}/admin/banners`);
    await page.getByLabel("Title").fill("Summer internships");
    const link = page.getByLabel("Link (a path such as /internships, or an https:// URL)");
    await link.fill("internships");
    await page.getByRole("button", { name: "Add banner" }).click();
    await assertFieldError(link, translatorFor("en")("fields.linkOrPath"));
    await assertPlainWords(page, "banner form");
    await assertAccessible(page, "banner form with an error");
    await link.fill("/internships");
    await page.locator("#banner-image").setInputFiles({
      name: "share.png",
      mimeType: "image/png",
      buffer: Buffer.from(PNG),
    });
    await page.getByText("share.png").waitFor();
    await page.getByRole("button", { name: "Add banner" }).click();
    await page.getByText("“Summer internships” added.").waitFor();
    assertEquals(await page.locator("#banner-image").evaluate((input: HTMLInputElement) => input.files?.length), 0);
    await page.getByText("No image chosen").waitFor();
    await openHydrated(page, `${app.origin}/admin/banners?lang=hi`);
    await page.getByRole("button", { name: "इमेज चुनें" }).waitFor();
    await page.getByText("कोई इमेज नहीं चुनी").waitFor();
    await assertAccessible(page, "banner form in Hindi");
    await openHydrated(page, `${app.origin}/admin/banners?lang=en`); // the next steps read English
  });

  let toolkitId = "";
  await t.step("lesson: an http video, then an address the server refuses", async () => {
    const { id } = await addToolkit({ t: app, admin }, {
      title: "Interview Playbook",
      description: "Everything for a first interview.",
      price: 499,
      isActive: false,
    });
    await openHydrated(page, `${app.origin}/admin/toolkits/${id}`);
    await page.getByLabel("Lesson title").fill("Warm-up");
    await page.getByLabel("Type").selectOption("video");
    await page.getByLabel("Video URL", { exact: true }).fill("http://cdn.example.com/warm-up.mp4");
    await page.getByRole("button", { name: "Add lesson" }).click();
    await assertFieldError(page.getByLabel("Video URL", { exact: true }), HTTP_VIDEO);

    // No scheme: the browser check passes it, the server refuses it with its own sentence.
    await page.getByLabel("Video URL", { exact: true }).fill("cdn.example.com/warm-up.mp4");
    await page.getByRole("button", { name: "Add lesson" }).click();
    await assertFieldError(
      page.getByLabel("Video URL", { exact: true }),
      "Use an https address: an http video does not play on an https site",
    );
    await assertPlainWords(page, "lesson form");
    await assertAccessible(page, "lesson form with an error");
    toolkitId = id;
  });

  await t.step("lesson: an article too long to store, in English and in Hindi; the form keeps it", async () => {
    const article = "<p>" + "न".repeat(ARTICLE_MAX) + "</p>";
    // English last: `?lang=` stays the choice of the pages that follow.
    for (const lang of ["hi", "en"] as const) {
      const words = translatorFor(lang);
      await openHydrated(page, `${app.origin}/admin/toolkits/${toolkitId}?lang=${lang}`);
      await page.locator("#new-lesson-title").fill("लंबा पाठ");
      const content = page.locator("#new-lesson-content");
      await content.fill(article);
      await page.getByRole("button", { name: words("admin.lessons.add") }).click();
      await assertFieldError(content, words("fields.maxChars", { max: ARTICLE_MAX }));
      assertEquals(await content.inputValue(), article, `${lang}: what was typed stays`);
    }
  });

  await t.step("post: an empty title and content, every error at once", async () => {
    await openHydrated(page, `${app.origin}/admin/ungatekeep/new`);
    await page.getByLabel("Tag").selectOption({ index: 1 });
    await page.getByLabel("Link URL").fill("https://example.com/guide");
    await page.getByRole("button", { name: "Create post" }).click();
    await assertFieldError(page.getByLabel("Title", { exact: true }), "Fill in this field.");
    await assertFieldError(page.getByLabel("Content (markdown)"), "Fill in this field.");
    assertEquals(await page.evaluate(() => document.activeElement?.id), "title", "the first field in error has focus");
    await assertPlainWords(page, "post editor");
    await assertAccessible(page, "post editor with errors");
  });

  await t.step("users: a role the server refuses is shown at that user's role control", async () => {
    await openHydrated(page, `${app.origin}/admin/users`);
    const role = page.getByLabel("Role of Meera Member");
    // A role the list does not offer, as a stale or tampered page would send.
    await role.evaluate((select: HTMLSelectElement) => select.add(new Option("owner", "owner")));
    await role.selectOption("owner");
    await page.getByRole("button", { name: "Make owner" }).click();
    await assertFieldError(page.getByLabel("Role of Meera Member"), translatorFor("en")(ROLE_SENTENCE.key));
    // The error is drawn first; the dialog closes in the effect that follows.
    await page.getByRole("dialog").waitFor({ state: "hidden" });
    assertEquals(await page.getByRole("dialog").count(), 0, "the dialog closed");
    await assertPlainWords(page, "users table");
    await assertAccessible(page, "users table with an error");
  });
});
