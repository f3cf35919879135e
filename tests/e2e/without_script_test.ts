/**
 * A student on a 360 px phone with JavaScript off (docs/decisions.md, Islands, "Forms work without JavaScript"): the
 * reactions, a comment and a reply under an Ungatekeep post are plain forms that post and come back, and editing and
 * deleting one's comment (a confirmation on the page) and "Show more comments" too; "Save" on an
 * internship saves it and shows it on the tracker, whose status, note and "Remove" work as plain forms too; "Alert me"
 * on a filtered list saves the alert; a buyer marks a lesson complete, and then not, from the lesson's page; a member
 * posts an internship (a refused field shown at the field) and edits it; "Mark all read" on the notifications page;
 * an alert's filters, frequency, pause and delete (confirmed on the page) on /me/alerts; "Delete my account" leads to a confirmation page that refuses
 * a wrong password and then deletes the account, signed out; a resume over the upload limit and a form sent too often
 * get a page in the student's language that leads back to the form.
 */
import { Buffer } from "node:buffer";
import { createSession } from "@/lib/auth/sessions.ts";
import { hashPassword } from "@/lib/auth/passwords.ts";
import { createUser, getUser, updateUser } from "@/lib/users/users.ts";
import { assert, assertEquals } from "@/tests/helpers/assert.ts";
import { createTestApp, createTestUser } from "@/tests/helpers/app.ts";
import { stillClock } from "@/tests/helpers/clock.ts";
import { assertAccessibleWithoutScript, openBrowser, signInBrowser } from "@/tests/helpers/browser.ts";
import { createPost } from "@/tests/fixtures/posts.ts";
import { addInternships } from "@/tests/fixtures/internships.ts";
import { createComment, listComments } from "@/lib/comments/comments.ts";
import { savedRecordsOf } from "@/lib/saved/saved.ts";
import { createAlert, listAlerts } from "@/lib/alerts/alerts.ts";
import { getInternship } from "@/lib/internships/internships.ts";
import { addNotification, unreadCount } from "@/lib/notifications/notifications.ts";
import { startFakeRazorpay } from "@/tests/fakes/razorpay.ts";
import { addToolkitWithLessons, buy } from "@/tests/fixtures/toolkits.ts";
import { pdfBytes } from "@/tests/fixtures/resumes.ts";
import { PERSON_LIMITS } from "@/lib/platform/rate_limits.ts";
import { UPLOAD_BODY_LIMIT_BYTES } from "@/lib/platform/route_options.ts";
import { translatorFor } from "@/lib/i18n/catalogue.ts";
import { assertNoSidewaysScroll, phoneContext } from "@/tests/helpers/phone.ts";

Deno.test("without JavaScript a student reacts, comments and replies under a post", async () => {
  await using t = await createTestApp({ listen: true, env: { RATE_LIMITS: "off" } });
  const admin = await createTestUser(t, "admin");
  const student = await createTestUser(t, "user", { name: "Kavya Iyer" });
  const post = await createPost(t, admin, { title: "How I got my first internship" });
  await using browser = await openBrowser();
  const context = await phoneContext(browser, { javaScriptEnabled: false });
  await signInBrowser(context, t.origin, student);
  const page = await context.newPage();
  await page.goto(`${t.origin}/ungatekeep/${post.id}`);

  const helpful = page.getByRole("group", { name: "Reactions" }).getByRole("button", { name: /Helpful/ });
  assertEquals(await helpful.getAttribute("aria-pressed"), "false");
  await helpful.click();
  await page.waitForURL((u) => u.hash === "#reactions");
  assertEquals(await helpful.getAttribute("aria-pressed"), "true");
  assertEquals((await helpful.innerText()).replace(/\s+/g, " ").trim(), "Helpful 1");

  await page.getByLabel("Add a comment").fill("This helped me a lot, thank you.");
  // No count that cannot count: the box says its limit in words.
  await page.getByText("At most 2,000 characters", { exact: true }).waitFor();
  assertEquals(await page.getByText("/ 2,000 characters").count(), 0, "no counter before the island is live");
  await page.getByRole("button", { name: "Post comment" }).click();
  await page.waitForURL((u) => u.hash.startsWith("#comment-"));
  await page.getByText("This helped me a lot, thank you.").waitFor();

  await page.getByRole("link", { name: "Reply to Kavya Iyer" }).click();
  await page.getByLabel("Reply to Kavya Iyer").fill("Adding one more tip: apply early.");
  assertEquals(await page.getByText("At most 2,000 characters", { exact: true }).count(), 2, "the reply's limit too");
  assertEquals(await page.getByText("/ 2,000 characters").count(), 0);
  await assertAccessibleWithoutScript(page, "a post's reply form without JavaScript at 360 px");
  await page.getByRole("button", { name: "Post reply" }).click();
  await page.waitForURL((u) => u.hash.startsWith("#comment-") && !u.searchParams.has("replyTo"));
  await page.getByRole("list", { name: "Replies" }).getByText("Adding one more tip: apply early.").waitFor();
  const { comments } = await listComments(t.kv, { postId: post.id, viewer: null, query: { limit: 20, offset: 0 } });
  assertEquals(comments.map((c) => [c.content, c.replies.map((r) => r.content)]), [
    ["This helped me a lot, thank you.", ["Adding one more tip: apply early."]],
  ]);
  await assertAccessibleWithoutScript(page, "a post with its discussion without JavaScript at 360 px");
});

Deno.test("without JavaScript a student edits a comment, a refusal at the field, then deletes it after a confirmation", async () => {
  await using t = await createTestApp({ listen: true, env: { RATE_LIMITS: "off" } });
  const admin = await createTestUser(t, "admin");
  const student = await createTestUser(t, "user", { name: "Kavya Iyer" });
  const post = await createPost(t, admin, { title: "How I got my first internship" });
  await using browser = await openBrowser();
  const context = await phoneContext(browser, { javaScriptEnabled: false });
  await signInBrowser(context, t.origin, student);
  const page = await context.newPage();
  await page.goto(`${t.origin}/ungatekeep/${post.id}`);
  await page.getByLabel("Add a comment").fill("Apply erly.");
  await page.getByRole("button", { name: "Post comment" }).click();
  await page.waitForURL((u) => u.hash.startsWith("#comment-"));
  const comment = page.getByRole("article", { name: "Comment by Kavya Iyer" });

  await comment.getByRole("link", { name: "Edit your comment" }).click();
  await page.waitForURL((u) => u.searchParams.has("editComment"));
  const text = comment.getByRole("textbox", { name: "Edit your comment" });
  assertEquals(await text.inputValue(), "Apply erly.");
  await text.fill("   ");
  await comment.getByRole("button", { name: "Save" }).click();
  await page.waitForURL((u) => !u.searchParams.has("editComment"));
  assertEquals(await text.getAttribute("aria-invalid"), "true");
  await comment.getByText("Fill in this field.").waitFor();
  await assertAccessibleWithoutScript(page, "a refused comment edit without JavaScript at 360 px");
  await text.fill("Apply early.");
  await comment.getByRole("button", { name: "Save" }).click();
  await page.waitForURL((u) => u.hash.startsWith("#comment-"));
  await comment.getByText("Apply early.").waitFor();
  assertEquals(await text.count(), 0);

  await comment.getByRole("link", { name: "Delete your comment" }).click();
  const box = page.getByRole("region", { name: "Delete this comment?" });
  await box.getByText("The comment by Kavya Iyer: “Apply early.”. The comment will be removed for good.").waitFor();
  await assertAccessibleWithoutScript(page, "a comment's delete confirmation without JavaScript at 360 px");
  await box.getByRole("link", { name: "Cancel" }).click();
  await page.waitForURL((u) => !u.searchParams.has("deleteComment"));
  assertEquals(await box.count(), 0);
  await comment.getByText("Apply early.").waitFor();

  await comment.getByRole("link", { name: "Delete your comment" }).click();
  await box.getByRole("button", { name: "Delete" }).click();
  await page.waitForURL((u) => u.searchParams.has("commentDeleted"));
  await page.getByText("Comment deleted.").waitFor();
  assertEquals(await comment.count(), 0);
  const { comments } = await listComments(t.kv, { postId: post.id, viewer: null, query: { limit: 20, offset: 0 } });
  assertEquals(comments, []);
  await assertAccessibleWithoutScript(page, "a post after deleting a comment without JavaScript at 360 px");
});

Deno.test("without JavaScript Show more comments shows a page more, and a reply there comes back to it", async () => {
  await using t = await createTestApp({ listen: true, env: { RATE_LIMITS: "off" } });
  const admin = await createTestUser(t, "admin");
  const post = await createPost(t, admin, { title: "How I got my first internship" });
  const writers = await Promise.all(
    ["Asha Rao", "Ravi Kumar", "Kavya Iyer"].map((name) => createTestUser(t, "user", { name })),
  );
  for (let i = 0; i < 23; i++) {
    await createComment(t.kv, {
      postId: post.id,
      author: writers[i % 3].user,
      input: { content: `Tip number ${i + 1}` },
      appUrl: t.services.config.appUrl,
    });
  }
  await using browser = await openBrowser();
  const context = await phoneContext(browser, { javaScriptEnabled: false });
  await signInBrowser(context, t.origin, writers[0]);
  const page = await context.newPage();
  await page.goto(`${t.origin}/ungatekeep/${post.id}`);
  const comments = page.getByRole("list", { name: "Comments" }).locator(":scope > li");
  assertEquals(await comments.count(), 20);
  await page.getByRole("link", { name: "Show more comments" }).click();
  await page.waitForURL((u) => u.searchParams.get("comments") === "20");
  assertEquals(await comments.count(), 23);
  assertEquals(await page.getByRole("link", { name: "Show more comments" }).count(), 0);
  await assertAccessibleWithoutScript(page, "a post's comments after Show more without JavaScript at 360 px");

  const last = page.getByRole("article", { name: "Comment by Ravi Kumar" }).filter({ hasText: "Tip number 23" });
  await last.getByRole("link", { name: "Reply to Ravi Kumar" }).click();
  await page.getByLabel("Reply to Ravi Kumar").fill("Thanks, this one worked.");
  await page.getByRole("button", { name: "Post reply" }).click();
  await page.waitForURL((u) => u.searchParams.get("comments") === "20" && u.hash.startsWith("#comment-"));
  await last.getByText("Thanks, this one worked.").waitFor();
});

Deno.test("without JavaScript Save puts an internship on the tracker, where status, note and Remove work", async () => {
  await using t = await createTestApp({ listen: true });
  const member = await createTestUser(t, "member");
  const student = await createTestUser(t, "user");
  const [internship] = await addInternships(t, member, [{ title: "Robotics Intern" }]);
  await using browser = await openBrowser();
  const context = await phoneContext(browser, { javaScriptEnabled: false });
  await signInBrowser(context, t.origin, student);
  const page = await context.newPage();

  await page.goto(`${t.origin}/internships/${internship.id}`);
  await page.getByRole("button", { name: "Save Robotics Intern" }).click();
  await page.waitForURL((u) => u.pathname === "/me/tracker" && u.searchParams.get("done") === "saved");
  await page.getByText("Saved to My applications.").waitFor();
  assertEquals((await savedRecordsOf(t.kv, student.user.id)).map((r) => [r.id, r.status]), [[internship.id, "saved"]]);

  const item = page.locator(`#tracker-internships-${internship.id}`);
  await item.getByLabel("Status").selectOption("applied");
  await item.getByLabel("Note").fill("Applied through the careers page.");
  await item.getByRole("button", { name: "Save for Robotics Intern" }).click();
  await page.getByText("Your changes are saved.").waitFor();
  const [record] = await savedRecordsOf(t.kv, student.user.id);
  assertEquals([record.status, record.note], ["applied", "Applied through the careers page."]);
  await assertAccessibleWithoutScript(page, "the tracker without JavaScript at 360 px");

  await page.locator(`#tracker-internships-${internship.id}`).getByRole("button", { name: "Remove Robotics Intern" })
    .click();
  await page.getByText("Removed from My applications.").waitFor();
  assertEquals(await savedRecordsOf(t.kv, student.user.id), []);
});

Deno.test("without JavaScript Alert me saves the filters shown as an alert", async () => {
  await using t = await createTestApp({ listen: true });
  const student = await createTestUser(t, "user");
  await using browser = await openBrowser();
  const context = await phoneContext(browser, { javaScriptEnabled: false });
  await signInBrowser(context, t.origin, student);
  const page = await context.newPage();
  await page.goto(`${t.origin}/internships?search=data&location=Pune`);
  await page.getByRole("button", { name: "Alert me about new matches" }).click();
  await page.waitForURL((u) => u.pathname === "/me/alerts" && u.searchParams.has("created"));
  await page.getByText("Alert saved: we will e-mail you new matches every morning.").waitFor();
  const [alert] = await listAlerts(t.kv, student.user.id);
  assertEquals([alert.kind, alert.query], ["internships", { location: "Pune", search: "data" }]);
  await assertAccessibleWithoutScript(page, "/me/alerts after Alert me without JavaScript at 360 px");
});

Deno.test("without JavaScript a buyer marks a lesson complete and then not", async () => {
  await using fake = startFakeRazorpay();
  await using t = await createTestApp({ listen: true, env: fake.env });
  const admin = await createTestUser(t, "admin");
  const learner = await createTestUser(t, "user", { name: "Sara Khan" });
  const { toolkit, lessons } = await addToolkitWithLessons({ t, admin }, { lessons: ["Joins", "Window functions"] });
  await buy({ t, fake }, learner, toolkit.id);
  await using browser = await openBrowser();
  const context = await phoneContext(browser, { javaScriptEnabled: false });
  await signInBrowser(context, t.origin, learner);
  const page = await context.newPage();
  const lesson = `${t.origin}/toolkits/${toolkit.id}/learn/${lessons[0].id}`;
  await page.goto(lesson);
  const bar = page.getByRole("progressbar");
  assertEquals(await bar.getAttribute("aria-valuenow"), "0");

  await page.getByRole("button", { name: "Mark as complete" }).click();
  await page.waitForURL(lesson);
  assertEquals(await bar.getAttribute("aria-valuenow"), "50");
  assertEquals(await page.getByRole("button", { name: "✓ Completed" }).getAttribute("aria-pressed"), "true");
  await page.getByRole("link", { name: "Next lesson →" }).waitFor();
  await assertAccessibleWithoutScript(page, "lesson marked complete");

  await page.getByRole("button", { name: "✓ Completed" }).click();
  await page.waitForURL(lesson);
  assertEquals(await bar.getAttribute("aria-valuenow"), "0");
});

Deno.test("without JavaScript a member posts an internship, fixes what was refused, and edits it", async () => {
  await using t = await createTestApp({ listen: true });
  const member = await createTestUser(t, "member");
  await using browser = await openBrowser();
  const context = await phoneContext(browser, { javaScriptEnabled: false });
  await signInBrowser(context, t.origin, member);
  const page = await context.newPage();
  await page.goto(`${t.origin}/internships/new`);
  await page.getByLabel("Title").fill("Field Research Intern");
  await page.getByLabel("Hiring organization").fill("Gram Vikas Trust");
  await page.getByRole("textbox", { name: "Application link" }).fill("gramvikas.example/jobs");
  await page.getByLabel("Monthly stipend (₹)").fill("about ten thousand");
  await page.getByRole("button", { name: "Post internship" }).click();
  const stipend = page.getByLabel("Monthly stipend (₹)");
  await page.locator("#internship-stipend-error").waitFor();
  assertEquals(await stipend.getAttribute("aria-invalid"), "true");
  assertEquals(await page.getByLabel("Title").inputValue(), "Field Research Intern", "what was typed is kept");
  await assertAccessibleWithoutScript(page, "a refused internship form without JavaScript at 360 px");

  await stipend.fill("₹10,000");
  await page.getByRole("button", { name: "Post internship" }).click();
  await page.waitForURL((u) => /^\/internships\/[^/]+$/.test(u.pathname));
  await page.getByRole("heading", { level: 1, name: "Field Research Intern" }).waitFor();
  const id = new URL(page.url()).pathname.split("/")[2];
  const posted = await getInternship(t.kv, { id, viewer: member.user, audience: "owner" });
  assertEquals([posted.link, posted.stipend], ["https://gramvikas.example/jobs", 10_000]);

  await page.goto(`${t.origin}/internships/${id}/edit`);
  await page.getByLabel("Title").fill("Field Research Intern (Odisha)");
  await page.getByRole("button", { name: "Save changes" }).click();
  await page.waitForURL(`${t.origin}/internships/${id}?saved=1`);
  await page.getByRole("heading", { level: 1, name: "Field Research Intern (Odisha)" }).waitFor();
});

Deno.test("without JavaScript a member posts an internship that takes applications here, with a question", async () => {
  await using t = await createTestApp({ listen: true });
  const member = await createTestUser(t, "member");
  await using browser = await openBrowser();
  const context = await phoneContext(browser, { javaScriptEnabled: false });
  await signInBrowser(context, t.origin, member);
  const page = await context.newPage();
  await page.goto(`${t.origin}/internships/new`);
  await page.getByLabel("Title").fill("Survey Intern");
  await page.getByLabel("Hiring organization").fill("Gram Vikas Trust");
  const question = page.getByLabel("Question 1");
  assert(!(await question.isVisible()), "no question slot while students apply on the organization's site");
  await page.getByLabel("Here on Career Community, with screening questions").check();
  await question.fill("Which district do you know best?");
  await page.getByLabel("An answer is required").first().uncheck();
  await assertAccessibleWithoutScript(page, "the internship form with its question slots");
  await page.getByRole("button", { name: "Post internship" }).click();
  await page.waitForURL((u) => /^\/internships\/[^/]+$/.test(u.pathname));
  const id = new URL(page.url()).pathname.split("/")[2];
  const posted = await getInternship(t.kv, { id, viewer: member.user, audience: "owner" });
  assertEquals(posted.applyMode, "platform");
  assertEquals(posted.questions.map(({ text, required }) => ({ text, required })), [
    { text: "Which district do you know best?", required: false },
  ]);
});

Deno.test("without JavaScript Mark all read marks every notification read; the bell shows the count on that page", async () => {
  await using t = await createTestApp({ listen: true });
  const student = await createTestUser(t, "user");
  const op = t.kv.atomic();
  for (const title of ["Your opportunity is live", "A reply to your comment"]) {
    addNotification(op, { userId: student.user.id, type: "comment_reply", title, body: "Open it.", url: "/" });
  }
  assert((await op.commit()).ok);
  await using browser = await openBrowser();
  const context = await phoneContext(browser, { javaScriptEnabled: false });
  await signInBrowser(context, t.origin, student);
  const page = await context.newPage();
  await page.goto(`${t.origin}/me/notifications`);
  await page.getByText("2 unread", { exact: true }).waitFor();
  // The page read the count anyway: the header's bell shows it too.
  const header = page.getByRole("banner");
  await header.getByRole("link", { name: "Notifications, 2 unread" }).waitFor();
  assertEquals(await header.getByTestId("unread-count").innerText(), "2");
  await page.getByRole("button", { name: "Mark all read" }).click();
  await page.getByText("No unread notifications.").waitFor();
  await header.getByRole("link", { name: "Notifications", exact: true }).waitFor();
  assertEquals(await header.getByTestId("unread-count").count(), 0);
  assertEquals(page.url(), `${t.origin}/me/notifications`);
  assertEquals(await unreadCount(t.kv, student.user.id), 0);
  await assertAccessibleWithoutScript(page, "/me/notifications after Mark all read without JavaScript at 360 px");
});

Deno.test("without JavaScript a student edits an alert's filters and pauses it", async () => {
  await using t = await createTestApp({ listen: true });
  const student = await createTestUser(t, "user");
  const { id } = await createAlert(t.kv, {
    userId: student.user.id,
    input: { kind: "internships", query: { search: "data" }, frequency: "daily" },
  });
  await using browser = await openBrowser();
  const context = await phoneContext(browser, { javaScriptEnabled: false });
  await signInBrowser(context, t.origin, student);
  const page = await context.newPage();
  await page.goto(`${t.origin}/me/alerts`);
  const location = page.locator(`#alert-${id}-location`);
  await location.fill("Bengaluru");
  await page.getByLabel("Frequency").selectOption("weekly");
  await page.getByRole("button", { name: "Save filters" }).click();
  await page.getByText("Your changes are saved.").waitFor();
  let [alert] = await listAlerts(t.kv, student.user.id);
  assertEquals([alert.query, alert.frequency], [{ search: "data", location: "Bengaluru" }, "weekly"]);
  assertEquals(await location.inputValue(), "Bengaluru");

  await page.getByLabel("Minimum stipend (₹ a month)").fill("a lot");
  await page.getByRole("button", { name: "Save filters" }).click();
  await page.locator(`#alert-${id}-minStipend-error`).waitFor();
  await assertAccessibleWithoutScript(page, "a refused alert form without JavaScript at 360 px");

  await page.getByRole("button", { name: "Pause" }).click();
  await page.getByRole("button", { name: "Resume" }).waitFor();
  [alert] = await listAlerts(t.kv, student.user.id);
  assertEquals([alert.isActive, alert.query.minStipend], [false, undefined]);
});

Deno.test("without JavaScript Delete on /me/alerts confirms on the page, Cancel keeps the alert, Delete deletes it", async () => {
  await using t = await createTestApp({ listen: true });
  const student = await createTestUser(t, "user");
  await createAlert(t.kv, {
    userId: student.user.id,
    input: { kind: "internships", query: { search: "data" }, frequency: "daily" },
  });
  await using browser = await openBrowser();
  const context = await phoneContext(browser, { javaScriptEnabled: false });
  await signInBrowser(context, t.origin, student);
  const page = await context.newPage();
  await page.goto(`${t.origin}/me/alerts`);
  await page.getByRole("link", { name: "Delete" }).click();
  const box = page.getByRole("region", { name: "Delete this alert?" });
  await box.getByText("“Internships: search data” will no longer be e-mailed.").waitFor();
  await assertAccessibleWithoutScript(page, "an alert's delete confirmation without JavaScript at 360 px");
  await box.getByRole("link", { name: "Cancel" }).click();
  await page.waitForURL(`${t.origin}/me/alerts`);
  assertEquals(await box.count(), 0);
  assertEquals((await listAlerts(t.kv, student.user.id)).length, 1, "Cancel deletes nothing");

  await page.getByRole("link", { name: "Delete" }).click();
  await box.getByRole("button", { name: "Delete" }).click();
  await page.waitForURL(`${t.origin}/me/alerts?deleted=1`);
  await page.getByText("Alert deleted.").waitFor();
  assertEquals(await listAlerts(t.kv, student.user.id), []);
  await assertAccessibleWithoutScript(page, "/me/alerts after deleting an alert without JavaScript at 360 px");
});

Deno.test("without JavaScript Delete my account confirms on its own page, refuses a wrong password, then deletes", async () => {
  await using t = await createTestApp({ listen: true });
  const email = "meera@example.com";
  const user = await createUser(t.kv, {
    name: "Meera",
    email,
    emailVerified: true,
    role: "user",
    passwordHash: await hashPassword("meera password 1"),
  });
  await using browser = await openBrowser();
  const context = await phoneContext(browser, { javaScriptEnabled: false });
  await signInBrowser(context, t.origin, { cookie: `session=${(await createSession(t.kv, user.id)).token}` });
  const page = await context.newPage();
  await page.goto(`${t.origin}/profile`);

  await page.getByRole("button", { name: "Delete my account" }).click();
  await page.waitForURL((u) => u.pathname === "/profile/delete");
  await page.getByRole("heading", { name: "Delete your account?" }).waitFor();
  await assertAccessibleWithoutScript(page, "the account deletion page without JavaScript at 360 px");
  await page.getByLabel("Your e-mail address").fill(email);
  await page.getByLabel("Your password").fill("not my password");
  await page.getByRole("button", { name: "Delete my account" }).click();
  await page.getByText("Wrong password.").waitFor();
  assertEquals(await page.getByLabel("Your e-mail address").inputValue(), email, "the e-mail stays typed");
  assertEquals((await getUser(t.kv, user.id))?.email, email, "a wrong password deletes nothing");

  await page.getByLabel("Your password").fill("meera password 1");
  await page.getByRole("button", { name: "Delete my account" }).click();
  await page.waitForURL(`${t.origin}/?accountDeleted=1`);
  await page.getByText("Your account has been deleted").waitFor();
  assertEquals((await context.cookies()).filter((c) => c.name === "session").length, 0);
  assertEquals(await getUser(t.kv, user.id), null);
});

Deno.test("without JavaScript a refused form gets a page in the student's language with the way back", async () => {
  // A still rate-limit clock: the window the test fills must not end before its last post.
  await using t = await createTestApp({ listen: true, rateLimitClock: stillClock() });
  const student = await createTestUser(t, "user", { name: "Kavya Iyer" });
  await updateUser(t.kv, student.user.id, { language: "hi" });
  await using browser = await openBrowser();
  const context = await phoneContext(browser, { javaScriptEnabled: false });
  await signInBrowser(context, t.origin, student);
  const page = await context.newPage();

  await page.goto(`${t.origin}/profile`);
  await page.getByLabel("अपना रिज़्यूमे अपलोड करें").setInputFiles({
    name: "resume.pdf",
    mimeType: "application/pdf",
    buffer: Buffer.from(pdfBytes(UPLOAD_BODY_LIMIT_BYTES + 1024)),
  });
  await page.getByRole("button", { name: "अपलोड करें", exact: true }).click();
  await page.getByRole("heading", { name: "यह बहुत बड़ा है" }).waitFor();
  await page.getByText(translatorFor("hi")("common.refusal.resumeTooLarge"), { exact: true }).waitFor();
  await assertNoSidewaysScroll(page);
  await assertAccessibleWithoutScript(page, "the page of a form refused as too large, without JavaScript at 360 px");
  await page.getByRole("link", { name: "फ़ॉर्म पर वापस जाएँ" }).click();
  await page.waitForURL((u) => u.pathname === "/profile");

  const rule = PERSON_LIMITS.settings;
  for (let i = 0; i < rule.limit; i++) await t.services.rateLimits.hit(rule, `user:${student.user.id}`);
  await page.goto(`${t.origin}/me/settings`);
  await page.getByRole("button", { name: "भाषा सेव करें" }).click();
  await page.getByRole("heading", { name: "बहुत ज़्यादा कोशिशें" }).waitFor();
  await assertNoSidewaysScroll(page);
  await assertAccessibleWithoutScript(page, "the page of a form sent too often, without JavaScript at 360 px");
  await page.getByRole("link", { name: "फ़ॉर्म पर वापस जाएँ" }).click();
  await page.waitForURL((u) => u.pathname === "/me/settings");
});
