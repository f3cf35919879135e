/**
 * The profile form on a 360 px phone takes a contact number as people write it ("+91 98765 43210", "098765 43210")
 * and stores its 10 digits, with JavaScript and without it (a plain form posting to `/profile`).
 */
import { assertEquals } from "@/tests/helpers/assert.ts";
import { createTestApp, createTestUser } from "@/tests/helpers/app.ts";
import {
  assertAccessible,
  assertAccessibleWithoutScript,
  openBrowser,
  openHydrated,
  signInBrowser,
} from "@/tests/helpers/browser.ts";
import { getUser } from "@/lib/users/users.ts";
import { phoneContext } from "@/tests/helpers/phone.ts";

Deno.test("profile on a phone: +91 and a leading 0 are taken, the 10 digits stored", async (t) => {
  await using app = await createTestApp({ listen: true });
  const student = await createTestUser(app, "user");
  await using browser = await openBrowser();
  const stored = async () => (await getUser(app.kv, student.user.id))?.contactNumber;

  await t.step("with JavaScript", async () => {
    const context = await phoneContext(browser);
    await signInBrowser(context, app.origin, student);
    const page = await context.newPage();
    await openHydrated(page, `${app.origin}/profile`);
    await page.getByLabel("Contact number").fill("+91 98765 43210");
    await page.getByRole("button", { name: "Save profile" }).click();
    await page.getByText("Your profile has been saved.").waitFor();
    assertEquals(await stored(), "9876543210");
    assertEquals(await page.getByLabel("Contact number").inputValue(), "9876543210");
    await assertAccessible(page, "profile at 360 px");
    await context.close();
  });

  await t.step("without JavaScript", async () => {
    const context = await phoneContext(browser, { javaScriptEnabled: false });
    await signInBrowser(context, app.origin, student);
    const page = await context.newPage();
    await page.goto(`${app.origin}/profile`);
    await page.getByLabel("Contact number").fill("098765 43211");
    await page.getByRole("group", { name: "Fields you are interested in" }).getByLabel("Data & AI").check();
    await page.getByRole("button", { name: "Save profile" }).click();
    await page.waitForURL((u) => u.pathname === "/profile" && u.searchParams.get("saved") === "1");
    await page.getByText("Your profile has been saved.").waitFor();
    assertEquals(await stored(), "9876543211");
    assertEquals((await getUser(app.kv, student.user.id))?.fieldInterests, ["Data & AI"]);

    await page.getByLabel("Contact number").fill("98765 4321");
    await page.getByRole("button", { name: "Save profile" }).click();
    await page.locator("#contactNumber-error").getByText("Enter a 10-digit mobile number, like 98765 43210.").waitFor();
    assertEquals(await page.getByLabel("Contact number").inputValue(), "98765 4321", "what was typed is kept");
    assertEquals(await stored(), "9876543211");
    await assertAccessibleWithoutScript(page, "profile refused without JavaScript");
    await context.close();
  });
});
