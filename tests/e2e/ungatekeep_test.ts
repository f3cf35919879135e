/**
 * The Ungatekeep feed in Chromium: an admin writes a pinned post with two uploaded images in the
 * editor (live preview, upload thumbnails) and four more posts; a guest sees the pinned post first,
 * three cards and a prompt saying 2 posts are hidden; after signing in, every post. The feed,
 * banner carousel moves by button and arrow key; the admin deletes a post after confirming. The feed (with its carousel), post, admin
 * table, editor and banners pages pass the axe-core check.
 */
import { Buffer } from "node:buffer";
import type { Page } from "playwright-core";
import { assertEquals, assertMatch } from "@/tests/helpers/assert.ts";
import { createTestApp, createTestUser, type TestApp } from "@/tests/helpers/app.ts";
import { assertAccessible, openBrowser, openHydrated, signInBrowser } from "@/tests/helpers/browser.ts";
import { gradientPng } from "@/lib/demo/images.ts";

async function writePost(page: Page, t: TestApp, title: string, options: { pinned?: boolean; images?: number } = {}) {
  await openHydrated(page, `${t.origin}/admin/ungatekeep/new`);
  await page.getByLabel("Title", { exact: true }).fill(title);
  await page.getByLabel("Tag", { exact: true }).selectOption("resources");
  await page.getByLabel("Content (markdown)").fill(`**${title}** opening line\nSecond line of ${title}\n\nMore text.`);
  await page.locator("#preview-title + div strong").filter({ hasText: title }).waitFor();
  if (options.images) {
    const files = Array.from({ length: options.images }, (_, i) => ({
      name: `photo-${i + 1}.png`,
      mimeType: "image/png",
      buffer: Buffer.from(gradientPng({ width: 64, height: 32, from: [20 * i, 40, 200], to: [240, 120, 20] })),
    }));
    await page.getByLabel("Add images").setInputFiles(files);
    for (const file of files) await page.getByAltText(`Uploaded image ${file.name}`).waitFor();
  }
  if (options.pinned) await page.getByLabel("Pinned to the top").check();
  await page.getByRole("button", { name: "Create post" }).click();
  await page.waitForURL((u) => u.pathname === "/admin/ungatekeep" && u.searchParams.has("saved"));
}

Deno.test("an admin publishes a pinned post with two images and four others; a guest sees three and the hidden count; a user sees all; the banner carousel moves by button and arrow key; a post is deleted after confirming", async () => {
  await using t = await createTestApp({ listen: true });
  const admin = await createTestUser(t, "admin");
  await using browser = await openBrowser();
  const adminContext = await browser.newContext();
  await signInBrowser(adminContext, t.origin, admin);
  const page = await adminContext.newPage();

  await openHydrated(page, `${t.origin}/admin/ungatekeep/new`);
  await assertAccessible(page, "/admin/ungatekeep/new");
  for (let i = 1; i <= 4; i++) await writePost(page, t, `Regular post ${i}`);
  await writePost(page, t, "Pinned guide", { pinned: true, images: 2 });
  assertEquals(await page.locator("tbody tr").count(), 5);
  await assertAccessible(page, "/admin/ungatekeep");

  for (const [i, title] of ["First banner", "Second banner"].entries()) {
    await t.json("POST", "/api/admin/banners", {
      body: { title, linkUrl: "/internships", orderIndex: i },
      headers: admin.headers,
    });
  }
  await openHydrated(page, `${t.origin}/admin/banners`);
  await page.getByRole("button", { name: "Delete Second banner" }).waitFor();
  await page.getByText("An order is saved when you leave its box").waitFor();
  const second = page.getByRole("listitem").filter({ hasText: "Second banner" });
  await second.getByRole("spinbutton", { name: "Order" }).fill("3");
  await second.getByRole("spinbutton", { name: "Order" }).blur();
  await second.getByText("Saved", { exact: true }).waitFor();
  assertEquals(await page.getByRole("button", { name: /^Save/ }).count(), 0);
  await assertAccessible(page, "/admin/banners");
  const guest = await browser.newPage();
  await openHydrated(guest, `${t.origin}/ungatekeep`);
  await guest.getByRole("group", { name: "1 of 2: First banner" }).waitFor();
  await guest.getByRole("button", { name: "Next" }).click();
  await guest.getByRole("group", { name: "2 of 2: Second banner" }).waitFor();
  await guest.keyboard.press("ArrowRight");
  await guest.getByRole("group", { name: "1 of 2: First banner" }).waitFor();
  const titles = await guest.locator("article h2").allTextContents();
  assertEquals(titles, ["Pinned guide", "Regular post 4", "Regular post 3"]);
  await guest.getByRole("heading", { name: "2 more posts are hidden" }).waitFor();
  assertEquals(await guest.locator("article img").count(), 1);
  await assertAccessible(guest, "/ungatekeep as a guest");
  await guest.getByRole("link", { name: "Pinned guide" }).click();
  await guest.waitForURL(/\/ungatekeep\/[0-9a-f-]{36}$/);
  assertEquals(await guest.locator("article img").count(), 2);
  assertMatch(await guest.locator("h1").textContent() ?? "", /Pinned guide/);
  await assertAccessible(guest, "/ungatekeep/{id}");

  const userContext = await browser.newContext();
  await signInBrowser(userContext, t.origin, await createTestUser(t, "user"));
  const reader = await userContext.newPage();
  await reader.goto(`${t.origin}/ungatekeep`);
  assertEquals(await reader.locator("article h2").count(), 5);
  assertEquals(await reader.getByText("more posts are hidden").count(), 0);
  await assertAccessible(reader, "/ungatekeep signed in");

  await openHydrated(page, `${t.origin}/admin/ungatekeep`);
  await page.getByRole("button", { name: "Delete Regular post 1" }).click();
  await page.getByRole("dialog", { name: "Delete this post?" }).waitFor();
  await assertAccessible(page, "/admin/ungatekeep with the delete dialog");
  await page.getByRole("button", { name: "Yes, delete" }).click();
  await page.getByText("“Regular post 1” deleted.").waitFor();
  assertEquals(await page.locator("tbody tr").count(), 4);
  await reader.reload();
  assertEquals(await reader.locator("article h2").count(), 4);
});
