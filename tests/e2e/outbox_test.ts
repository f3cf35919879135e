/**
 * `/admin/outbox` in Chromium: a mail that failed every try is shown under "Failed" with its error, a retry sends it
 * through the real `smtp-server` fake and the table shows it sent; a failed mail that held a single-use link offers
 * no retry and says why; the page passes axe. Without JavaScript on a 360 px phone "Retry" is a plain form: it queues
 * the mail again and says so, or shows the refusal when another admin retried it first.
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
import { listOutbox, retryMail } from "@/lib/mail/outbox_admin.ts";
import { translatorFor } from "@/lib/i18n/catalogue.ts";
import { startFakeSmtp } from "@/tests/fakes/smtp.ts";
import { findJob, runJob } from "@/lib/jobs/registry.ts";
import { queueMail } from "@/lib/mail/delivery.ts";
import { createMailer } from "@/lib/mail/mailer.ts";
import { phoneContext } from "@/tests/helpers/phone.ts";

Deno.test("an admin finds a failed e-mail in the outbox and retries it; it is sent", async () => {
  const down = await startFakeSmtp();
  await down.close();
  await using smtp = await startFakeSmtp();
  await using t = await createTestApp({ listen: true, env: { SMTP_URL: down.url, OUTBOX_RETRY_MS: "1000" } });
  const admin = await createTestUser(t, "admin");
  const mail = { text: "Text", html: "<p>HTML</p>", link: "", userId: null };
  await queueMail(t.services, { ...mail, to: "stuck@example.com", subject: "Your receipt", retryable: true });
  await queueMail(t.services, { ...mail, to: "waiting@example.com", subject: "Your weekly digest" });
  await t.settled();
  // Both fail their first try; the second (and last) try fails the first one for good.
  const failed = await runJob(findJob("outbox")!, t.services, new Date(Date.now() + 2000));
  assertEquals(failed.failed, 2);
  await queueMail(t.services, { ...mail, to: "later@example.com", subject: "Pending one" });
  await t.settled();
  t.services.mailer = createMailer(smtp.url, t.services.config.mailFrom, t.services.log);

  await using browser = await openBrowser();
  const context = await browser.newContext();
  await signInBrowser(context, t.origin, admin);
  const page = await context.newPage();
  await openHydrated(page, `${t.origin}/admin/outbox`);
  await page.getByRole("link", { name: "E-mail outbox" }).waitFor();
  await page.getByRole("button", { name: "All (3)" }).waitFor();
  await page.getByRole("button", { name: "Failed (2)" }).click();
  await page.getByText("2 e-mails match.").waitFor();
  await assertAccessible(page, "outbox, failed");
  const row = page.getByRole("row").filter({ hasText: "stuck@example.com" });
  await row.getByText(/ECONNREFUSED/).waitFor();
  await row.getByText("2 tries").waitFor();
  const dropped = page.getByRole("row").filter({ hasText: "waiting@example.com" });
  await dropped.getByText("Held a single-use link: not kept, so it cannot be sent again").waitFor();
  assertEquals(await dropped.getByRole("button").count(), 0);

  await page.getByLabel("Search by recipient").fill("stuck");
  await page.getByText("1 e-mail matches.").waitFor();
  await page.getByRole("button", { name: "Retry the e-mail to stuck@example.com" }).click();
  await page.getByText("The e-mail to stuck@example.com is queued again and being sent.").waitFor();
  const received = await smtp.waitFor("stuck@example.com");
  assertEquals(received.subject, "Your receipt");
  await t.settled();
  // The counts of the answer after the retry may predate the delivery: another tab loads them afresh.
  await page.getByRole("button", { name: /^All/ }).click();
  await page.getByRole("button", { name: "Sent (1)" }).click();
  await page.getByRole("row").filter({ hasText: "stuck@example.com" }).getByText("sent", { exact: true }).waitFor();
  await page.getByRole("button", { name: "Failed (1)" }).waitFor();
  await assertAccessible(page, "outbox, sent");
  assertEquals(smtp.messages.length, 1);
  t.services.mailer.close();
});

Deno.test("without JavaScript an admin retries a failed e-mail with the row's form; a mail retried meanwhile is refused", async () => {
  const down = await startFakeSmtp();
  await down.close();
  await using t = await createTestApp({ listen: true, env: { SMTP_URL: down.url, OUTBOX_RETRY_MS: "1000" } });
  const admin = await createTestUser(t, "admin");
  const mail = { text: "Text", html: "<p>HTML</p>", link: "", userId: null, retryable: true };
  await queueMail(t.services, { ...mail, to: "stuck@example.com", subject: "Your receipt" });
  await queueMail(t.services, { ...mail, to: "other@example.com", subject: "Your invoice" });
  await t.settled();
  assertEquals((await runJob(findJob("outbox")!, t.services, new Date(Date.now() + 2000))).failed, 2);

  await using browser = await openBrowser();
  const context = await phoneContext(browser, { javaScriptEnabled: false });
  await signInBrowser(context, t.origin, admin);
  const page = await context.newPage();
  await page.goto(`${t.origin}/admin/outbox`);
  await page.getByRole("button", { name: "Retry the e-mail to stuck@example.com" }).click();
  await page.getByText("The e-mail to stuck@example.com is queued again and being sent.").waitFor();
  await t.settled();
  const stuck = (await listOutbox(t.kv, { limit: 50, offset: 0 })).mails.find((row) => row.to === "stuck@example.com");
  assertEquals(stuck?.attempts, 3, "retried: a third try");
  await assertAccessibleWithoutScript(page, "outbox retried without JavaScript at 360 px");

  const other = (await listOutbox(t.kv, { limit: 50, offset: 0 })).mails.find((row) => row.to === "other@example.com")!;
  await retryMail(t.kv, { id: other.id }); // another admin, first
  await page.getByRole("button", { name: "Retry the e-mail to other@example.com" }).click();
  await page.getByRole("alert").getByText(translatorFor("en")("common.refusal.mailNotFailed")).waitFor();
  await assertAccessibleWithoutScript(page, "outbox retry refused without JavaScript at 360 px");
});
