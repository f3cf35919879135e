/**
 * The admin users table on a 360 px phone does not offer "admin" for a suspended account, which the server refuses
 * (docs/decisions.md, Admin, "Suspension"), and says why under the row's role control, as the server renders it (without
 * JavaScript) and as the island draws it; once the suspension is lifted the role is offered again.
 */
import type { Locator } from "playwright-core";
import { assertEquals } from "@/tests/helpers/assert.ts";
import { createTestApp, createTestUser } from "@/tests/helpers/app.ts";
import {
  assertAccessible,
  assertAccessibleWithoutScript,
  openBrowser,
  openHydrated,
  signInBrowser,
} from "@/tests/helpers/browser.ts";
import { updateUser } from "@/lib/users/users.ts";
import { translatorFor } from "@/lib/i18n/catalogue.ts";
import { phoneContext } from "@/tests/helpers/phone.ts";

const REASON = translatorFor("en")("common.refusal.promoteSuspended");

/** The roles `select` offers, as read. */
async function offered(select: Locator): Promise<string[]> {
  return await select.locator("option").allInnerTexts();
}

/** The text of what describes `control` (`aria-describedby`), "" for nothing. */
async function description(control: Locator): Promise<string> {
  const ids = ((await control.getAttribute("aria-describedby")) ?? "").split(" ").filter(Boolean);
  const texts = await Promise.all(ids.map((id) => control.page().locator(`[id="${id}"]`).innerText()));
  return texts.join(" ");
}

Deno.test("a suspended row's role control does not offer admin and says why, with and without JavaScript", async () => {
  await using t = await createTestApp({ listen: true });
  const admin = await createTestUser(t, "admin", { name: "Boss Admin" });
  await createTestUser(t, "member", { name: "Meera Member" });
  const sam = await createTestUser(t, "member", { name: "Sam Suspended" });
  await updateUser(t.kv, sam.user.id, { suspension: { at: new Date().toISOString(), reason: "A scam", by: null } });
  await using browser = await openBrowser();

  const plain = await phoneContext(browser, { javaScriptEnabled: false });
  await signInBrowser(plain, t.origin, admin);
  const page = await plain.newPage();
  await page.goto(`${t.origin}/admin/users`);
  assertEquals(await offered(page.getByLabel("Role of Sam Suspended")), ["user", "member"]);
  assertEquals(await description(page.getByLabel("Role of Sam Suspended")), REASON);
  assertEquals(await offered(page.getByLabel("Role of Meera Member")), ["user", "member", "admin"]);
  assertEquals(await description(page.getByLabel("Role of Meera Member")), "");
  await assertAccessibleWithoutScript(page, "admin users with a suspended row, without JavaScript at 360 px");

  const scripted = await phoneContext(browser);
  await signInBrowser(scripted, t.origin, admin);
  const island = await scripted.newPage();
  await openHydrated(island, `${t.origin}/admin/users`);
  const role = island.getByLabel("Role of Sam Suspended");
  assertEquals(await offered(role), ["user", "member"]);
  assertEquals(await description(role), REASON);
  await assertAccessible(island, "admin users with a suspended row at 360 px");
  await island.getByRole("button", { name: "Lift suspension Sam Suspended" }).click();
  await island.getByRole("row", { name: /Sam Suspended/ }).getByText("Suspend… Sam Suspended").waitFor();
  assertEquals(await offered(role), ["user", "member", "admin"]);
  assertEquals(await description(role), "");
});
