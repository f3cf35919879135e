/**
 * An admin on a 360 px phone with JavaScript off (docs/decisions.md, Islands, "Forms work without JavaScript"):
 * `/admin/users` searches, filters by role and pages through plain `GET` forms and links.
 */
import { assertEquals } from "@/tests/helpers/assert.ts";
import { createTestApp, createTestUser } from "@/tests/helpers/app.ts";
import { assertAccessibleWithoutScript, openBrowser, signInBrowser } from "@/tests/helpers/browser.ts";

const PHONE = { viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true, javaScriptEnabled: false };

Deno.test("without JavaScript an admin searches, filters and pages /admin/users", async () => {
  await using t = await createTestApp({ listen: true });
  await createTestUser(t, "user", { name: "Grace Hopper" });
  await createTestUser(t, "member", { name: "Meera Member" });
  for (let i = 0; i < 21; i++) await createTestUser(t, "user", { name: `Filler ${i}` });
  const admin = await createTestUser(t, "admin", { name: "Boss Admin" });
  await using browser = await openBrowser();
  const context = await browser.newContext(PHONE);
  await signInBrowser(context, t.origin, admin);
  const page = await context.newPage();
  await page.goto(`${t.origin}/admin/users`);
  await page.getByText("1–20 of 24").waitFor();

  await page.getByRole("link", { name: "Next" }).click();
  await page.getByText("21–24 of 24").waitFor();
  assertEquals(new URL(page.url()).searchParams.get("offset"), "20");
  await page.getByRole("row", { name: /Grace Hopper/ }).waitFor();
  assertEquals(await page.getByRole("link", { name: "Next" }).count(), 0);
  await assertAccessibleWithoutScript(page, "admin users, second page, without JavaScript at 360 px");
  await page.getByRole("link", { name: "Previous" }).click();
  await page.getByText("1–20 of 24").waitFor();

  await page.getByLabel("Search by name or e-mail").fill("grace");
  await page.getByRole("button", { name: "Search" }).click();
  await page.getByText("1–1 of 1").waitFor();
  assertEquals(await page.getByLabel("Search by name or e-mail").inputValue(), "grace");
  await page.getByRole("row", { name: /Grace Hopper/ }).waitFor();

  await page.getByLabel("Search by name or e-mail").fill("");
  await page.getByLabel("Role", { exact: true }).selectOption("member");
  await page.getByRole("button", { name: "Search" }).click();
  await page.getByText("1–1 of 1").waitFor();
  await page.getByRole("row", { name: /Meera Member/ }).waitFor();
  assertEquals(await page.getByLabel("Role", { exact: true }).inputValue(), "member");
});
