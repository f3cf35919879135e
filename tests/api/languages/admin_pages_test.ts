/**
 * The admin area in both languages (docs/decisions.md, Languages): every admin page renders for an admin in English
 * and in Hindi, with rows in its tables and forms (a toolkit with a lesson, a coupon, a post with a comment, a banner,
 * a listing held for review), no message missing from a page or from an island's `text`, and the Hindi page in Hindi:
 * its heading, the menu and the island's words.
 */
import { assert, assertEquals } from "@/tests/helpers/assert.ts";
import { createTestApp, createTestUser } from "@/tests/helpers/app.ts";
import { page } from "@/tests/fixtures/html.ts";
import { addCoupon, addToolkitWithLessons } from "@/tests/fixtures/toolkits.ts";
import { createPost } from "@/tests/fixtures/posts.ts";
import { submitOpportunity } from "@/tests/fixtures/opportunities.ts";
import { translatorFor } from "@/lib/i18n/catalogue.ts";
import type { MessageKey } from "@/lib/i18n/translator.ts";

const hi = translatorFor("hi");

Deno.test("every admin page renders in English and in Hindi, with its rows, and reads in Hindi", async () => {
  const logLines: string[] = [];
  await using t = await createTestApp({ logLines });
  const admin = await createTestUser(t, "admin");
  const student = await createTestUser(t, "user", { name: "Ravi Kumar" });
  const shop = { t, admin };
  const { toolkit } = await addToolkitWithLessons(shop, { title: "Interview Playbook", lessons: ["Warm-up"] });
  await addCoupon(shop, { code: "SAVE20" });
  const post = await createPost(t, admin, { title: "Placement season" });
  const comment = await t.json("POST", `/api/ungatekeep/${post.id}/comments`, {
    body: { content: "Thank you" },
    headers: student.headers,
  });
  assertEquals(comment.status, 201);
  const banner = await t.json("POST", "/api/admin/banners", {
    body: { title: "Spring hiring", linkUrl: "/internships", orderIndex: 0 },
    headers: admin.headers,
  });
  assertEquals(banner.status, 201);
  await submitOpportunity(t, student, { title: "Campus hackathon" });

  /** Each admin page with a Hindi message its page or island shows. */
  const pages: [string, MessageKey][] = [
    ["/admin", "admin.dashboard.topToolkits"],
    ["/admin/users", "admin.users.search"],
    ["/admin/internships", "admin.internships.search"],
    ["/admin/opportunities", "admin.opportunities.search"],
    ["/admin/moderation", "admin.moderation.views"],
    ["/admin/organizations", "admin.organizations.lead"],
    ["/admin/reports", "admin.reports.views"],
    ["/admin/toolkits", "admin.toolkits.search"],
    ["/admin/toolkits/new", "admin.toolkitForm.create"],
    [`/admin/toolkits/${toolkit.id}`, "admin.lessons.addHeading"],
    ["/admin/coupons", "admin.coupons.create"],
    ["/admin/purchases", "admin.purchases.search"],
    ["/admin/ungatekeep", "admin.posts.search"],
    ["/admin/ungatekeep/new", "admin.editor.publishHint"],
    [`/admin/ungatekeep/${post.id}`, "admin.editor.save"],
    ["/admin/comments", "admin.comments.search"],
    ["/admin/banners", "admin.banners.addHeading"],
    ["/admin/outbox", "admin.outbox.search"],
    ["/admin/jobs", "admin.jobs.lead"],
  ];
  for (const [path, key] of pages) {
    const english = await page(t, `${path}${path.includes("?") ? "&" : "?"}lang=en`, admin);
    assertEquals(english.res.status, 200, `${path} in English`);
    const hindi = await page(t, `${path}?lang=hi`, admin);
    assertEquals(hindi.res.status, 200, `${path} in Hindi`);
    for (const words of [hi("admin.nav.menu"), hi(key)]) assert(hindi.html.includes(words), `${path}: ${words}`);
    assert(!hindi.html.includes(">Admin menu<"), `${path}: the menu in English`);
  }
  assertEquals(logLines.filter((line) => line.includes('"level":"error"')), [], "no page failed to render");

  const outbox = (await page(t, "/admin/outbox?lang=hi", admin)).html;
  const retries = outbox.match(/<details[^>]*>\s*<summary[^>]*>([^<]*)<\/summary>\s*<p[^>]*>([^<]*)<\/p>/);
  assertEquals(retries?.slice(1), [hi("admin.outbox.howTitle"), hi("admin.outbox.retries")], "the detail folded");
  assert(outbox.includes(`>${hi("admin.outbox.lead")}<`) && hi("admin.outbox.lead").length < 60, "a one-line lead");
  const rows = await page(t, "/admin/ungatekeep?lang=hi", admin);
  assert(rows.html.includes(hi("admin.posts.tag.announcement")), "a post's tag in Hindi");
  const comments = await page(t, "/admin/comments?lang=hi", admin);
  assert(comments.html.includes(hi("admin.comments.nameOf", { name: "Ravi Kumar" })), "a comment's row in Hindi");
  const lessons = await page(t, `/admin/toolkits/${toolkit.id}?lang=hi`, admin);
  assert(
    lessons.html.includes(hi("admin.lessons.kind", { type: "article", preview: "no" })),
    "a lesson's kind in Hindi",
  );
});
