/**
 * Comments, replies and reactions on Ungatekeep posts (docs/api.md, Ungatekeep): every rule per role,
 * through the real app over a real (in-memory) KV; the post page's plain forms that edit and delete a comment.
 */
import { kvFailingCommits, kvHoldingCommit, kvWithCommits } from "@/tests/fixtures/failing_kv.ts";
import { assert, assertEquals, assertRejects } from "@/tests/helpers/assert.ts";
import { createTestApp, createTestUser, postForm, type TestApp, type TestUser } from "@/tests/helpers/app.ts";
import { htmlDocument } from "@/tests/fixtures/html.ts";
import { createUser } from "@/lib/users/users.ts";
import { createSession } from "@/lib/auth/sessions.ts";
import { seedDemoData } from "@/lib/demo/seed.ts";
import { DISCUSSED_POST } from "@/lib/demo/comments.ts";
import { createPost, uploadedId } from "@/tests/fixtures/posts.ts";
import { askedThread } from "@/tests/fixtures/comments.ts";
import { deletePost } from "@/lib/ungatekeep/posts.ts";
import {
  createComment,
  editComment,
  listCommentsForAdmin,
  removeComment,
  SEARCHED_COMMENTS,
} from "@/lib/comments/comments.ts";
import { kvReads, recordingReads } from "@/tests/helpers/kv_reads.ts";
import { withLatency } from "@/tests/helpers/kv_latency.ts";
import {
  commentsOf,
  deleteConversation,
  forgetCommentAuthor,
  readReplyGate,
  REPLY_GAP_MS,
} from "@/lib/comments/store.ts";
import { readMail } from "@/lib/mail/outbox.ts";
import { addNotification } from "@/lib/notifications/notifications.ts";
import { readPushMessage } from "@/lib/push/outbox.ts";
import { findJob, runJob } from "@/lib/jobs/registry.ts";
import { deleteAccount } from "@/lib/account/deletion.ts";
import { smtpRefusal, startFakeSmtp } from "@/tests/fakes/smtp.ts";
import { react } from "@/lib/comments/reactions.ts";
import type { Comment } from "@/lib/comments/schema.ts";

const DAY = 24 * 60 * 60 * 1000;

interface Thread {
  id: string;
  parentId: string | null;
  content: string;
  contentHtml: string;
  isDeleted: boolean;
  user: { id: string; name: string } | null;
  replies: Thread[];
}

function comment(t: TestApp, who: TestUser, postId: string, content: string, parentId?: string) {
  return t.json("POST", `/api/ungatekeep/${postId}/comments`, { body: { content, parentId }, headers: who.headers });
}

async function written(t: TestApp, who: TestUser, postId: string, content: string, parentId?: string) {
  const res = await comment(t, who, postId, content, parentId);
  assertEquals(res.status, 201, await res.clone().text());
  return (await res.json()).comment as Thread;
}

async function thread(t: TestApp, postId: string, who?: TestUser, query = "") {
  const res = await t.fetch(`/api/ungatekeep/${postId}/comments${query}`, { headers: who?.headers });
  assertEquals(res.status, 200);
  return await res.json() as { comments: Thread[]; pagination: { total: number; hasMore: boolean } };
}

async function readPost(t: TestApp, postId: string, who?: TestUser) {
  const res = await t.fetch(`/api/ungatekeep/${postId}`, { headers: who?.headers });
  assertEquals(res.status, 200);
  return (await res.json()).post;
}

/** Four live posts: the newest three are the guest preview, `hidden` is beyond it. */
async function setup(t: TestApp) {
  const admin = await createTestUser(t, "admin");
  const hidden = await createPost(t, admin, {
    title: "Old",
    publishedAt: new Date(Date.now() - 9 * DAY).toISOString(),
  });
  const post = await createPost(t, admin, { title: "Open", publishedAt: new Date(Date.now() - DAY).toISOString() });
  await createPost(t, admin, { title: "Two" });
  await createPost(t, admin, { title: "Three" });
  return { admin, post, hidden };
}

Deno.test("comments: a guest reads the thread of a preview post, gets 401 beyond it and cannot write", async () => {
  await using t = await createTestApp();
  const { post, hidden } = await setup(t);
  const student = await createTestUser(t, "user", { name: "Asha" });
  await written(t, student, post.id, "First!");
  await written(t, student, hidden.id, "On the old one");
  const guest = await thread(t, post.id);
  assertEquals(guest.comments.map((c) => [c.content, c.user?.name]), [["First!", "Asha"]]);
  assertEquals(Object.keys(guest.comments[0].user!).sort(), ["id", "image", "name", "role"], "no e-mail");
  const beyond = await t.fetch(`/api/ungatekeep/${hidden.id}/comments`);
  assertEquals([beyond.status, (await beyond.json()).error], [401, "Sign in to read this post"]);
  assertEquals((await thread(t, hidden.id, student)).comments.length, 1, "a signed-in user reads any live post");
  assertEquals((await t.json("POST", `/api/ungatekeep/${post.id}/comments`, { body: { content: "x" } })).status, 401);
  assertEquals((await t.fetch(`/api/ungatekeep/${crypto.randomUUID()}/comments`)).status, 404);
  assertEquals((await comment(t, student, crypto.randomUUID(), "x")).status, 404, "unknown post");
});

Deno.test("comments: an unverified user is refused with 403; drafts take no comments", async () => {
  await using t = await createTestApp();
  const { admin, post } = await setup(t);
  const user = await createUser(t.kv, { name: "New", email: "new@example.com", emailVerified: false, role: "user" });
  const { token } = await createSession(t.kv, user.id);
  const headers = { cookie: `session=${token}` };
  const res = await t.json("POST", `/api/ungatekeep/${post.id}/comments`, { body: { content: "Hello" }, headers });
  assertEquals(res.status, 403);
  assertEquals((await thread(t, post.id)).comments, []);
  const draft = await createPost(t, admin, { title: "Draft", isPublished: false });
  assertEquals((await comment(t, admin, draft.id, "Not yet")).status, 404);
});

Deno.test("comments: empty and 2,001 characters are 400; 2,000 are kept; HTML and javascript: links stay text", async () => {
  await using t = await createTestApp();
  const { post } = await setup(t);
  const student = await createTestUser(t);
  for (const content of ["", "   \n ", "x".repeat(2001)]) {
    assertEquals((await comment(t, student, post.id, content)).status, 400, `${content.length} characters`);
  }
  assertEquals((await comment(t, student, post.id, "é".repeat(2000))).status, 201);
  const xss = await written(
    t,
    student,
    post.id,
    '<script>alert(1)</script> <img src=x onerror="alert(2)">\njavascript:alert(3) ' +
      "[click](javascript:alert(4)) see https://example.com/a_(b)?q=1&r=2. and <b>bold</b>",
  );
  assertEquals(
    xss.contentHtml,
    "&lt;script&gt;alert(1)&lt;/script&gt; &lt;img src=x onerror=&quot;alert(2)&quot;&gt;<br>javascript:alert(3) " +
      '[click](javascript:alert(4)) see <a href="https://example.com/a_(b)?q=1&amp;r=2" rel="nofollow ugc noopener">' +
      "https://example.com/a_(b)?q=1&amp;r=2</a>. and &lt;b&gt;bold&lt;/b&gt;",
  );
  assert(xss.content.startsWith("<script>"), "content is kept as written, plain text");
});

Deno.test("comments: stacked marks are cut to four a character, in the comment and its author's name", async () => {
  await using t = await createTestApp();
  const { post } = await setup(t);
  const student = await createTestUser(t);
  const zalgo = (text: string, pairs = 40) => [...text].map((char) => char + "\u0301\u0316".repeat(pairs)).join("");
  const capped = (text: string) => [...text].map((char) => char + "\u0301\u0316".repeat(2)).join("");
  const renamed = await t.json("POST", "/api/profile", { body: { name: zalgo("Ravi", 10) }, headers: student.headers });
  assertEquals(renamed.status, 200, await renamed.clone().text());
  const hindi = "\u0921\u093C\u0940\u0902 \u0905\u0917\u094D\u0928\u093F\u0951\u092E\u094D";
  const mine = await written(t, student, post.id, `${zalgo("He comes")} ${hindi}`);
  assertEquals(mine.content, `${capped("He comes")} ${hindi}`);
  const [read] = (await thread(t, post.id, student)).comments;
  assertEquals([read.content, read.user?.name], [`${capped("He comes")} ${hindi}`, capped("Ravi")]);
});

Deno.test("comments: replies nest one level; a reply to a reply is flattened to its top-level comment", async () => {
  await using t = await createTestApp();
  const { post } = await setup(t);
  const [a, b] = [await createTestUser(t), await createTestUser(t)];
  const top = await written(t, a, post.id, "Question?");
  const reply = await written(t, b, post.id, "Answer", top.id);
  const deeper = await written(t, a, post.id, "Thanks!", reply.id);
  assertEquals([reply.parentId, deeper.parentId], [top.id, top.id]);
  const second = await written(t, b, post.id, "Another thread");
  const { comments } = await thread(t, post.id);
  assertEquals(comments.map((c) => [c.content, c.replies.map((r) => r.content)]), [
    ["Question?", ["Answer", "Thanks!"]],
    ["Another thread", []],
  ]);
  assertEquals(comments[1].id, second.id);
  assertEquals((await readPost(t, post.id)).commentCount, 4);
  const other = await createPost(t, (await setup(t)).admin, { title: "Elsewhere" });
  assertEquals((await comment(t, a, other.id, "x", top.id)).status, 404, "a parent of another post");
  assertEquals((await comment(t, a, post.id, "x", crypto.randomUUID())).status, 404);
});

Deno.test("comments: pages count top-level comments; offset pages go on where the first ended", async () => {
  await using t = await createTestApp();
  const { post } = await setup(t);
  const writers = await Promise.all(Array.from({ length: 6 }, () => createTestUser(t)));
  for (let i = 0; i < 25; i++) {
    const top = await written(t, writers[i % 6], post.id, `Comment ${i}`);
    if (i % 5 === 0) await written(t, writers[(i + 1) % 6], post.id, `Reply to ${i}`, top.id);
  }
  const first = await thread(t, post.id, undefined, "?limit=10");
  assertEquals(first.comments.map((c) => c.content), Array.from({ length: 10 }, (_, i) => `Comment ${i}`));
  assertEquals(first.comments[5].replies.map((r) => r.content), ["Reply to 5"]);
  assertEquals([first.pagination.total, first.pagination.hasMore], [25, true]);
  const last = await thread(t, post.id, writers[0], "?limit=10&offset=20");
  assertEquals(last.comments.map((c) => c.content), [
    "Comment 20",
    "Comment 21",
    "Comment 22",
    "Comment 23",
    "Comment 24",
  ]);
  assertEquals(last.comments[0].replies.map((r) => r.content), ["Reply to 20"]);
  assertEquals(last.pagination.hasMore, false);
  assertEquals((await thread(t, post.id, undefined, "?offset=30")).comments, []);
  assertEquals((await t.fetch(`/api/ungatekeep/${post.id}/comments?limit=0`)).status, 400);
});

Deno.test("comments: the author edits within 15 minutes; later, or anyone else, is refused", async () => {
  await using t = await createTestApp();
  const { post, admin } = await setup(t);
  const [author, other] = [await createTestUser(t), await createTestUser(t)];
  const mine = await written(t, author, post.id, "Typo hre");
  const edit = (who: TestUser, content: string) =>
    t.json("PATCH", `/api/ungatekeep/comments/${mine.id}`, { body: { content }, headers: who.headers });
  const res = await edit(author, "Typo here, see https://example.com");
  assertEquals(res.status, 200);
  const { comment: edited } = await res.json();
  assertEquals(edited.content, "Typo here, see https://example.com");
  assert(edited.contentHtml.includes('rel="nofollow ugc noopener"'));
  assertEquals((await edit(other, "Hijack")).status, 403);
  assertEquals((await edit(admin, "Admins delete, they do not edit")).status, 403);
  assertEquals((await edit(author, "x".repeat(2001))).status, 400);
  const realNow = Date.now;
  Date.now = () => realNow() + 16 * 60 * 1000;
  try {
    assertEquals((await edit(author, "Too late")).status, 403);
  } finally {
    Date.now = realNow;
  }
  assertEquals((await thread(t, post.id)).comments[0].content, "Typo here, see https://example.com");
  assertEquals(
    (await t.json("PATCH", `/api/ungatekeep/comments/${crypto.randomUUID()}`, {
      body: { content: "x" },
      headers: author.headers,
    })).status,
    404,
  );
});

Deno.test("comments: author and admin delete; a comment with replies stays as a placeholder; counts follow", async () => {
  await using t = await createTestApp();
  const { post, admin } = await setup(t);
  const [a, b] = [await createTestUser(t), await createTestUser(t)];
  const top = await written(t, a, post.id, "Top");
  const reply = await written(t, b, post.id, "Reply", top.id);
  const lone = await written(t, b, post.id, "Lone");
  const del = (who: TestUser, id: string) =>
    t.json("DELETE", `/api/ungatekeep/comments/${id}`, { headers: who.headers });
  assertEquals((await del(b, top.id)).status, 403, "another user's comment");
  assertEquals((await t.json("DELETE", `/api/ungatekeep/comments/${top.id}`)).status, 401);
  assertEquals(await (await del(a, top.id)).json(), { success: true });
  let page = await thread(t, post.id);
  assertEquals(page.comments.map((c) => [c.isDeleted, c.content, c.contentHtml, c.user, c.replies.length]), [
    [true, "", "", null, 1],
    [false, "Lone", "Lone", page.comments[1].user, 0],
  ]);
  assertEquals((await readPost(t, post.id)).commentCount, 2, "the placeholder is not counted");
  assertEquals((await del(a, top.id)).status, 404, "already deleted");
  assertEquals(
    (await t.json("PATCH", `/api/ungatekeep/comments/${top.id}`, { body: { content: "x" }, headers: a.headers }))
      .status,
    404,
  );
  assertEquals((await comment(t, b, post.id, "To the placeholder", top.id)).status, 404);
  assertEquals((await del(admin, lone.id)).status, 200, "an admin deletes anyone's comment");
  assertEquals((await del(admin, reply.id)).status, 200);
  page = await thread(t, post.id);
  assertEquals(page.comments, [], "a placeholder goes with its last reply");
  assertEquals(page.pagination.total, 0);
  assertEquals((await readPost(t, post.id)).commentCount, 0);
});

Deno.test("the post page marks an admin's comment, which a student's name alone cannot copy, in English and Hindi", async () => {
  await using t = await createTestApp();
  const { post } = await setup(t);
  const admin = await createTestUser(t, "admin", { name: "Asha Rao" });
  const lookalike = await createTestUser(t, "user", { name: "Asha Rao Admin" });
  const real = await written(t, admin, post.id, "Never pay anyone for a referral.");
  const fake = await written(t, lookalike, post.id, "Pay ₹500 for a referral, DM me.");
  for (const [lang, label] of [["en", "Admin"], ["hi", "एडमिन"]]) {
    const page = htmlDocument(await (await t.fetch(`/ungatekeep/${post.id}?lang=${lang}`)).text());
    const badge = (id: string) => page.querySelector(`#comment-${id} [data-badge="admin"]`)?.textContent ?? null;
    assertEquals([badge(real.id), badge(fake.id)], [label, null], lang);
  }
});

Deno.test("the post page edits and deletes a comment as plain forms: links, confirmation, refusals, 303", async () => {
  await using t = await createTestApp();
  const { post, admin, hidden } = await setup(t);
  const [author, other] = [await createTestUser(t), await createTestUser(t)];
  const mine = await written(t, author, post.id, "Typo hre");
  const here = `/ungatekeep/${post.id}`;
  const pageOf = async (who: TestUser, query = "") =>
    htmlDocument(await (await t.fetch(`${here}${query}`, { headers: who.headers })).text());
  const refused = async (res: Response, status: number) => {
    assertEquals(res.status, status);
    await res.body?.cancel();
  };

  let page = await pageOf(author);
  const links = [...page.querySelectorAll(`#comment-${mine.id} a`)].map((a) => a.getAttribute("href"));
  assert(links.includes(`?editComment=${mine.id}#edit-${mine.id}`), links.join(" "));
  assert(links.includes(`?deleteComment=${mine.id}#delete-comment`), links.join(" "));
  assertEquals(page.getElementById(`edit-${mine.id}`), null);
  page = await pageOf(author, `?editComment=${mine.id}`);
  assertEquals(page.getElementById(`edit-${mine.id}`)?.textContent, "Typo hre");
  const fields = (form: Element | null | undefined) =>
    [...form?.querySelectorAll("input") ?? []].map((i) => [i.getAttribute("name"), i.getAttribute("value")]);
  assertEquals(fields(page.getElementById(`edit-${mine.id}`)?.closest("form")), [
    ["intent", "editComment"],
    ["id", mine.id],
  ]);
  assertEquals((await pageOf(other, `?editComment=${mine.id}`)).getElementById(`edit-${mine.id}`), null);

  // Edits: another person's 403, through another post's page 404, from another site 403; nothing changes.
  const edit = (who: TestUser, content: string, path = here, headers = {}) =>
    postForm(t, who, path, { intent: "editComment", id: mine.id, content }, headers);
  await refused(await edit(other, "Hijack"), 403);
  await refused(await edit(admin, "Admins delete, they do not edit"), 403);
  await refused(await edit(author, "Elsewhere", `/ungatekeep/${hidden.id}`), 404);
  await refused(await edit(author, "Cross", here, { origin: "https://evil.example" }), 403);
  const tooLong = await edit(author, "x".repeat(2001));
  assertEquals(tooLong.status, 400);
  page = htmlDocument(await tooLong.text());
  const textarea = page.getElementById(`edit-${mine.id}`);
  assertEquals([textarea?.textContent, textarea?.getAttribute("aria-invalid")], ["x".repeat(2001), "true"]);
  assert(page.getElementById(`edit-${mine.id}-error`)?.textContent, "the refusal at the field");
  const realNow = Date.now;
  Date.now = () => realNow() + 16 * 60 * 1000;
  try {
    const late = await edit(author, "Too late");
    assertEquals(late.status, 403);
    page = htmlDocument(await late.text());
    assertEquals(page.getElementById(`edit-${mine.id}`)?.textContent, "Too late", "the text is kept");
    assertEquals(
      page.getElementById(`edit-${mine.id}-error`)?.textContent,
      "A comment can be edited only within 15 minutes of posting it.",
    );
  } finally {
    Date.now = realNow;
  }
  assertEquals((await thread(t, post.id)).comments[0].content, "Typo hre", "no refused edit was saved");
  const saved = await edit(author, "Typo here");
  assertEquals([saved.status, saved.headers.get("location")], [303, `${here}#comment-${mine.id}`]);
  assertEquals((await thread(t, post.id)).comments[0].content, "Typo here");

  // Deletes: a confirmation for who may delete; another person's 403, another post's 404, another site's 403.
  page = await pageOf(author, `?deleteComment=${mine.id}`);
  const box = page.getElementById("delete-comment");
  assert(box?.textContent?.includes("“Typo here”. The comment will be removed for good."), box?.textContent ?? "");
  assertEquals(fields(box?.querySelector("form")), [["intent", "deleteComment"], ["id", mine.id]]);
  assertEquals((await pageOf(other, `?deleteComment=${mine.id}`)).getElementById("delete-comment"), null);
  assert((await pageOf(admin, `?deleteComment=${mine.id}`)).getElementById("delete-comment"), "an admin may delete");
  const del = (who: TestUser, path = here, headers = {}) =>
    postForm(t, who, path, { intent: "deleteComment", id: mine.id }, headers);
  await refused(await del(other), 403);
  await refused(await del(author, `/ungatekeep/${hidden.id}`), 404);
  await refused(await del(author, here, { origin: "https://evil.example" }), 403);
  for (const id of ["", "x".repeat(3000)]) {
    await refused(await postForm(t, author, here, { intent: "deleteComment", id }), 404);
    await refused(await postForm(t, author, here, { intent: "editComment", id, content: "x" }), 404);
  }
  assertEquals((await thread(t, post.id)).comments.length, 1, "nothing deleted");
  const deleted = await del(author);
  assertEquals([deleted.status, deleted.headers.get("location")], [303, `${here}?commentDeleted=1#discussion-notice`]);
  assertEquals((await thread(t, post.id)).comments, []);
  assert(
    (await pageOf(author, "?commentDeleted=1")).getElementById("discussion-notice")?.textContent,
    "Comment deleted.",
  );
  await refused(await del(author), 404);
  const theirs = await written(t, other, post.id, "Spam");
  const byAdmin = await postForm(t, admin, here, { intent: "deleteComment", id: theirs.id });
  assertEquals(byAdmin.status, 303, "an admin deletes anyone's comment");
  assertEquals((await thread(t, post.id)).comments, []);
});

Deno.test("the post page's Show more comments is a link: ?comments= shows a page more, kept by links and forms", async () => {
  await using t = await createTestApp();
  const { post } = await setup(t);
  const writers = await Promise.all(Array.from({ length: 3 }, () => createTestUser(t)));
  const tops: Thread[] = [];
  for (let i = 0; i < 25; i++) tops.push(await written(t, writers[i % 3], post.id, `Comment ${i}`));
  const here = `/ungatekeep/${post.id}`;
  const articles = (page: Document) =>
    [...page.querySelectorAll("ol > li > article")].map((a) => a.getAttribute("id")?.slice("comment-".length));
  const pageOf = async (query: string) =>
    htmlDocument(await (await t.fetch(`${here}${query}`, { headers: writers[0].headers })).text());
  const more = (page: Document) =>
    [...page.querySelectorAll("a")].find((a) => a.textContent === "Show more comments")?.getAttribute("href");

  let page = await pageOf("");
  assertEquals(articles(page), tops.slice(0, 20).map((c) => c.id));
  assertEquals(more(page), `?comments=20#comment-${tops[19].id}`);
  assertEquals(articles(await pageOf("?comments=")).length, 20, "an empty ?comments= is the first page");
  for (const invalid of ["abc", "-1", "2.5", "Infinity", "1e1", "9007199254740993", "99999999999999999999"]) {
    const res = await t.fetch(`${here}?comments=${invalid}`, { headers: writers[0].headers });
    assertEquals(res.status, 404, `?comments=${invalid} is no page`);
    await res.body?.cancel();
  }
  page = await pageOf(`?comments=20&replyTo=${tops[24].id}`);
  assertEquals(articles(page), tops.map((c) => c.id), "a page more");
  assertEquals(more(page), undefined, "no more to show");
  const reply = page.getElementById(`reply-${tops[24].id}`)?.closest("form");
  assertEquals(reply?.querySelector('input[name="comments"]')?.getAttribute("value"), "20", "the reply form keeps it");
  const links = [...page.querySelectorAll(`#comment-${tops[21].id} a`)].map((a) => a.getAttribute("href"));
  assert(links.includes(`?replyTo=${tops[21].id}&comments=20#reply-${tops[21].id}`), links.join(" "));

  const res = await postForm(t, writers[1], here, {
    intent: "comment",
    parentId: tops[24].id,
    content: "A reply far down",
    comments: "20",
  });
  assertEquals(res.status, 303);
  const location = new URL(res.headers.get("location")!, t.origin);
  assertEquals([location.pathname, location.search], [here, `?comments=20&thread=${tops[24].id}`], "its thread open");
  page = await pageOf(location.search);
  assert(page.getElementById(location.hash.slice(1))?.textContent?.includes("A reply far down"));
});

Deno.test("without JavaScript every thread is reached: a page holds 100, Earlier comments links back, past the end 404", async () => {
  await using t = await createTestApp();
  const { post } = await setup(t);
  const writers = await Promise.all(Array.from({ length: 11 }, () => createTestUser(t)));
  const tops: string[] = [];
  for (let i = 0; i < 105; i++) {
    const input = { content: `Comment ${i}` };
    const { comment } = await createComment(t.kv, {
      postId: post.id,
      author: writers[i % 11].user,
      input,
      appUrl: t.origin,
    });
    tops.push(comment.id);
  }
  const here = `/ungatekeep/${post.id}`;
  const pageOf = async (query: string) => {
    const res = await t.fetch(`${here}${query}`, { headers: writers[0].headers });
    assertEquals(res.status, 200, query);
    const page = htmlDocument(await res.text());
    const link = (text: string) =>
      [...page.querySelectorAll("a")].find((a) => a.textContent === text)?.getAttribute("href");
    return {
      threads: [...page.querySelectorAll("ol > li > article")].map((a) =>
        a.getAttribute("id")?.slice("comment-".length)
      ),
      more: link("Show more comments"),
      earlier: link("Earlier comments"),
    };
  };
  let page = await pageOf("?comments=80");
  assertEquals([page.threads, page.earlier], [tops.slice(0, 100), undefined]);
  assertEquals(page.more, `?comments=100#comment-${tops[99]}`, "Show more goes on past 100");
  page = await pageOf("?comments=100");
  assertEquals([page.threads, page.more], [tops.slice(20), undefined], "the last 100 of 120 at most: all up to 105");
  assertEquals(page.earlier, `${here}#discussion-title`, "the threads before: the first page");
  page = await pageOf("?comments=104");
  assertEquals([page.threads, page.earlier], [tops.slice(24), "?comments=4#discussion-title"]);
  assertEquals((await pageOf("?comments=4")).threads, tops.slice(0, 24));
  for (const past of ["105", "1000", "1e9"]) {
    const res = await t.fetch(`${here}?comments=${past}`, { headers: writers[0].headers });
    assertEquals(res.status, 404, past);
    await res.body?.cancel();
  }

  // A form keeps its page; deleting the only thread of the last page goes one page back.
  const res = await postForm(t, writers[10], here, { intent: "comment", content: "Last", comments: "100" });
  assertEquals(res.status, 303);
  const location = new URL(res.headers.get("location")!, t.origin);
  assertEquals(location.search, "?comments=100");
  const last = location.hash.slice("#comment-".length);
  assertEquals((await pageOf("?comments=105")).threads, [...tops.slice(25), last]);
  const gone = await postForm(t, writers[10], here, { intent: "deleteComment", id: last, comments: "105" });
  assertEquals(gone.status, 303);
  const back = new URL(gone.headers.get("location")!, t.origin);
  assertEquals(back.search, "?commentDeleted=1&comments=85");
  assertEquals((await pageOf(back.search)).threads, tops.slice(5));
});

Deno.test("comments: the 11th comment in a minute gets 429 with Retry-After, also with RATE_LIMITS=off", async () => {
  await using t = await createTestApp({ env: { RATE_LIMITS: "off" } });
  const { post } = await setup(t);
  const [busy, calm] = [await createTestUser(t), await createTestUser(t)];
  for (let i = 0; i < 10; i++) assertEquals((await comment(t, busy, post.id, `n${i}`)).status, 201);
  const res = await comment(t, busy, post.id, "one too many");
  assertEquals(res.status, 429);
  const retry = Number(res.headers.get("retry-after"));
  assert(retry >= 1 && retry <= 60, `Retry-After ${retry}`);
  assertEquals((await comment(t, calm, post.id, "someone else")).status, 201);
  const realNow = Date.now;
  Date.now = () => realNow() + 61 * 1000;
  try {
    assertEquals((await comment(t, busy, post.id, "a minute later")).status, 201);
  } finally {
    Date.now = realNow;
  }
  assertEquals((await readPost(t, post.id)).commentCount, 12);
});

Deno.test("reactions: toggled twice stays one; DELETE takes it back; myReactions only for the signed-in caller", async () => {
  await using t = await createTestApp();
  const { post, hidden } = await setup(t);
  const [a, b] = [await createTestUser(t), await createTestUser(t)];
  const react = (who: TestUser, type: string, method = "PUT") =>
    t.json(method, `/api/ungatekeep/${post.id}/reactions/${type}`, { headers: who.headers });
  for (let i = 0; i < 2; i++) {
    const res = await react(a, "helpful");
    assertEquals(await res.json(), { reactions: { helpful: 1, insightful: 0, celebrate: 0 }, mine: ["helpful"] });
  }
  await react(a, "celebrate");
  assertEquals(await (await react(b, "helpful")).json(), {
    reactions: { helpful: 2, insightful: 0, celebrate: 1 },
    mine: ["helpful"],
  });
  for (let i = 0; i < 2; i++) {
    assertEquals(await (await react(a, "helpful", "DELETE")).json(), {
      reactions: { helpful: 1, insightful: 0, celebrate: 1 },
      mine: ["celebrate"],
    });
  }
  assertEquals((await react(a, "angry")).status, 404);
  assertEquals((await t.json("PUT", `/api/ungatekeep/${post.id}/reactions/helpful`)).status, 401);
  assertEquals(
    (await t.json("PUT", `/api/ungatekeep/${crypto.randomUUID()}/reactions/helpful`, { headers: a.headers })).status,
    404,
  );
  const guestPost = await readPost(t, post.id);
  assertEquals([guestPost.reactions, guestPost.myReactions, guestPost.commentCount], [
    { helpful: 1, insightful: 0, celebrate: 1 },
    undefined,
    0,
  ]);
  assertEquals((await readPost(t, post.id, a)).myReactions, ["celebrate"]);
  const feed = await (await t.fetch("/api/ungatekeep", { headers: b.headers })).json();
  const card = feed.posts.find((p: { id: string }) => p.id === post.id);
  assertEquals([card.reactions.helpful, card.myReactions], [1, ["helpful"]]);
  assertEquals(feed.posts.find((p: { id: string }) => p.id === hidden.id).myReactions, []);
  const guestFeed = await (await t.fetch("/api/ungatekeep")).json();
  assert(
    guestFeed.posts.every((p: { myReactions?: unknown; commentCount: number }) =>
      p.myReactions === undefined && typeof p.commentCount === "number"
    ),
  );
});

Deno.test("comments and reactions: counts are right after 100 concurrent comments and 100 concurrent reactions", async () => {
  await using t = await createTestApp();
  const { post } = await setup(t);
  const users = await Promise.all(Array.from({ length: 100 }, () => createTestUser(t)));
  const top = await written(t, users[0], post.id, "Start here");
  const types = ["helpful", "insightful", "celebrate"];
  const answers = await Promise.all([
    ...users.map((u, i) => comment(t, u, post.id, `Comment ${i}`, i % 2 === 0 ? top.id : undefined)),
    ...users.map((u, i) =>
      t.json("PUT", `/api/ungatekeep/${post.id}/reactions/${types[i % 3]}`, { headers: u.headers })
    ),
  ]);
  assertEquals(answers.map((res) => res.status).filter((s) => s >= 300), []);
  const read = await readPost(t, post.id);
  assertEquals(read.commentCount, 101);
  assertEquals(read.reactions, { helpful: 34, insightful: 33, celebrate: 33 });
  const page = await thread(t, post.id, undefined, "?limit=100");
  assertEquals(page.pagination.total, 51);
  assertEquals(page.comments[0].replies.length, 50);
  assertEquals(page.comments.length + page.comments.reduce((n, c) => n + c.replies.length, 0), 101);
});

Deno.test("admin comments: newest first, search over content and author, postId filter; others 401/403", async () => {
  await using t = await createTestApp();
  const { post, hidden, admin } = await setup(t);
  const asha = await createTestUser(t, "user", { name: "Asha Rao" });
  const ravi = await createTestUser(t, "user", { name: "Ravi" });
  await written(t, asha, post.id, "Interview tips please");
  await written(t, ravi, hidden.id, "Referral question");
  const gone = await written(t, ravi, post.id, "Spam spam");
  await t.json("DELETE", `/api/ungatekeep/comments/${gone.id}`, { headers: admin.headers });
  const list = async (query = "") => {
    const res = await t.fetch(`/api/admin/comments${query}`, { headers: admin.headers });
    assertEquals(res.status, 200);
    return await res.json();
  };
  const all = await list();
  assertEquals(all.comments.map((c: Thread) => c.content), ["Referral question", "Interview tips please"]);
  assertEquals(all.comments[0].post, { id: hidden.id, title: "Old" });
  assertEquals(all.pagination, { limit: 50, offset: 0, total: 2, hasMore: false });
  const second = await list("?limit=1&offset=1");
  assertEquals([second.comments[0].content, second.pagination.total, second.pagination.hasMore], [
    "Interview tips please",
    2,
    false,
  ]);
  const top = await written(t, asha, post.id, "Will be a placeholder");
  await written(t, ravi, post.id, "A reply keeps it", top.id);
  await t.json("DELETE", `/api/ungatekeep/comments/${top.id}`, { headers: asha.headers });
  const after = await list();
  assertEquals(after.comments.map((c: Thread) => c.content), [
    "A reply keeps it",
    "Referral question",
    "Interview tips please",
  ], "placeholders are not listed");
  assertEquals(after.pagination.total, 3);
  assertEquals((await list("?search=asha")).comments.length, 1, "by author name");
  assertEquals((await list("?search=REFERRAL")).comments[0].content, "Referral question");
  assertEquals((await list(`?postId=${post.id}`)).comments.map((c: Thread) => c.content), [
    "A reply keeps it",
    "Interview tips please",
  ]);
  assertEquals((await t.fetch("/api/admin/comments")).status, 401);
  assertEquals((await t.fetch("/api/admin/comments", { headers: asha.headers })).status, 403);
});

Deno.test("admin comment search reads its page's authors only; an author's name matches at a word's start", async () => {
  await using t = await createTestApp();
  const { post, admin } = await setup(t);
  for (let i = 0; i < 12; i++) {
    const who = await createTestUser(t, "user", { name: `Writer ${i}`, email: `writer${i}@example.com` });
    await written(t, who, post.id, `Referral question ${i}`);
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
  const reads = kvReads();
  const kv = recordingReads(t.kv, reads);
  const page = await listCommentsForAdmin(kv, admin.user, { search: "referral", limit: 3, offset: 0 });
  assertEquals(page.comments.map((c) => c.content), [
    "Referral question 11",
    "Referral question 10",
    "Referral question 9",
  ]);
  assertEquals(page.pagination.total, 12);
  assertEquals(reads.keys.filter((key) => key[0] === "users").length, 3, "the page's three authors");
  reads.keys.length = reads.lists.length = 0;
  const named = await listCommentsForAdmin(kv, admin.user, { search: "writer question", limit: 50, offset: 0 });
  assertEquals(named.pagination.total, 12, "one word in the content, the other the author's name");
  reads.keys.length = reads.lists.length = 0;
  const byPost = await listCommentsForAdmin(kv, admin.user, { postId: post.id, limit: 2, offset: 0 });
  assertEquals(byPost.comments.length, 2);
  assertEquals(reads.keys.filter((key) => key[0] === "users").length, 2, "one post's: its page's authors too");
  assertEquals(
    (await listCommentsForAdmin(kv, admin.user, { search: "writer 7", limit: 50, offset: 0 })).pagination.total,
    1,
  );
  assertEquals(
    (await listCommentsForAdmin(kv, admin.user, { search: "riter", limit: 50, offset: 0 })).pagination.total,
    0,
    "inside a name's word: no",
  );
});

Deno.test("deleting a post deletes its comments, reactions and counters", async () => {
  await using t = await createTestApp();
  const { post, admin } = await setup(t);
  const a = await createTestUser(t);
  const top = await written(t, a, post.id, "Top");
  await written(t, admin, post.id, "Reply", top.id);
  await t.json("PUT", `/api/ungatekeep/${post.id}/reactions/helpful`, { headers: a.headers });
  assertEquals((await t.json("DELETE", `/api/admin/ungatekeep/${post.id}`, { headers: admin.headers })).status, 200);
  const left: unknown[] = [];
  for await (const entry of t.kv.list({ prefix: [] })) {
    if (JSON.stringify(entry.key).includes(post.id) || JSON.stringify(entry.key).includes(top.id)) left.push(entry.key);
  }
  assertEquals(left, []);
  assertEquals((await t.fetch(`/api/admin/comments`, { headers: admin.headers }).then((r) => r.json())).comments, []);
});

/** The first parts of the keys that name post `postId`'s reply notification group, sorted. */
async function groupKeysUnder(t: TestApp, postId: string): Promise<string[]> {
  const keys: string[] = [];
  for await (const { key } of t.kv.list({ prefix: [] })) {
    if (JSON.stringify(key).includes(`replies:${postId}`)) keys.push(key[0] as string);
  }
  return keys.sort();
}

Deno.test("deleting a post takes every reply notification group under it, also of those whose comments are gone", async () => {
  await using t = await createTestApp();
  const { post, admin } = await setup(t);
  const asha = await createTestUser(t, "user", { name: "Asha" });
  const meera = await createTestUser(t, "user", { name: "Meera" });
  const ravi = await createTestUser(t, "user", { name: "Ravi" });
  const top = await written(t, asha, post.id, "Any tips for the OA?");
  const answer = await written(t, meera, post.id, "Practise DP", top.id);
  await written(t, ravi, post.id, "Thanks both", top.id);
  await written(t, ravi, post.id, "Which site?", answer.id);
  // Asha's comment stays as a placeholder without its author for the replies; Meera's reply goes whole.
  for (const [who, id] of [[asha, top.id], [meera, answer.id]] as const) {
    assertEquals((await t.json("DELETE", `/api/ungatekeep/comments/${id}`, { headers: who.headers })).status, 200);
  }
  const groups = (await groupKeysUnder(t, post.id)).filter((key) => key === "notification_groups");
  assertEquals(groups.length, 2, "Asha and Meera hold one each");
  assertEquals((await t.json("DELETE", `/api/admin/ungatekeep/${post.id}`, { headers: admin.headers })).status, 200);
  assertEquals(await groupKeysUnder(t, post.id), [], "each one's group (and holder entry) went with the post");
  for (const who of [asha, meera]) {
    assertEquals((await t.kv.get(["reply_told", who.user.id, post.id])).value, null, "and their reply gates");
  }
});

Deno.test("deleting an account takes its reply notification groups with their holder entries", async () => {
  await using t = await createTestApp();
  const { post } = await setup(t);
  const { asha, ravi, top } = await askedThread(t, post.id);
  await written(t, ravi, post.id, "Practise DP", top.id);
  assertEquals(await groupKeysUnder(t, post.id), ["notification_group_holders", "notification_groups"]);
  const now = { createdAt: new Date().toISOString() };
  await deleteAccount(t.services, { user: asha.user, session: now }, { confirm: asha.user.email });
  await t.settled(); // the deletion's steps run after it answers
  assertEquals(await groupKeysUnder(t, post.id), []);
});

Deno.test("deleting an account takes its id out of the reply groups of the people it replied to", async () => {
  await using t = await createTestApp();
  const { post } = await setup(t);
  const { asha, ravi, top } = await askedThread(t, post.id);
  await written(t, ravi, post.id, "Practise DP", top.id);
  await written(t, ravi, post.id, "And read the editorials", top.id);
  const group = async () =>
    (await t.kv.get<{ id: string; from: string }[]>(["notification_groups", asha.user.id, `replies:${post.id}`]))
      .value!;
  assertEquals((await group()).map((member) => member.from), [ravi.user.id, ravi.user.id]);
  const now = { createdAt: new Date().toISOString() };
  await deleteAccount(t.services, { user: ravi.user, session: now }, { confirm: ravi.user.email });
  await t.settled(); // the deletion's steps run after it answers
  const kept = await group();
  assertEquals(kept.length, 2, "Asha keeps both notifications");
  assertEquals(kept.map((member) => member.from), kept.map((member) => member.id), "each now its own source");
  assert(!JSON.stringify(kept).includes(ravi.user.id), "no trace of the deleted account's id");
});

Deno.test("a reply deleted before its author's account takes the author's id out of the replied-to's group", async () => {
  await using t = await createTestApp();
  const { post } = await setup(t);
  const { asha, ravi, top } = await askedThread(t, post.id);
  const gone = await written(t, ravi, post.id, "Practise DP", top.id);
  await written(t, ravi, post.id, "And read the editorials", top.id);
  const group = async () =>
    (await t.kv.get<{ id: string; from: string }[]>(["notification_groups", asha.user.id, `replies:${post.id}`]))
      .value!;
  assertEquals((await t.json("DELETE", `/api/ungatekeep/comments/${gone.id}`, { headers: ravi.headers })).status, 200);
  const [deleted, kept] = await group();
  assertEquals(deleted.from, deleted.id, "the deleted reply's notification is now its own source");
  assertEquals(kept.from, ravi.user.id, "the reply still there keeps its replier, for the account's deletion to find");
  const now = { createdAt: new Date().toISOString() };
  await deleteAccount(t.services, { user: ravi.user, session: now }, { confirm: ravi.user.email });
  await t.settled(); // the deletion's steps run after it answers
  assert(!JSON.stringify(await group()).includes(ravi.user.id), "no trace of the deleted account's id");
});

Deno.test("the notification-groups-index job indexes the groups stored before, which a post's deletion then finds", async () => {
  await using t = await createTestApp();
  const { post, admin } = await setup(t);
  const { ravi, top } = await askedThread(t, post.id);
  await written(t, ravi, post.id, "Practise DP", top.id);
  // A group stored before the holders' index, of someone with no comment under the post, its newest reply a day old.
  const kabir = await createTestUser(t, "user", { name: "Kabir" });
  const dayOld = `${String(Date.now() - 24 * 60 * 60 * 1000).padStart(13, "0")}-older`;
  await t.kv.set(["notification_groups", kabir.user.id, `replies:${post.id}`], [dayOld]);
  // One whose newest reply is past the 90 days KV keeps a group: its holder entry would outlive it.
  const meera = await createTestUser(t, "user", { name: "Meera" });
  const stale = ["notification_groups", meera.user.id, `replies:${post.id}`];
  await t.kv.set(stale, ["0000000000001-older"]);
  const job = findJob("notification-groups-index")!;
  assertEquals(await runJob(job, t.services), { job: "notification-groups-index", indexed: 3 });
  assertEquals(await runJob(job, t.services), { job: "notification-groups-index", indexed: 0 }, "done: one read");
  const holder = (userId: string) => t.kv.get(["notification_group_holders", `replies:${post.id}`, userId]);
  assertEquals((await holder(kabir.user.id)).value, true, "Kabir's group is indexed");
  assertEquals((await holder(meera.user.id)).value, null, "Meera's group past its time is not");
  await t.kv.delete(stale); // as KV itself does with a group past its time
  assertEquals((await t.json("DELETE", `/api/admin/ungatekeep/${post.id}`, { headers: admin.headers })).status, 200);
  assertEquals(await groupKeysUnder(t, post.id), [], "both groups and their holder entries went with the post");
});

Deno.test("deleting a post whose images the object store cannot delete still removes its conversation, logged", async () => {
  const logLines: string[] = [];
  await using t = await createTestApp({ logLines });
  const admin = await createTestUser(t, "admin");
  const image = await uploadedId(t, admin);
  const post = await createPost(t, admin, { title: "With an image", images: [image] });
  const [asha, ravi] = [await createTestUser(t), await createTestUser(t)];
  const top = await written(t, asha, post.id, "Top");
  await written(t, ravi, post.id, "Reply", top.id);
  await t.json("PUT", `/api/ungatekeep/${post.id}/reactions/helpful`, { headers: asha.headers });
  // The object store is down: every delete throws.
  t.services.files.delete = () => Promise.reject(new Error("object store down"));
  const del = await t.json("DELETE", `/api/admin/ungatekeep/${post.id}`, { headers: admin.headers });
  assertEquals(del.status, 200);
  const left: unknown[] = [];
  for await (const entry of t.kv.list({ prefix: [] })) {
    if (JSON.stringify(entry.key).includes(post.id) || JSON.stringify(entry.key).includes(top.id)) left.push(entry.key);
  }
  assertEquals(left, []);
  const admins = await (await t.fetch("/api/admin/comments", { headers: admin.headers })).json();
  assertEquals([admins.comments, admins.pagination.total], [[], 0]);
  const told = await (await t.fetch("/api/me/notifications", { headers: asha.headers })).json();
  assertEquals(told.notifications.map((n: { title: string }) => n.title), ["A post you commented on was deleted"]);
  const logged = logLines.filter((line) => line.includes("post image not deleted"));
  assertEquals(logged.length, 1);
  assert(logged[0].includes(image) && logged[0].includes("object store down"), logged[0]);
});

Deno.test("a post deletion stopped midway leaves counters matching what is left; deleting again finishes it", async () => {
  await using t = await createTestApp();
  const { admin, post } = await setup(t);
  // 150 comments, 10 per author (the rate limit): more than one cascade write holds (800 mutations).
  for (let i = 0; i < 15; i++) {
    const who = await createTestUser(t);
    for (let j = 0; j < 10; j++) await written(t, who, post.id, `Comment ${i}.${j}`);
  }
  // KV fails on the third write of the deletion (the post's, the first batch's, then this one): a process gone.
  const { kv: failing } = kvFailingCommits(t.kv, (n) => n === 3);
  await assertRejects(() => deletePost(failing, { files: t.services.files, log: t.services.log, id: post.id }));
  const left = (await Array.fromAsync(t.kv.list({ prefix: ["comment_threads", post.id] }))).length;
  assert(left > 0 && left < 150, `${left} comments left`);
  const total = async () =>
    (await (await t.fetch("/api/admin/comments", { headers: admin.headers })).json()).pagination.total;
  assertEquals(await total(), left, "the admin comment total counts what is left");
  assertEquals(Number((await t.kv.get<Deno.KvU64>(["post_counts", post.id, "comments"])).value?.value), left);
  const again = await t.json("DELETE", `/api/admin/ungatekeep/${post.id}`, { headers: admin.headers });
  assertEquals(again.status, 200);
  await again.body?.cancel();
  assertEquals(await Array.fromAsync(t.kv.list({ prefix: ["comment_threads", post.id] })), []);
  assertEquals(await Array.fromAsync(t.kv.list({ prefix: ["post_counts", post.id] })), []);
  assertEquals(await total(), 0);
  assertEquals((await t.json("DELETE", `/api/admin/ungatekeep/${post.id}`, { headers: admin.headers })).status, 404);
});

Deno.test("the post-deletions job finishes a deletion stopped midway once its lease ran out, nobody asking", async () => {
  await using t = await createTestApp();
  const { admin, post } = await setup(t);
  const who = await createTestUser(t);
  for (let i = 0; i < 3; i++) await written(t, who, post.id, `Comment ${i}`);
  // KV fails from the deletion's second write on (the conversation's first batch): the process is gone, so its lease
  // is never given back; the post is gone, its comments stay.
  const { kv: failing } = kvFailingCommits(t.kv, (n) => n >= 2);
  await assertRejects(() => deletePost(failing, { files: t.services.files, log: t.services.log, id: post.id }));
  const comments = async () => (await Array.fromAsync(t.kv.list({ prefix: ["comment_threads", post.id] }))).length;
  assertEquals(await comments(), 3);
  const job = findJob("post-deletions")!;
  assertEquals(await runJob(job, t.services), { job: "post-deletions", finished: 0 }, "its lease still lives");
  assertEquals(await comments(), 3);
  const later = new Date(Date.now() + 11 * 60 * 1000);
  assertEquals(await runJob(job, t.services, later), { job: "post-deletions", finished: 1 });
  assertEquals(await comments(), 0);
  assertEquals(await Array.fromAsync(t.kv.list({ prefix: ["post_counts", post.id] })), []);
  assertEquals(await Array.fromAsync(t.kv.list({ prefix: ["post_deletions"] })), []);
  const total = await (await t.fetch("/api/admin/comments", { headers: admin.headers })).json();
  assertEquals(total.pagination.total, 0);
  assertEquals(await runJob(job, t.services, later), { job: "post-deletions", finished: 0 }, "nothing twice");
});

Deno.test("a post deleted twice at once: the second answers 404 and moves no counter", async () => {
  await using t = await createTestApp();
  const { admin, post, hidden } = await setup(t);
  const who = await createTestUser(t);
  for (let i = 0; i < 3; i++) await written(t, who, post.id, `Comment ${i}`);
  await written(t, who, hidden.id, "Elsewhere");
  // The first deletion removes the post, then waits before its conversation's first write until the second answered.
  const { promise: release, resolve: letGo } = Promise.withResolvers<void>();
  const { kv: holding, reached } = kvHoldingCommit(t.kv, 2, release);
  const first = deletePost(holding, { files: t.services.files, log: t.services.log, id: post.id });
  await reached;
  const second = await t.json("DELETE", `/api/admin/ungatekeep/${post.id}`, { headers: admin.headers });
  assertEquals([second.status, await second.json()], [404, { error: "Post not found" }]);
  letGo();
  await first;
  assertEquals(await Array.fromAsync(t.kv.list({ prefix: ["comment_threads", post.id] })), []);
  assertEquals(await Array.fromAsync(t.kv.list({ prefix: ["post_deletions"] })), []);
  const admins = await (await t.fetch("/api/admin/comments", { headers: admin.headers })).json();
  assertEquals(admins.pagination.total, 1, "the live comment total counts the other post's comment only");
});

Deno.test("reply notifications: the author of the comment answered is notified in the app and by e-mail unless off; nobody of their own reply", async () => {
  await using t = await createTestApp();
  const { post, admin } = await setup(t);
  const outbox = async () => {
    const res = await t.fetch("/api/admin/outbox", { headers: admin.headers });
    assertEquals(res.status, 200);
    return ((await res.json()).mails as { to: string; subject: string }[]).map((m) => [m.to, m.subject]);
  };
  const inbox = async (who: TestUser) => {
    const res = await t.fetch("/api/me/notifications", { headers: who.headers });
    assertEquals(res.status, 200);
    return (await res.json()).notifications as { type: string; title: string; body: string; url: string }[];
  };
  const { asha, ravi, top } = await askedThread(t, post.id);
  await written(t, asha, post.id, "Adding: it is for SDE", top.id);
  assertEquals(await inbox(asha), [], "no notice of one's own reply");
  const answer = await written(t, ravi, post.id, "Practise DP", top.id);
  const [notice] = await inbox(asha);
  assertEquals([notice.type, notice.title, notice.body, notice.url], [
    "comment_reply",
    "Ravi replied to your comment on “Open”",
    "Practise DP",
    `/ungatekeep/${post.id}?thread=${top.id}#comment-${answer.id}`,
  ]);
  assertEquals(await outbox(), [[asha.user.email, "Ravi replied to your comment on “Open”"]]);
  await written(t, asha, post.id, "Thanks Ravi!", answer.id);
  assertEquals((await inbox(ravi)).map((n) => n.body), ["Thanks Ravi!"], "the reply answered, before flattening");
  assertEquals((await inbox(asha)).length, 1);
  assertEquals((await outbox()).length, 2);
  const off = await t.json("PATCH", "/api/me/settings", { body: { emailOnReply: false }, headers: asha.headers });
  assertEquals(off.status, 200);
  // Under another post, where no reply e-mail has reached Asha within the hour.
  const other = await createPost(t, admin, { title: "Other", publishedAt: new Date(Date.now() - DAY).toISOString() });
  const otherTop = await written(t, asha, other.id, "Which cohort?");
  await written(t, ravi, other.id, "The spring one", otherTop.id);
  assertEquals((await inbox(asha)).length, 2, "still told in the app");
  assertEquals((await outbox()).length, 2, "no e-mail with emailOnReply off");
});

Deno.test("reply e-mails: a flood of replies to one person under one post is one e-mail an hour; each still notifies in the app", async () => {
  await using t = await createTestApp();
  const { post, admin } = await setup(t);
  const other = await createPost(t, admin, { title: "Other", publishedAt: new Date(Date.now() - DAY).toISOString() });
  const { asha, ravi, top } = await askedThread(t, post.id);
  const otherTop = await written(t, asha, other.id, "Which cohort?");
  const reply = (postId: string, parentId: string, content: string) =>
    createComment(t.kv, { postId, author: ravi.user, input: { content, parentId }, appUrl: t.origin });
  const mails: (string | null)[] = [];
  for (let i = 0; i < 5; i++) mails.push((await reply(post.id, top.id, `Visit spam.example/${i}`)).mailId);
  assert(mails[0] !== null, "the first reply e-mails");
  assertEquals(mails.slice(1), [null, null, null, null], "the next four within the hour do not");
  const notices = await Array.fromAsync(t.kv.list({ prefix: ["notifications", asha.user.id] }));
  assertEquals(notices.length, 5, "each reply is in the app");
  assert((await reply(other.id, otherTop.id, "The spring one")).mailId !== null, "another post has its own hour");
  const gate = await readReplyGate(t.kv, asha.user.id, post.id, Date.now());
  assertEquals(gate.open, false);
  assert((await readReplyGate(t.kv, asha.user.id, post.id, Date.now() + REPLY_GAP_MS)).open, "after an hour");
  // A reply deleted before its e-mail went out reopens the gate: nobody was e-mailed.
  const third = await createPost(t, admin, { title: "Third", publishedAt: new Date(Date.now() - DAY).toISOString() });
  const thirdTop = await written(t, asha, third.id, "Anyone?");
  const taken = await reply(third.id, thirdTop.id, "Call 98765 43210");
  assert(taken.mailId !== null);
  await removeComment(t.kv, taken.comment.id, ravi.user);
  const sorry = await reply(third.id, thirdTop.id, "Sorry, see the guide");
  assert(sorry.mailId !== null, "reopened");
  // Unless the gate is no longer the one this reply's e-mail closed (a newer e-mail, an hour on, closed it again).
  const newer = Date.now() + REPLY_GAP_MS;
  await t.kv.set(["reply_told", asha.user.id, third.id], newer);
  await removeComment(t.kv, sorry.comment.id, ravi.user);
  assertEquals((await t.kv.get(["reply_told", asha.user.id, third.id])).value, newer, "the newer gate stays");
});

Deno.test("reply pushes: a flood of replies to one person under one post is one push an hour, also with e-mail off", async () => {
  await using t = await createTestApp();
  const { post, admin } = await setup(t);
  const other = await createPost(t, admin, { title: "Other", publishedAt: new Date(Date.now() - DAY).toISOString() });
  const { asha, ravi, top } = await askedThread(t, post.id);
  const off = await t.json("PATCH", "/api/me/settings", { body: { emailOnReply: false }, headers: asha.headers });
  assertEquals(off.status, 200);
  const otherTop = await written(t, asha, other.id, "Which cohort?");
  // The requests above started a push delivery that the answers did not wait for; it must end before the replies, or
  // it takes their messages. The replies are written through the domain, so no delivery starts: each push message
  // stays where it can be counted.
  await t.settled();
  const reply = (postId: string, parentId: string, content: string) =>
    createComment(t.kv, { postId, author: ravi.user, input: { content, parentId }, appUrl: t.origin });
  const pushed = async () => {
    const notices = await Array.fromAsync(t.kv.list<{ id: string }>({ prefix: ["notifications", asha.user.id] }));
    const messages = await Promise.all(notices.map((n) => readPushMessage(t.kv, n.value.id)));
    return { notices: notices.length, pushes: messages.filter(Boolean).length };
  };
  for (let i = 0; i < 5; i++) await reply(post.id, top.id, `You are being watched ${i}`);
  assertEquals(await pushed(), { notices: 5, pushes: 1 }, "each reply is in the bell; the first alone is pushed");
  await reply(other.id, otherTop.id, "The spring one");
  assertEquals(await pushed(), { notices: 6, pushes: 2 }, "another post has its own hour");
  assert((await readReplyGate(t.kv, asha.user.id, post.id, Date.now() + REPLY_GAP_MS)).open, "after an hour");
});

Deno.test("reply notifications: a person keeps the newest 10 replies to them under a post, however busy it is", async () => {
  await using t = await createTestApp();
  const { post, admin } = await setup(t);
  const other = await createPost(t, admin, { title: "Other", publishedAt: new Date(Date.now() - DAY).toISOString() });
  const asha = await createTestUser(t, "user", { name: "Asha" });
  // Three repliers, as one may write 10 comments a minute.
  const repliers = [
    await createTestUser(t, "user", { name: "Ravi" }),
    await createTestUser(t, "user", { name: "Meera" }),
    await createTestUser(t, "user", { name: "Kabir" }),
  ];
  const top = await written(t, asha, post.id, "Any tips for the OA?");
  const otherTop = await written(t, asha, other.id, "Which cohort?");
  const reply = (i: number, postId: string, parentId: string, content: string) =>
    createComment(t.kv, { postId, author: repliers[i % 3].user, input: { content, parentId }, appUrl: t.origin });
  for (let i = 0; i < 25; i++) await reply(i, post.id, top.id, `Reply ${i}`);
  const KEPT = 10;
  await reply(0, other.id, otherTop.id, "Elsewhere");
  const newest = Array.from({ length: KEPT }, (_, i) => `Reply ${25 - KEPT + i}`);
  const kept = await Array.fromAsync(t.kv.list<{ body: string }>({ prefix: ["notifications", asha.user.id] }));
  assertEquals(kept.map((entry) => entry.value.body).sort(), ["Elsewhere", ...newest].sort(), "the oldest 15 went");
  const unread = await Array.fromAsync(t.kv.list({ prefix: ["notifications_unread", asha.user.id] }));
  assertEquals(unread.length, KEPT + 1, "with their unread keys");
  const res = await t.fetch("/api/me/notifications?limit=100", { headers: asha.headers });
  assertEquals(res.status, 200);
  const page = await res.json() as { notifications: { body: string }[]; unreadCount: number };
  assertEquals(page.notifications.map((n) => n.body).sort(), ["Elsewhere", ...newest].sort());
  assertEquals(page.unreadCount, KEPT + 1);
  const shown = await (await t.fetch("/me/notifications", { headers: asha.headers })).text();
  assert(
    shown.includes("Under one post you keep the newest 10 notifications of replies to you, shared fairly"),
    "the page says so",
  );
  // A dropped reply deleted later: nothing to redact, nothing fails.
  const [first] = (await thread(t, post.id, asha)).comments[0].replies;
  assertEquals(first.content, "Reply 0");
  await removeComment(t.kv, first.id, repliers[0].user);
  assertEquals((await Array.fromAsync(t.kv.list({ prefix: ["notifications", asha.user.id] }))).length, KEPT + 1);
});

Deno.test("reply notifications: one replier flooding a full group pushes out only their own, never everybody else's", async () => {
  await using t = await createTestApp();
  const { post } = await setup(t);
  const asha = await createTestUser(t, "user", { name: "Asha" });
  const people = [
    await createTestUser(t, "user", { name: "Ravi" }),
    await createTestUser(t, "user", { name: "Meera" }),
    await createTestUser(t, "user", { name: "Kabir" }),
  ];
  const spammer = await createTestUser(t, "user", { name: "Spammer" });
  const top = await written(t, asha, post.id, "Any tips for the OA?");
  const reply = async (who: TestUser, content: string) => {
    await createComment(t.kv, {
      postId: post.id,
      author: who.user,
      input: { content, parentId: top.id },
      appUrl: t.origin,
    });
    await t.kv.delete(["comment_rate", who.user.id]); // the rate window is not what this test is about
  };
  for (let i = 0; i < 9; i++) await reply(people[i % 3], `${people[i % 3].user.name} ${i}`);
  for (let i = 0; i < 20; i++) await reply(spammer, `Spam ${i}`);
  const kept = (await Array.fromAsync(t.kv.list<{ body: string }>({ prefix: ["notifications", asha.user.id] })))
    .map((entry) => entry.value.body);
  assertEquals(kept.length, 10);
  for (const newest of ["Ravi 6", "Meera 7", "Kabir 8"]) assert(kept.includes(newest), `${newest} is still notified`);
  const spam = kept.filter((body) => body.startsWith("Spam "));
  assertEquals(spam.length, 3, "the spammer holds as many as the most anyone else does");
  assert(kept.includes("Spam 19"), "the newest reply joins");
});

Deno.test("a reply notification dropped from the kept 10 takes its pending push message and e-mail with it", async () => {
  await using t = await createTestApp();
  const { post } = await setup(t);
  const { asha, ravi, top } = await askedThread(t, post.id);
  await t.settled(); // the push delivery the request started, which would take the replies' messages
  // Written through the domain, so no delivery starts: the first reply's e-mail and push message stay pending (as while
  // the mail server or the push service refuses and a retry waits).
  const reply = async (content: string) => {
    const written = await createComment(t.kv, {
      postId: post.id,
      author: ravi.user,
      input: { content, parentId: top.id },
      appUrl: t.origin,
    });
    await t.kv.delete(["comment_rate", ravi.user.id]); // the rate window is not what this test is about
    return written;
  };
  const first = await reply("Reply 0");
  const [told] = await Array.fromAsync(t.kv.list<{ id: string }>({ prefix: ["notifications", asha.user.id] }));
  assertEquals((await readMail(t.kv, first.mailId!)).value?.status, "pending");
  assertEquals((await readPushMessage(t.kv, told.value.id))?.status, "pending");
  for (let i = 1; i <= 10; i++) await reply(`Reply ${i}`);
  assertEquals((await t.kv.get(told.key)).value, null, "the first reply's notification was dropped");
  assertEquals(await readPushMessage(t.kv, told.value.id), null, "and its push message");
  assertEquals((await readMail(t.kv, first.mailId!)).value, null, "and its e-mail");
  assertEquals(await Array.fromAsync(t.kv.list({ prefix: ["push_outbox_due"] })), [], "nothing left to push");
  assertEquals(await Array.fromAsync(t.kv.list({ prefix: ["outbox_due"] })), [], "nor to e-mail");
});

Deno.test("a reply's notification loses its content when the reply is deleted, and the replier's name with their account", async () => {
  await using t = await createTestApp();
  const { post } = await setup(t);
  const { asha, ravi, top } = await askedThread(t, post.id);
  const inbox = async (lang = "en") => {
    const res = await t.fetch(`/api/me/notifications?lang=${lang}`, { headers: asha.headers });
    assertEquals(res.status, 200);
    return ((await res.json()).notifications as { title: string; body: string }[]).map((n) => [n.title, n.body]);
  };
  await written(t, ravi, post.id, "Practise DP", top.id);
  const regretted = await written(t, ravi, post.id, "Call me on 98765 43210", top.id);
  const del = await t.json("DELETE", `/api/ungatekeep/comments/${regretted.id}`, { headers: ravi.headers });
  assertEquals(del.status, 200);
  assertEquals(await inbox(), [
    ["A reply to your comment on “Open” was deleted", ""],
    ["Ravi replied to your comment on “Open”", "Practise DP"],
  ]);
  const gone = await t.json("DELETE", "/api/me", { body: { confirm: ravi.user.email }, headers: ravi.headers });
  assertEquals(gone.status, 200);
  await t.settled(); // the deletion's job, which the answer does not wait for
  assertEquals(await inbox(), [
    ["A reply to your comment on “Open” was deleted", ""],
    ["A deleted user replied to your comment", "Practise DP"],
  ]);
  assertEquals(await inbox("hi"), [
    ["“Open” पर आपके कमेंट का एक जवाब डिलीट हो गया", ""],
    ["एक डिलीट किए गए यूज़र ने आपके कमेंट का जवाब दिया", "Practise DP"],
  ]);
  // The reply outlived its author; deleting it later takes its words out too.
  const admin = await createTestUser(t, "admin");
  const [kept] = (await thread(t, post.id)).comments[0].replies;
  const removed = await t.json("DELETE", `/api/ungatekeep/comments/${kept.id}`, { headers: admin.headers });
  assertEquals(removed.status, 200);
  assertEquals(await inbox(), [
    ["A reply to your comment on “Open” was deleted", ""],
    ["A reply to your comment on “Open” was deleted", ""],
  ]);
  assertEquals(await Array.fromAsync(t.kv.list({ prefix: ["notification_subjects"] })), []);
});

Deno.test("an edited reply takes its first words out of the notification and the pending e-mail", async () => {
  await using t = await createTestApp();
  const { post } = await setup(t);
  const asha = await createTestUser(t, "user", { name: "Asha" });
  const troll = await createTestUser(t, "user", { name: "Troll" });
  const inbox = async (lang = "en") => {
    const res = await t.fetch(`/api/me/notifications?lang=${lang}`, { headers: asha.headers });
    assertEquals(res.status, 200);
    return ((await res.json()).notifications as { title: string; body: string }[]).map((n) => [n.title, n.body]);
  };
  const top = await written(t, asha, post.id, "My question");
  const reply = await createComment(t.kv, {
    postId: post.id,
    author: troll.user,
    input: { content: "ABUSIVE WORDS HERE", parentId: top.id },
    appUrl: t.origin,
  });
  assert(reply.mailId !== null, "the reply e-mails, not sent yet");
  const edit = await t.json("PATCH", `/api/ungatekeep/comments/${reply.comment.id}`, {
    body: { content: "Nice question!" },
    headers: troll.headers,
  });
  assertEquals(edit.status, 200);
  assertEquals(await inbox(), [["A reply to your comment on “Open” was edited", ""]]);
  assertEquals(await inbox("hi"), [["“Open” पर आपके कमेंट का एक जवाब बदला गया", ""]]);
  assertEquals((await readMail(t.kv, reply.mailId!)).value, null, "the pending e-mail is gone");
  await t.settled();
  assertEquals(t.mails.filter((m) => m.text.includes("ABUSIVE")), []);
  const gate = await readReplyGate(t.kv, asha.user.id, post.id, Date.now());
  assert(gate.open, "nobody was e-mailed, so the next reply may e-mail");
});

Deno.test("an edited reply's notification still follows the reply: deleted later, it says so", async () => {
  await using t = await createTestApp();
  const { post } = await setup(t);
  const { asha, ravi, top } = await askedThread(t, post.id, "My question");
  const inbox = async () => {
    const res = await t.fetch("/api/me/notifications", { headers: asha.headers });
    assertEquals(res.status, 200);
    return ((await res.json()).notifications as { title: string; body: string }[]).map((n) => [n.title, n.body]);
  };
  const reply = await written(t, ravi, post.id, "First words", top.id);
  const path = `/api/ungatekeep/comments/${reply.id}`;
  assertEquals((await t.json("PATCH", path, { body: { content: "Second words" }, headers: ravi.headers })).status, 200);
  assertEquals(await inbox(), [["A reply to your comment on “Open” was edited", ""]]);
  assertEquals((await t.json("DELETE", path, { headers: ravi.headers })).status, 200);
  assertEquals(await inbox(), [["A reply to your comment on “Open” was deleted", ""]]);
  assertEquals(await Array.fromAsync(t.kv.list({ prefix: ["notification_subjects"] })), []);
});

Deno.test("forgetting a heavy commenter writes many comments a commit, renews the deletion's lease, and stops when told", async () => {
  await using t = await createTestApp();
  const { post } = await setup(t);
  const { asha, ravi, top } = await askedThread(t, post.id);
  for (let i = 0; i < 130; i++) {
    if (i % 10 === 0) await t.kv.delete(["comment_rate", ravi.user.id]); // past the limit of 10 a minute
    const input = { content: `Tip ${i}`, parentId: i % 2 === 0 ? top.id : undefined };
    await createComment(t.kv, { postId: post.id, author: ravi.user, input, appUrl: t.origin });
  }
  // The deletion was taken over by another process: the step stops at its first renewal.
  const takenOver = () => Promise.reject(new Error("taken over"));
  await assertRejects(() => forgetCommentAuthor(t.kv, ravi.user.id, { renew: takenOver }), Error, "taken over");
  const left = (await commentsOf(t.kv, ravi.user.id)).length;
  assert(left > 0 && left < 130, `${left} left`);
  // Run again, it goes on with what is left, in few commits, renewing the lease after each batch.
  let renewals = 0;
  const { kv, commits } = kvFailingCommits(t.kv, () => false);
  await forgetCommentAuthor(kv, ravi.user.id, { renew: () => Promise.resolve(void renewals++) });
  assertEquals(await commentsOf(t.kv, ravi.user.id), []);
  assert(renewals >= 2, `${renewals} renewals`);
  assert(commits() * 10 <= left, `${commits()} commits for ${left} comments`);
  const comments = (await thread(t, post.id, undefined, "?limit=100")).comments;
  const shown = comments.flatMap((c) => [c, ...c.replies]);
  assertEquals([shown.length, shown.filter((c) => c.user?.name === "Ravi").length], [131, 0]);
  const notices = await Array.fromAsync(t.kv.list({ prefix: ["notifications", asha.user.id] }));
  assertEquals(notices.length, 10, "the newest 10 replies to her under the post are kept");
  assert(!JSON.stringify(notices.map((n) => n.value)).includes("Ravi"), "no notification names the replier");
  const subjects = await Array.fromAsync(t.kv.list({ prefix: ["notification_subjects"] }));
  assertEquals(subjects.length, 65, "the replies are still there: deleting one later redacts its notification");
});

Deno.test("a deleted reply's e-mail waiting for a retry is never sent", async () => {
  let refusals = 0;
  await using smtp = await startFakeSmtp({
    onMessage: () => refusals++ < 1 ? Promise.reject(smtpRefusal(451, "Try again later")) : Promise.resolve(),
  });
  await using t = await createTestApp({ env: { SMTP_URL: smtp.url, OUTBOX_RETRY_MS: "60000" } });
  const { post } = await setup(t);
  const { ravi, top } = await askedThread(t, post.id);
  const abusive = await written(t, ravi, post.id, "Abusive text with your home address", top.id);
  await t.settled();
  assertEquals([refusals, smtp.messages.length], [1, 0], "the first try was refused; the mail waits for its retry");
  const del = await t.json("DELETE", `/api/ungatekeep/comments/${abusive.id}`, { headers: ravi.headers });
  assertEquals(del.status, 200);
  await runJob(findJob("outbox")!, t.services, new Date(Date.now() + 61_000));
  await t.settled();
  assertEquals(smtp.messages.filter((m) => m.text.includes("Abusive text")), [], "the deleted text reached no inbox");
  assertEquals(await Array.fromAsync(t.kv.list({ prefix: ["outbox_due"] })), [], "nothing left to send");
});

Deno.test("a reply's pending e-mail and push message go with the reply, its post, or its author's account", async () => {
  await using t = await createTestApp();
  const { post } = await setup(t);
  const { asha, ravi, top } = await askedThread(t, post.id);
  await t.settled(); // the push delivery the request started, which would take the replies' messages
  // Written through the domain, so no delivery starts: the e-mail and the push message stay pending.
  const reply = (content: string) =>
    createComment(t.kv, { postId: post.id, author: ravi.user, input: { content, parentId: top.id }, appUrl: t.origin });
  const pending = async (mailId: string | null) => {
    const notices = await Array.fromAsync(t.kv.list<{ id: string }>({ prefix: ["notifications", asha.user.id] }));
    const pushes = await Promise.all(notices.map((n) => readPushMessage(t.kv, n.value.id)));
    return { mail: (await readMail(t.kv, mailId!)).value?.status ?? null, pushes: pushes.filter(Boolean).length };
  };
  const deleted = await reply("Call me on 98765 43210");
  assertEquals(await pending(deleted.mailId), { mail: "pending", pushes: 1 });
  // On a far KV the thread's keys, the pending e-mail and the notification are read side by side, not in turn.
  const reads = kvReads();
  await removeComment(recordingReads(withLatency(t.kv, 30), reads), deleted.comment.id, ravi.user);
  assertEquals(await pending(deleted.mailId), { mail: null, pushes: 0 }, "deleting the reply");
  assert(reads.maxInFlight >= 3, `${reads.maxInFlight} reads at once`);

  const named = await reply("Practise DP");
  assertEquals(await pending(named.mailId), { mail: "pending", pushes: 1 });
  await forgetCommentAuthor(t.kv, ravi.user.id);
  assertEquals(await pending(named.mailId), { mail: null, pushes: 0 }, "forgetting its author");

  const onPost = await reply("See the pinned guide");
  assertEquals(await pending(onPost.mailId), { mail: "pending", pushes: 1 });
  await deleteConversation(t.kv, post.id);
  assertEquals(await pending(onPost.mailId), { mail: null, pushes: 0 }, "deleting the post's conversation");
});

Deno.test("deleting a post with 300 replies by 300 people keeps each commit under KV's 80 KiB of keys", async () => {
  await using t = await createTestApp();
  const { post } = await setup(t);
  const asha = await createTestUser(t, "user", { name: "Asha" });
  const top = await written(t, asha, post.id, "Any tips for the OA?");
  const [{ key: topKey, value: { createdAt } }] = await Array.fromAsync(
    t.kv.list<Comment>({ prefix: ["comment_threads", post.id] }),
  );
  // Stored as a busy discussion leaves them: full-length ids and times, each reply by another person (whose reply gate
  // and notification group under the post go with it).
  for (let i = 0; i < 300; i += 50) {
    const op = t.kv.atomic();
    for (let j = i; j < i + 50; j++) {
      const at = new Date(Date.parse(createdAt) + j + 1).toISOString();
      const id = `${Date.parse(at).toString(16).padStart(12, "0")}-0000-${crypto.randomUUID().slice(0, 18)}`;
      const reply: Comment = {
        id,
        postId: post.id,
        parentId: top.id,
        content: "Same question here",
        userId: crypto.randomUUID(),
        createdAt: at,
        updatedAt: at,
        isDeleted: false,
      };
      op.set([...topKey, at, id], reply);
    }
    assert((await op.commit()).ok);
  }
  // KV encodes a key as its parts, a string as its UTF-8 bytes between a type byte and a closing byte.
  const bytesOf = (key: Deno.KvKey) => key.reduce((sum: number, part) => sum + String(part).length + 2, 0);
  const commits: number[] = [];
  const measured = kvWithCommits(t.kv, (_n, apply, _sets, keys) => {
    commits.push(keys.reduce((sum, key) => sum + bytesOf(key), 0));
    return apply();
  });
  await deleteConversation(measured, post.id);
  assertEquals(await Array.fromAsync(t.kv.list({ prefix: ["comment_threads", post.id] })), []);
  assertEquals(commits.filter((bytes) => bytes > 80 * 1024), [], "commits over 80 KiB of keys");
});

Deno.test("deleting a post takes its replies' words out of their notifications and links them to the feed", async () => {
  await using t = await createTestApp();
  const { admin, post } = await setup(t);
  const { asha, ravi, top } = await askedThread(t, post.id);
  await written(t, ravi, post.id, "Practise DP", top.id);
  const del = await t.json("DELETE", `/api/admin/ungatekeep/${post.id}`, { headers: admin.headers });
  assertEquals(del.status, 200);
  const res = await t.fetch("/api/me/notifications", { headers: asha.headers });
  const { notifications } = await res.json() as { notifications: { title: string; body: string; url: string }[] };
  assertEquals(notifications.map((n) => [n.title, n.body, n.url]), [
    ["A post you commented on was deleted", "", "/ungatekeep"],
  ]);
  const hindi = await (await t.fetch("/api/me/notifications?lang=hi", { headers: asha.headers })).json();
  assertEquals(hindi.notifications[0].title, "जिस पोस्ट पर आपने कमेंट किया था, वह डिलीट हो गई");
  assertEquals(await Array.fromAsync(t.kv.list({ prefix: ["notification_subjects"] })), []);
});

Deno.test("demo data: a discussion with replies and reactions, added once", async () => {
  await using t = await createTestApp();
  await seedDemoData(t.kv);
  await seedDemoData(t.kv);
  const sara = await createTestUser(t);
  const feed = await (await t.fetch("/api/ungatekeep?limit=100", { headers: sara.headers })).json();
  const post = feed.posts.find((p: { title: string }) => p.title === DISCUSSED_POST);
  assertEquals([post.commentCount, post.reactions], [5, { helpful: 2, insightful: 1, celebrate: 2 }]);
  const { comments } = await thread(t, post.id, sara);
  assertEquals(comments.map((c) => [c.user?.name, c.replies.map((r) => r.user?.name)]), [
    ["Rohan Student", ["Sara Student", "Mihir Member", "Rohan Student"]],
    ["Sara Student", []],
  ]);
});

Deno.test("a reply e-mail carries a one-click unsubscribe (RFC 8058) whose POST turns e-mails on replies off", async () => {
  await using t = await createTestApp();
  const { post } = await setup(t);
  const { asha, ravi, top } = await askedThread(t, post.id);
  await written(t, ravi, post.id, "Practise DP", top.id);
  await t.settled();
  const mail = t.mails.find((m) => m.to === asha.user.email)!;
  assertEquals(mail.headers?.["List-Unsubscribe-Post"], "List-Unsubscribe=One-Click");
  const url = /^<(http:\/\/[^>]+\/unsubscribe\/[\w-]+)>$/.exec(mail.headers?.["List-Unsubscribe"] ?? "")?.[1];
  assert(url, JSON.stringify(mail.headers));
  assert(mail.text.includes(url) && mail.html.includes(url));
  const path = new URL(url).pathname;
  const page = await (await t.fetch(path)).text();
  assert(page.includes("Replies to my comments"), "the page names the setting it turns off");
  const settings = async () =>
    (await (await t.fetch("/api/me/settings", { headers: asha.headers })).json()).settings.emailOnReply;
  assertEquals(await settings(), true, "opening the link changes nothing");
  // The mail client's one-click request: no session, no origin.
  const oneClick = await t.fetch(path, {
    method: "POST",
    body: "List-Unsubscribe=One-Click",
    headers: { "content-type": "application/x-www-form-urlencoded" },
  });
  assertEquals(oneClick.status, 200);
  assertEquals(await settings(), false);
  await written(t, ravi, post.id, "One more thing", top.id);
  await t.settled();
  assertEquals(t.mails.filter((m) => m.to === asha.user.email).length, 1, "no more reply e-mails");
});

Deno.test("comments and reactions written at once: each lost race is tried again, none refused", async () => {
  // Every KV call takes a few ms, as far from KV's primary: writers that start together read the same version, and
  // each round only one of them wins; the others read again (more rounds than any fixed count of tries).
  await using t = await createTestApp({ kvLatencyMs: 5 });
  const { post } = await setup(t);
  const author = await createTestUser(t);
  const mine = await written(t, author, post.id, "First draft");
  const edits = await Promise.allSettled(
    Array.from(
      { length: 60 },
      (_, i) => editComment(t.kv, { id: mine.id, editor: author.user, input: { content: `Draft ${i}` } }),
    ),
  );
  assertEquals(edits.filter((edit) => edit.status === "rejected"), []);
  const [stored] = (await thread(t, post.id, author)).comments;
  assert(/^Draft \d+$/.test(stored.content), "one of the edits is stored");

  const types = ["helpful", "insightful", "celebrate"] as const;
  const react_ = (on: boolean) =>
    Promise.allSettled(
      types.flatMap((type) =>
        Array.from({ length: 20 }, () => react(t.kv, { postId: post.id, user: author.user, type, on }))
      ),
    );
  assertEquals((await react_(true)).filter((r) => r.status === "rejected"), []);
  assertEquals((await readPost(t, post.id, author)).reactions, { helpful: 1, insightful: 1, celebrate: 1 });
  assertEquals((await react_(false)).filter((r) => r.status === "rejected"), []);
  assertEquals((await readPost(t, post.id, author)).reactions, { helpful: 0, insightful: 0, celebrate: 0 });
});

Deno.test("a post page shows each thread's first 3 replies; More replies opens the thread, a plain link", async () => {
  await using t = await createTestApp();
  const { post } = await setup(t);
  const [asha, ravi] = [await createTestUser(t), await createTestUser(t)];
  const top = await written(t, asha, post.id, "Which DSA sheet?");
  const replies: Thread[] = [];
  for (let i = 1; i <= 5; i++) replies.push(await written(t, ravi, post.id, `Reply ${i}`, top.id));
  const other = await written(t, asha, post.id, "Another thread");
  const here = `/ungatekeep/${post.id}`;
  const pageOf = async (query = "") => htmlDocument(await (await t.fetch(`${here}${query}`)).text());
  const shown = (page: ReturnType<typeof htmlDocument>) =>
    [...page.querySelectorAll(`#comment-${top.id} li > article`)].map((a) => a.id.slice("comment-".length));
  const link = (page: ReturnType<typeof htmlDocument>, words: string) =>
    [...page.querySelectorAll(`#comment-${top.id} a`)].find((a) => a.textContent?.startsWith(words))
      ?.getAttribute("href");

  let page = await pageOf();
  assertEquals(shown(page), replies.slice(0, 3).map((r) => r.id));
  assertEquals(link(page, "More replies"), `${here}?thread=${top.id}#comment-${replies[2].id}`);
  assertEquals(
    [...page.querySelectorAll(`#comment-${other.id} a`)].some((a) => a.textContent === "More replies"),
    false,
  );
  page = await pageOf(`?thread=${top.id}`);
  assertEquals(shown(page), replies.map((r) => r.id));
  assertEquals([link(page, "More replies"), link(page, "Earlier replies")], [undefined, undefined]);
  page = await pageOf(`?thread=${top.id}&from=${replies[3].id}`);
  assertEquals(shown(page), replies.slice(3).map((r) => r.id));
  assertEquals(link(page, "Earlier replies"), `${here}?thread=${top.id}#comment-${top.id}`);
  assertEquals(shown(await pageOf(`?thread=${other.id}&from=${replies[3].id}`)).length, 3, "a reply of another thread");

  // The API carries every reply, or with `replies` at most that many and `moreReplies`.
  let api = await thread(t, post.id);
  assertEquals([api.comments[0].replies.length, "moreReplies" in api.comments[0]], [5, false]);
  api = await thread(t, post.id, undefined, "?replies=2");
  assertEquals(api.comments.map((c) => [c.replies.length, (c as { moreReplies?: boolean }).moreReplies]), [
    [2, true],
    [0, undefined],
  ]);

  // A refused reply to a reply of an opened thread comes back in that thread as it was, the text at its form.
  const refused = await postForm(t, asha, here, {
    intent: "comment",
    content: " ",
    parentId: replies[4].id,
    thread: top.id,
    from: replies[3].id,
  });
  assertEquals(refused.status, 400);
  page = htmlDocument(await refused.text());
  assertEquals(shown(page), replies.slice(3).map((r) => r.id));
  const form = page.getElementById(`reply-${replies[4].id}`)?.closest("form");
  assertEquals(
    [...form?.querySelectorAll('input[type="hidden"]') ?? []].map((i) => i.getAttribute("name")),
    ["intent", "parentId", "thread", "from"],
  );

  // A reply written on the page comes back with its thread opened, so it shows.
  const res = await postForm(t, asha, here, { intent: "comment", content: "Thanks all", parentId: top.id });
  const location = res.headers.get("location")!;
  await res.body?.cancel();
  assert(location.startsWith(`${here}?thread=${top.id}#comment-`), location);
  page = await pageOf(location.slice(here.length).split("#")[0]);
  assertEquals(shown(page).at(-1), location.split("#comment-")[1]);
});

Deno.test("the admin comment search looks through the newest 2,000 comments and says so; a post's are all searched", async () => {
  await using t = await createTestApp();
  const { admin, post } = await setup(t);
  const ravi = await createTestUser(t, "user", { name: "Ravi" });
  const write = async (content: string, i: number) => {
    if (i % 10 === 0) await t.kv.delete(["comment_rate", ravi.user.id]); // past the limit of 10 a minute
    await createComment(t.kv, { postId: post.id, author: ravi.user, input: { content }, appUrl: t.origin });
  };
  await write("The oldest needle", 0);
  for (let i = 1; i <= SEARCHED_COMMENTS; i++) await write(`Tip ${i}${i === SEARCHED_COMMENTS ? " needle" : ""}`, i);
  const search = async (query: string) => {
    const res = await t.fetch(`/api/admin/comments?search=needle${query}`, { headers: admin.headers });
    assertEquals(res.status, 200);
    return await res.json();
  };
  const newest = await search("");
  assertEquals(newest.comments.map((c: { content: string }) => c.content), [`Tip ${SEARCHED_COMMENTS} needle`]);
  assertEquals([newest.pagination.total, newest.searchedNewest], [1, SEARCHED_COMMENTS]);
  const ofPost = await search(`&postId=${post.id}`);
  assertEquals(ofPost.pagination.total, 2, "one post's comments are all searched");
  assertEquals(ofPost.searchedNewest, null);
  const plain = await (await t.fetch("/api/admin/comments?limit=1", { headers: admin.headers })).json();
  assertEquals([plain.pagination.total, plain.searchedNewest], [SEARCHED_COMMENTS + 1, null]);
});

Deno.test("/admin/comments deletes a comment with a plain form: 303 with its notice, or the refusal in the page's words", async () => {
  await using t = await createTestApp();
  const admin = await createTestUser(t, "admin");
  const asha = await createTestUser(t, "user", { name: "Asha Rao" });
  const post = await createPost(t, admin, { title: "Exam tips" });
  const made = await t.json("POST", `/api/ungatekeep/${post.id}/comments`, {
    body: { content: "Buy followers at spam.example" },
    headers: asha.headers,
  });
  const { comment } = await made.json();
  const asked = await (await t.fetch(`/admin/comments?delete=${comment.id}`, { headers: admin.headers })).text();
  assert(asked.includes('id="delete-comment"') && asked.includes("“Buy followers at spam.example”"));

  const done = await postForm(t, admin, "/admin/comments", { intent: "delete", id: comment.id });
  assertEquals([done.status, done.headers.get("location")], [303, "/admin/comments?deleted=1"]);
  const hindi = await (await t.fetch("/admin/comments?deleted=1&lang=hi", { headers: admin.headers })).text();
  assert(hindi.includes("कमेंट डिलीट हो गया।"));
  const again = await postForm(t, admin, "/admin/comments", { intent: "delete", id: comment.id }, {
    "accept-language": "hi-IN,hi;q=0.9",
  });
  assertEquals(again.status, 404);
  assert((await again.text()).includes("कमेंट डिलीट नहीं हुआ"), "the refusal in Hindi");
  const bad = await postForm(t, admin, "/admin/comments", { intent: "delete", id: "x".repeat(101) });
  assertEquals(bad.status, 400);
  await bad.body?.cancel();
  const notAdmin = await postForm(t, asha, "/admin/comments", { intent: "delete", id: comment.id });
  assertEquals(notAdmin.status, 403);
  await notAdmin.body?.cancel();
});

Deno.test("a reply's notice redacted before it kept the post's title still reads in the reader's language", async () => {
  await using t = await createTestApp();
  const asha = await createTestUser(t, "user", { name: "Asha" });
  const op = t.kv.atomic();
  addNotification(op, {
    userId: asha.user.id,
    type: "comment_reply",
    url: "/ungatekeep",
    message: { title: { key: "notifications.text.redacted.replyEdited" } },
  });
  assert((await op.commit()).ok);
  const res = await t.fetch("/api/me/notifications?lang=hi", { headers: asha.headers });
  assertEquals(res.status, 200);
  const [notice] = (await res.json()).notifications as { title: string }[];
  assertEquals(notice.title, "आपके कमेंट का एक जवाब बदला गया");
});
