/**
 * The admin area on a 360 px phone: no page scrolls sideways (tables scroll inside themselves),
 * every page passes the axe-core check, and the header fits, its links behind a "Menu" button
 * that opens them, "Admin" among them.
 */
import { assert, assertEquals } from "@/tests/helpers/assert.ts";
import { createTestApp, createTestUser } from "@/tests/helpers/app.ts";
import { assertAccessible, openBrowser, signInBrowser } from "@/tests/helpers/browser.ts";
import { seedDemoData } from "@/lib/demo/seed.ts";

const PHONE = { width: 360, height: 740 };

Deno.test("admin pages at 360 px have no horizontal scroll and the header opens a menu", async () => {
  await using t = await createTestApp({ listen: true });
  await seedDemoData(t.kv);
  const admin = await createTestUser(t, "admin", { name: "Aparna Venkataraman-Subramaniam" });
  const toolkits = await (await t.fetch("/api/admin/toolkits", { headers: admin.headers })).json();
  const posts = await (await t.fetch("/api/admin/ungatekeep", { headers: admin.headers })).json();
  const pages = [
    "/admin",
    "/admin/users",
    "/admin/internships",
    "/admin/opportunities",
    "/admin/toolkits",
    "/admin/toolkits/new",
    `/admin/toolkits/${toolkits.toolkits[0].id}`,
    "/admin/coupons",
    "/admin/ungatekeep",
    "/admin/ungatekeep/new",
    `/admin/ungatekeep/${posts.posts[0].id}`,
    "/admin/banners",
  ];
  await using browser = await openBrowser();
  const context = await browser.newContext({ viewport: PHONE, isMobile: true, hasTouch: true });
  await signInBrowser(context, t.origin, admin);
  const page = await context.newPage();

  for (const path of pages) {
    await page.goto(`${t.origin}${path}`);
    await page.waitForLoadState("load");
    const widths = await page.evaluate(() => ({
      page: document.documentElement.scrollWidth,
      viewport: document.documentElement.clientWidth,
      wide: [...document.querySelectorAll("body *")]
        .filter((el) => el.getBoundingClientRect().right > document.documentElement.clientWidth + 1)
        // What sticks out: not the content of a table that scrolls inside itself, unless positioned out of it.
        .filter((el) => !el.parentElement?.closest(".overflow-x-auto") || getComputedStyle(el).position === "absolute")
        .slice(-3)
        .map((el) => `${el.tagName.toLowerCase()}.${el.className}`),
    }));
    assertEquals(widths.page, widths.viewport, `${path} scrolls sideways: ${JSON.stringify(widths.wide)}`);
    await assertAccessible(page, `${path} at 360 px`);
  }

  await page.goto(`${t.origin}/admin/users`);
  const admin_link = page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Admin" });
  assert(!(await admin_link.isVisible()), "the menu is open before it is asked for");
  await page.getByText("Menu", { exact: true }).click();
  await admin_link.click();
  await page.waitForURL(`${t.origin}/admin`);
  await assertAccessible(page, "/admin on a phone");
});
