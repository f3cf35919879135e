/**
 * `/me/settings` in Chromium on a 360 px phone (docs/decisions.md, Islands, "Forms work without JavaScript";
 * docs/decisions.md, Notifications, "Channels"): without JavaScript the notification switches are a form that
 * "Save notifications" posts; with it the button goes and each switch saves as it changes. Both pass axe-core.
 */
import type { Page } from "playwright-core";
import { assertEquals } from "@/tests/helpers/assert.ts";
import { createTestApp, createTestUser } from "@/tests/helpers/app.ts";
import {
  assertAccessible,
  assertAccessibleWithoutScript,
  openBrowser,
  openHydrated,
  signInBrowser,
} from "@/tests/helpers/browser.ts";
import { startFakePushService } from "@/tests/fakes/push.ts";
import { getSettings } from "@/lib/settings/settings.ts";

const PHONE = { width: 360, height: 740 };

/** The switch of `channel` ("E-mail", "Push") of the type named `type`: its name is the channel, then ": " and the type. */
const toggle = (page: Page, channel: string, type: string) =>
  page.getByRole("checkbox", { name: new RegExp(`^${channel}\\s*: ${type}$`) });

Deno.test("settings without JavaScript: the switches post as a form and the page says it saved", async () => {
  await using push = await startFakePushService();
  await using t = await createTestApp({ listen: true, env: push.env });
  const student = await createTestUser(t, "user");
  await using browser = await openBrowser();
  const context = await browser.newContext({ javaScriptEnabled: false, viewport: PHONE });
  await signInBrowser(context, t.origin, student);
  const page = await context.newPage();

  await page.goto(`${t.origin}/me/settings`);
  await assertAccessibleWithoutScript(page, "/me/settings without JavaScript");
  const replyMail = toggle(page, "E-mail", "Replies to my comments");
  const reminderPush = toggle(page, "Push", "Deadline reminders");
  await replyMail.uncheck();
  await reminderPush.uncheck();
  await page.getByRole("button", { name: "Save notifications" }).click();
  await page.waitForURL(`${t.origin}/me/settings?saved=1`);
  await page.getByRole("status").getByText("Your notification settings are saved.").waitFor();
  assertEquals([await replyMail.isChecked(), await reminderPush.isChecked()], [false, false]);
  const { channels } = await getSettings(t.kv, student.user.id);
  assertEquals([channels.comment_reply, channels.deadline_reminder], [
    { email: false, push: true },
    { email: true, push: false },
  ]);
  assertEquals(channels.purchase_paid.email, true);
});

Deno.test("settings with JavaScript: no button, each switch saves as it changes", async () => {
  await using t = await createTestApp({ listen: true });
  const student = await createTestUser(t, "user");
  await using browser = await openBrowser();
  const context = await browser.newContext({ viewport: PHONE });
  await signInBrowser(context, t.origin, student);
  const page = await context.newPage();

  await openHydrated(page, `${t.origin}/me/settings`);
  assertEquals(await page.getByRole("button", { name: "Save notifications" }).count(), 0);
  await toggle(page, "E-mail", "Deadline reminders").uncheck();
  await page.getByRole("status").getByText("Deadline reminders, E-mail: off. Saved.").waitFor();
  await assertAccessible(page, "/me/settings");
  assertEquals((await getSettings(t.kv, student.user.id)).channels.deadline_reminder.email, false);
  assertEquals(page.url(), `${t.origin}/me/settings`);
});
