/**
 * Suspending with "Also remove their comments" on a 360 px phone (docs/decisions.md, Admin, "Suspension"): the tick is
 * off by default and its hint says lifting brings nothing back; without JavaScript the plain form suspends and the row
 * says how many comments are left, then how many were removed once the job is done; with JavaScript the island does the
 * same through the API. Both pass axe.
 */
import type { Page } from "playwright-core";
import { assert, assertEquals } from "@/tests/helpers/assert.ts";
import { createTestApp, createTestUser, type TestApp, type TestUser } from "@/tests/helpers/app.ts";
import {
  assertAccessible,
  assertAccessibleWithoutScript,
  openBrowser,
  openHydrated,
  signInBrowser,
} from "@/tests/helpers/browser.ts";
import { createPost } from "@/tests/fixtures/posts.ts";
import { createComment } from "@/lib/comments/comments.ts";
import { commentCountOf } from "@/lib/comments/store.ts";
import { findJob, runJob } from "@/lib/jobs/registry.ts";
import { BATCH } from "@/lib/moderation/comment_purges.ts";
import { phoneContext } from "@/tests/helpers/phone.ts";

/** Writes `count` comments by `author` under `postId`. */
async function writeComments(t: TestApp, author: TestUser, postId: string, count: number): Promise<void> {
  for (let i = 0; i < count; i++) {
    await createComment(t.kv, { postId, author: author.user, input: { content: `Buy now ${i}` }, appUrl: t.origin });
    await t.kv.delete(["comment_rate", author.user.id]); // the rate window is not what this test is about
  }
}

/** Opens the "Suspend…" disclosure of `name`'s row, writes a reason, ticks the removal of comments and submits. */
async function suspendWithComments(page: Page, name: string): Promise<void> {
  const row = page.getByRole("row", { name: new RegExp(name) });
  await row.getByText(`Suspend… ${name}`).click();
  await row.getByLabel("Reason").fill("Spam in every thread");
  const tick = row.getByLabel("Also remove their comments");
  assertEquals(await tick.isChecked(), false, "off by default");
  const hint = await page.locator(`[id="${await tick.getAttribute("aria-describedby")}"]`).innerText();
  assert(hint.includes("Lifting the suspension does not bring them back."), hint);
  await tick.check();
  await row.getByRole("button", { name: `Suspend ${name}` }).click();
}

Deno.test("the removal of a suspended person's comments, asked and followed on the users table at 360 px", async () => {
  await using t = await createTestApp({ listen: true });
  const admin = await createTestUser(t, "admin", { name: "Boss Admin" });
  const spammer = await createTestUser(t, "member", { name: "Spam Sender" });
  const troll = await createTestUser(t, "member", { name: "Troll Writer" });
  const post = await createPost(t, admin);
  await writeComments(t, spammer, post.id, BATCH + 10);
  await writeComments(t, troll, post.id, 3);
  await using browser = await openBrowser();

  const plain = await phoneContext(browser, { javaScriptEnabled: false });
  await signInBrowser(plain, t.origin, admin);
  const page = await plain.newPage();
  await page.goto(`${t.origin}/admin/users`);
  await suspendWithComments(page, "Spam Sender");
  await page.getByText("Their comments are being removed; their row shows how far it is.").waitFor();
  const row = page.getByRole("row", { name: /Spam Sender/ });
  await row.getByText("Removing 10 comments…").waitFor();
  await assertAccessibleWithoutScript(page, "admin users removing comments, without JavaScript at 360 px");
  await runJob(findJob("comment-purges")!, t.services);
  await page.reload();
  await row.getByText(`${BATCH + 10} comments of theirs were removed.`).waitFor();
  assertEquals(await commentCountOf(t.kv, spammer.user.id), 0);

  const scripted = await phoneContext(browser);
  await signInBrowser(scripted, t.origin, admin);
  const island = await scripted.newPage();
  await openHydrated(island, `${t.origin}/admin/users`);
  await suspendWithComments(island, "Troll Writer");
  await island.getByRole("row", { name: /Troll Writer/ }).getByText("3 comments of theirs were removed.").waitFor();
  await assertAccessible(island, "admin users with comments removed at 360 px");
  assertEquals(await commentCountOf(t.kv, troll.user.id), 0);
});
