/**
 * What a screenshot review asked of the page frame, in Chromium: on a wide screen the header is one
 * row from 768 to 1280 px, its notification bell before the account menu, which holds the person's own pages and sign-out; on a 360 px phone the admin navigation is
 * one row (a menu naming the current page) before the content, with the current page marked and
 * no sideways scroll; the reaction buttons and counts show icons that need no emoji font. Escape closes each menu
 * (the phone's, the account menu, the admin menu) and returns the focus to its button.
 */
import type { Page } from "playwright-core";
import { assert, assertEquals } from "@/tests/helpers/assert.ts";
import { createTestApp, createTestUser } from "@/tests/helpers/app.ts";
import {
  assertAccessible,
  openAccountMenu,
  openBrowser,
  openHydrated,
  signInBrowser,
} from "@/tests/helpers/browser.ts";
import { assertNoSidewaysScroll, phoneContext } from "@/tests/helpers/phone.ts";

/** Emoji (pictographs and the variation selector): what shows as empty boxes without an emoji font. */
const EMOJI = /\p{Extended_Pictographic}|\uFE0F/u;

/** The left edge of the first visible element matching `name` in the main navigation. */
async function leftOf(page: Page, role: "button" | "link", name: string | RegExp): Promise<number> {
  const box = await page.getByRole("navigation", { name: "Main" }).getByRole(role, { name, exact: true }).boundingBox();
  assert(box, `${name} is shown`);
  return box.x;
}

Deno.test("the bell before the account links, the admin menu in one row on a phone, reactions without emoji", async (t) => {
  await using app = await createTestApp({ listen: true });
  const admin = await createTestUser(app, "admin", { name: "Asha Admin" });
  const created = await app.json("POST", "/api/admin/ungatekeep", {
    body: { title: "How I got my first internship", content: "Apply early.", tag: "resources", isPublished: true },
    headers: admin.headers,
  });
  assertEquals(created.status, 201);
  const { post } = await created.json();
  await using browser = await openBrowser();

  await t.step("desktop: the header is one row, the bell before the account menu", async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    await signInBrowser(context, app.origin, admin);
    const page = await context.newPage();
    const nav = page.getByRole("navigation", { name: "Main" });
    for (const width of [768, 1024, 1280]) {
      await page.setViewportSize({ width, height: 800 });
      await openHydrated(page, `${app.origin}/internships`);
      const box = await nav.boundingBox();
      assert(box && box.height <= 64, `the header is one row at ${width} px, not ${box?.height} px`);
    }
    const menu = nav.locator("summary", { hasText: "Account menu: Asha Admin" });
    const bell = await leftOf(page, "button", /^Notifications/);
    assert(bell < (await menu.boundingBox())!.x, "the bell is left of the account menu");
    assert(bell > await leftOf(page, "link", "Admin"), "the bell is right of the main links");
    assert(!(await nav.getByRole("button", { name: "Sign out" }).isVisible()), "sign-out waits behind the menu");
    await openAccountMenu(page);
    for (const name of ["Profile", "My applications", "My toolkits", "Alerts", "Notifications", "Settings"]) {
      assert(await nav.getByRole("link", { name, exact: true }).isVisible(), `${name} is in the open menu`);
    }
    assert(await nav.getByRole("button", { name: "Sign out" }).isVisible(), "sign-out is in the open menu");
    await assertAccessible(page, "header on a desktop, account menu open");
    await context.close();
  });

  await t.step("phone: the admin menu is one row naming the current page", async () => {
    const context = await phoneContext(browser);
    await signInBrowser(context, app.origin, admin);
    const page = await context.newPage();
    await openHydrated(page, `${app.origin}/admin/coupons`);
    const nav = page.getByRole("navigation", { name: "Admin" });
    const box = await nav.boundingBox();
    assert(box && box.height <= 56, `the admin navigation is one row, not ${box?.height} px`);
    assert(await nav.getByText("Admin menu: Coupons").isVisible(), "the closed menu names the current page");
    assert(!(await nav.getByRole("link", { name: "Users" }).isVisible()), "the links wait behind the menu");
    const heading = await page.getByRole("heading", { level: 1 }).boundingBox();
    assert(heading && heading.y < 260, `the page's heading starts near the top, not at ${heading?.y} px`);

    await nav.getByText("Admin menu").click();
    const current = nav.getByRole("link", { name: "Coupons" });
    assertEquals(await current.getAttribute("aria-current"), "page");
    assertEquals(await nav.locator("[aria-current]").count(), 1, "one current page");
    await assertNoSidewaysScroll(page, "the admin menu open on a phone");
    await assertAccessible(page, "admin menu open on a phone");
    await nav.getByRole("link", { name: "E-mail outbox" }).click();
    await page.waitForURL(`${app.origin}/admin/outbox`);
    assert(await nav.getByText("Admin menu: E-mail outbox").isVisible());
    await context.close();
  });

  await t.step("reactions: icons drawn inline, names unchanged", async () => {
    const context = await browser.newContext();
    await signInBrowser(context, app.origin, admin);
    const page = await context.newPage();
    await openHydrated(page, `${app.origin}/ungatekeep/${post.id}`);
    const helpful = page.getByRole("button", { name: "Helpful 0" });
    await helpful.click();
    await page.getByRole("button", { name: "Helpful 1" }).waitFor();
    assertEquals(await page.getByRole("group", { name: "Reactions" }).locator("svg").count(), 3);
    assert(!EMOJI.test(await page.locator("main").innerText()), "no emoji on the post page");

    await page.goto(`${app.origin}/ungatekeep`);
    const card = page.locator("main article", { hasText: "How I got my first internship" });
    assert(!EMOJI.test(await card.innerText()), "no emoji on the feed's card");
    assertEquals(await card.locator("svg").count(), 3, "the card's reaction counts have icons");
    assert(/1\s+Helpful/.test(await card.innerText()), "the count keeps its name for screen readers");
    await assertAccessible(page, "the feed");
    await context.close();
  });
});

/** Presses Escape in `page` and checks that the menu whose button is `summary` closed and that its button has the focus. */
async function escapeCloses(page: Page, summary: string | RegExp): Promise<void> {
  const button = page.locator("summary", { hasText: summary });
  const details = button.locator("xpath=..");
  assertEquals(await details.evaluate((menu: HTMLDetailsElement) => menu.open), true, `${summary} is open`);
  await page.keyboard.press("Escape");
  assertEquals(await details.evaluate((menu: HTMLDetailsElement) => menu.open), false, `Escape closes ${summary}`);
  assertEquals(await button.evaluate((node) => node === document.activeElement), true, `the focus is on ${summary}`);
}

Deno.test("Escape closes the header's menus and the admin menu, and returns the focus to their button", async () => {
  await using app = await createTestApp({ listen: true });
  const admin = await createTestUser(app, "admin", { name: "Asha Admin" });
  await using browser = await openBrowser();

  const phone = await phoneContext(browser);
  await signInBrowser(phone, app.origin, admin);
  const page = await phone.newPage();
  await openHydrated(page, `${app.origin}/?lang=hi`);
  await page.locator("summary", { hasText: /^\s*मेन्यू\s*$/ }).focus();
  await page.keyboard.press("Enter");
  await page.keyboard.press("Tab");
  await escapeCloses(page, /^\s*मेन्यू\s*$/);

  await openHydrated(page, `${app.origin}/admin/coupons?lang=en`);
  await page.getByRole("navigation", { name: "Admin" }).getByText("Admin menu").click();
  await escapeCloses(page, "Admin menu");

  const desktop = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await signInBrowser(desktop.context(), app.origin, admin);
  await openHydrated(desktop, `${app.origin}/internships`);
  await openAccountMenu(desktop);
  await desktop.keyboard.press("Tab");
  await escapeCloses(desktop, "Account menu: Asha Admin");
});
