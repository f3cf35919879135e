/**
 * The post editor's preview shows the content as the published post does: every element of the
 * rendered markdown has the same computed look (size, weight, list style, indent, colour) in the
 * preview and on the post's page.
 */
import type { Locator } from "playwright-core";
import { assertEquals } from "@/tests/helpers/assert.ts";
import { createTestApp, createTestUser } from "@/tests/helpers/app.ts";
import { openBrowser, openHydrated, signInBrowser } from "@/tests/helpers/browser.ts";

const MARKDOWN = [
  "# Big heading",
  "## Smaller heading",
  "A paragraph with a [link](https://example.com) and `code`.",
  "- first point\n- second point",
  "1. step one\n2. step two",
  "> a quotation",
].join("\n\n");

/** The computed look of each element of the rendered markdown inside `body`, in document order. */
async function looks(body: Locator): Promise<string[]> {
  return await body.evaluate((root) =>
    [...root.querySelectorAll("h1, h2, p, a, code, ul, ol, li, blockquote")].map((el) => {
      const s = getComputedStyle(el);
      return [
        el.tagName,
        s.fontSize,
        s.fontWeight,
        s.color,
        s.listStyleType,
        s.paddingLeft,
        s.textDecorationLine,
        s.borderLeftWidth,
      ].join(" ");
    })
  );
}

Deno.test("the editor's preview looks like the published post", async () => {
  await using t = await createTestApp({ listen: true });
  const admin = await createTestUser(t, "admin");
  await using browser = await openBrowser();
  const context = await browser.newContext();
  await signInBrowser(context, t.origin, admin);
  const page = await context.newPage();

  await openHydrated(page, `${t.origin}/admin/ungatekeep/new`);
  await page.getByLabel("Title", { exact: true }).fill("Preview check");
  await page.getByLabel("Tag", { exact: true }).selectOption("resources");
  await page.getByLabel("Content (markdown)").fill(MARKDOWN);
  const preview = page.locator("#preview-title + div > div");
  await preview.locator("blockquote").waitFor();
  const inPreview = await looks(preview);

  await page.getByRole("button", { name: "Create post" }).click();
  await page.waitForURL((u) => u.pathname === "/admin/ungatekeep" && u.searchParams.has("saved"));
  const { posts } = await (await t.fetch("/api/admin/ungatekeep", { headers: admin.headers })).json();
  await page.getByText(/is saved\. View the post/).waitFor();
  assertEquals(
    await page.getByRole("link", { name: "View the post" }).getAttribute("href"),
    `/ungatekeep/${posts[0].id}`,
  );
  await page.goto(`${t.origin}/ungatekeep/${posts[0].id}`);
  const published = page.locator("article > div:has(> blockquote)");
  assertEquals(inPreview.length, 13);
  assertEquals(await looks(published), inPreview);
});
