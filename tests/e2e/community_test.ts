/**
 * The conversation under an Ungatekeep post in Chromium (docs/decisions.md, Comments and reactions): two students
 * discuss under a post (comment, reply, react) without a reload, the first gets a notification in the header bell,
 * a stored script payload in a comment shows as text and never runs, a guest reads the thread and is offered sign-in
 * back to the post, and an admin deletes a comment from `/admin/comments` (an admin's comment carries its badge);
 * hydrated, a comment's Edit and Delete links open the edit form and the dialog in place, and "Show more comments"
 * loads below; a comment the API refuses is told in the page's language. Every page passes the axe-core check.
 */
import { assert, assertEquals } from "@/tests/helpers/assert.ts";
import { createTestApp, createTestUser } from "@/tests/helpers/app.ts";
import { assertAccessible, openBrowser, openHydrated, signInBrowser } from "@/tests/helpers/browser.ts";
import { createPost } from "@/tests/fixtures/posts.ts";
import { createComment } from "@/lib/comments/comments.ts";
import { PHONE_CONTEXT, phoneContext } from "@/tests/helpers/phone.ts";

const XSS = `<img src=x onerror="window.__xss='img'"><script>window.__xss='script'</script> ` +
  `javascript:window.__xss='link' https://example.com/ok`;

Deno.test("two students comment, reply and react; the first is notified; a script in a comment stays text; an admin deletes a comment", async () => {
  await using t = await createTestApp({ listen: true });
  const admin = await createTestUser(t, "admin");
  const post = await createPost(t, admin, { title: "Cracking the Flipkart OA" });
  const asha = await createTestUser(t, "user", { name: "Asha Rao" });
  const ravi = await createTestUser(t, "user", { name: "Ravi Kumar" });
  await using browser = await openBrowser();
  const url = `${t.origin}/ungatekeep/${post.id}`;

  const ashaContext = await browser.newContext();
  await signInBrowser(ashaContext, t.origin, asha);
  const a = await ashaContext.newPage();
  const dialogs: string[] = [];
  a.on("dialog", (dialog) => {
    dialogs.push(dialog.message());
    dialog.dismiss();
  });
  await openHydrated(a, url);
  await a.getByText("No comments yet.").waitFor();
  await a.getByLabel("Add a comment").fill("Which topics did the OA cover?\nDP or graphs?");
  await a.getByRole("button", { name: "Post comment" }).click();
  await a.getByRole("article", { name: "Comment by Asha Rao" }).getByText("DP or graphs?").waitFor();
  assertEquals(await a.getByLabel("Add a comment").inputValue(), "", "the form is cleared");
  await a.getByLabel("Add a comment").fill(XSS);
  await a.getByRole("button", { name: "Post comment" }).click();
  await a.getByText("javascript:window.__xss='link'").waitFor();
  await assertAccessible(a, "the post with comments, signed in");

  const raviContext = await browser.newContext();
  await signInBrowser(raviContext, t.origin, ravi);
  const r = await raviContext.newPage();
  r.on("dialog", (dialog) => {
    dialogs.push(dialog.message());
    dialog.dismiss();
  });
  await openHydrated(r, url);
  await r.getByText("Which topics did the OA cover?").waitFor();
  await r.getByText("<script>window.__xss='script'</script>", { exact: false }).waitFor();
  assertEquals(await r.evaluate(() => (globalThis as { __xss?: string }).__xss), undefined, "no payload ran");
  assertEquals(await r.locator("section[aria-labelledby=discussion-title] img, section script").count(), 0);
  const link = r.getByRole("link", { name: "https://example.com/ok" });
  assertEquals(await link.getAttribute("rel"), "nofollow ugc noopener");
  assertEquals(await r.locator('a[href^="javascript:"]').count(), 0);

  await r.getByRole("link", { name: "Reply to Asha Rao" }).first().click();
  await r.getByLabel("Reply to Asha Rao").fill("Mostly DP, one graph question.");
  await r.getByRole("button", { name: "Post reply" }).click();
  const replies = r.getByRole("list", { name: "Replies" });
  await replies.getByText("Mostly DP, one graph question.").waitFor();
  const helpful = r.getByRole("button", { name: /Helpful/ });
  await helpful.click();
  await r.locator('button[aria-pressed="true"]', { hasText: "Helpful 1" }).waitFor();
  await helpful.click();
  await r.locator('button[aria-pressed="false"]', { hasText: "Helpful 0" }).waitFor();
  await helpful.click();
  await r.locator('button[aria-pressed="true"]', { hasText: "Helpful 1" }).waitFor();
  await assertAccessible(r, "the post after a reply and a reaction");

  await a.reload();
  await a.getByRole("button", { name: "Notifications, 1 unread" }).click();
  await a.getByText("Ravi Kumar replied to your comment on “Cracking the Flipkart OA”").click();
  await a.waitForURL(/#comment-/);
  await a.getByRole("list", { name: "Replies" }).getByText("Mostly DP, one graph question.").waitFor();
  assertEquals(await a.locator('button[aria-pressed="false"]', { hasText: "Helpful 1" }).count(), 1);

  const guest = await browser.newPage();
  await openHydrated(guest, url);
  await guest.getByText("Mostly DP, one graph question.").waitFor();
  assertEquals(await guest.getByLabel("Add a comment").count(), 0);
  const signIn = guest.getByRole("link", { name: "Sign in to join the discussion" });
  assertEquals(
    await signIn.getAttribute("href"),
    `/sign-in?callbackURL=${encodeURIComponent(`/ungatekeep/${post.id}`)}`,
  );
  await assertAccessible(guest, "the post as a guest");
  const feed = await (await fetch(`${t.origin}/ungatekeep`)).text();
  assert(feed.includes("3 comments"), "the feed card counts comments and replies");

  const adminContext = await browser.newContext();
  await signInBrowser(adminContext, t.origin, admin);
  const m = await adminContext.newPage();
  await openHydrated(m, `${t.origin}/admin/comments`);
  await m.getByRole("link", { name: "Comments", exact: true }).waitFor();
  assertEquals(await m.locator("tbody tr").count(), 3);
  await assertAccessible(m, "/admin/comments");
  await m.getByLabel("Search comments and authors").fill("graph question");
  await m.getByText("1 comment matches.").waitFor();
  assertEquals(await m.locator("tbody tr").count(), 1);
  await m.getByRole("button", { name: "Delete the comment by Ravi Kumar" }).click();
  await m.getByRole("dialog").getByRole("button", { name: "Yes, delete" }).click();
  await m.getByText("The comment by Ravi Kumar was deleted.").waitFor();
  await m.getByText("No comments match.").waitFor();
  await openHydrated(m, url);
  assertEquals(await m.getByText("Mostly DP, one graph question.").count(), 0);
  await m.getByRole("link", { name: "Delete the comment by Asha Rao" }).first().waitFor();
  assertEquals(dialogs, [], "no script opened a dialog");

  // An admin's comment carries the badge no typed name can copy, at 360 px in Hindi too.
  const never = { content: "Never pay anyone for a referral." };
  await createComment(t.kv, { postId: post.id, author: admin.user, input: never, appUrl: t.origin });
  const phone = await browser.newPage(PHONE_CONTEXT);
  await openHydrated(phone, `${url}?lang=hi`);
  await phone.locator('[data-badge="admin"]', { hasText: "एडमिन" }).waitFor();
  await assertAccessible(phone, "an admin's comment, in Hindi at 360 px");
});

Deno.test("hydrated, a comment's Edit and Delete links and Show more comments open in place", async () => {
  await using t = await createTestApp({ listen: true });
  const admin = await createTestUser(t, "admin");
  const post = await createPost(t, admin, { title: "Cracking the Flipkart OA" });
  const asha = await createTestUser(t, "user", { name: "Asha Rao" });
  await using browser = await openBrowser();
  const context = await phoneContext(browser);
  await signInBrowser(context, t.origin, asha);
  const page = await context.newPage();
  const url = `${t.origin}/ungatekeep/${post.id}`;
  await openHydrated(page, url);
  await page.getByLabel("Add a comment").fill("DP or grahps?");
  // Live, the box counts what is typed (the limit alone in words is for a page without JavaScript).
  await page.getByText("13 / 2,000 characters", { exact: true }).waitFor();
  assertEquals(await page.getByText("At most 2,000 characters").count(), 0);
  await assertAccessible(page, "a comment being typed, hydrated at 360 px");
  await page.getByRole("button", { name: "Post comment" }).click();
  const comment = page.getByRole("article", { name: "Comment by Asha Rao" });
  await comment.getByText("DP or grahps?").waitFor();

  await comment.getByRole("link", { name: "Edit your comment" }).click();
  await comment.getByRole("textbox", { name: "Edit your comment" }).fill("DP or graphs?");
  assertEquals(page.url(), url, "the link's page is not opened");
  await comment.getByRole("button", { name: "Save" }).click();
  await comment.getByText("DP or graphs?").waitFor();
  await page.getByText("Comment updated.").waitFor();

  await comment.getByRole("link", { name: "Delete your comment" }).click();
  const dialog = page.getByRole("dialog", { name: "Delete this comment?" });
  await dialog.waitFor();
  assertEquals(page.url(), url, "the link's page is not opened");
  await dialog.getByRole("button", { name: "Yes, delete" }).click();
  await page.getByText("Comment deleted.").waitFor();
  assertEquals(await comment.count(), 0);
  await page.getByText("No comments yet.").waitFor();
  assertEquals(await page.getByRole("link", { name: "Show more comments" }).count(), 0, "nothing more to show");
  assertEquals(await page.locator("#discussion-title").textContent(), "Discussion", "no count of a gone comment");
  // Show more comments loads the next page below, the link's page not opened.
  const names = ["Ravi Kumar", "Meera Nair", "Dev Shah"];
  const writers = await Promise.all(names.map((name) => createTestUser(t, "user", { name })));
  for (let i = 0; i < 22; i++) {
    const author = writers[i % 3].user;
    const input = { content: `Tip ${i + 1}` };
    await createComment(t.kv, { postId: post.id, author, input, appUrl: t.services.config.appUrl });
  }
  await openHydrated(page, url);
  const threads = page.getByRole("list", { name: "Comments" }).locator(":scope > li");
  assertEquals(await threads.count(), 20);
  await page.getByRole("link", { name: "Show more comments" }).click();
  await page.getByText("Tip 22", { exact: true }).waitFor();
  assertEquals([await threads.count(), page.url()], [22, url]);
});

Deno.test("hydrated in Hindi, a comment the API refuses as too long is told in Hindi, its words kept", async () => {
  await using t = await createTestApp({ listen: true });
  const admin = await createTestUser(t, "admin");
  const post = await createPost(t, admin, { title: "Cracking the Flipkart OA" });
  const asha = await createTestUser(t, "user", { name: "Asha Rao" });
  await using browser = await openBrowser();
  const context = await browser.newContext();
  await signInBrowser(context, t.origin, asha);
  const page = await context.newPage();
  await openHydrated(page, `${t.origin}/ungatekeep/${post.id}?lang=hi`);
  // Past the box's own limit (a browser that ignores it): the API's refusal is what the reader meets.
  const box = page.getByLabel("कमेंट लिखें");
  await box.evaluate((area: HTMLTextAreaElement) => area.removeAttribute("maxlength"));
  await box.fill("बहुत लंबा ".repeat(201));
  await page.getByRole("button", { name: "कमेंट पोस्ट करें" }).click();
  await page.getByText("ज़्यादा से ज़्यादा 2,000 अक्षर लिखें।", { exact: true }).waitFor();
  assertEquals(await page.getByText("Use at most").count(), 0, "no English sentence");
  assertEquals((await box.inputValue()).length, 2010, "the words are kept");
});
