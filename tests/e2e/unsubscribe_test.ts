/**
 * The unsubscribe page at 360 px names what its link turns off (docs/decisions.md, Alerts, "Unsubscribe links"): each
 * search alert in words with its frequency, or the "Deadline reminders" setting, and the account by its masked e-mail
 * address, before and after the button; never the whole address.
 */
import { assert, assertEquals } from "@/tests/helpers/assert.ts";
import { createTestApp, createTestUser } from "@/tests/helpers/app.ts";
import { assertAccessible, openBrowser } from "@/tests/helpers/browser.ts";
import { createAlert, listAlerts } from "@/lib/alerts/alerts.ts";
import { newUnsubscribeToken, type UnsubscribeTarget } from "@/lib/alerts/unsubscribe.ts";
import { getSettings } from "@/lib/settings/settings.ts";
import { phoneContext } from "@/tests/helpers/phone.ts";

Deno.test("the unsubscribe page says which alert or setting of which account it turns off", async () => {
  await using t = await createTestApp({ listen: true });
  const student = await createTestUser(t, "user", { email: "asha.rao@example.com" });
  const userId = student.user.id;
  const alert = await createAlert(t.kv, {
    userId,
    input: { kind: "internships", query: { search: "data", location: "Pune" }, frequency: "weekly" },
  });
  const link = async (target: UnsubscribeTarget) => {
    const token = await newUnsubscribeToken(target);
    const op = t.kv.atomic();
    token.write(op);
    await op.commit();
    return `${t.origin}/unsubscribe/${token.token}`;
  };
  await using browser = await openBrowser();
  const page = await (await phoneContext(browser)).newPage();
  const main = page.locator("main");

  await page.goto(await link({ userId, kind: "alerts", alertIds: [alert.id] }));
  await main.getByText("This link turns off e-mails to the account a•••@example.com for:").waitFor();
  await main.getByText("The weekly search alert Internships: location Pune, search data").waitFor();
  assert(!(await page.content()).includes("asha.rao"), "the page never shows the whole address");
  await assertAccessible(page, "unsubscribe from an alert at 360 px");
  await page.getByRole("button", { name: "Turn off" }).click();
  await page.getByRole("heading", { name: "You are unsubscribed" }).waitFor();
  await page.getByRole("status").getByText("Internships: location Pune, search data").waitFor();
  assertEquals((await listAlerts(t.kv, userId)).map((a) => a.isActive), [false]);

  await page.goto(await link({ userId, kind: "reminders" }));
  await main.getByText("The setting Deadline reminders: an e-mail the day before a saved internship closes").waitFor();
  await main.getByText("a•••@example.com").waitFor();
  await assertAccessible(page, "unsubscribe from reminders at 360 px");
  await page.getByRole("button", { name: "Turn off" }).click();
  await page.getByRole("status").getByText("Deadline reminders").waitFor();
  assertEquals((await getSettings(t.kv, userId)).deadlineReminders, false);
});
