/**
 * Records kept after their person deleted the account (docs/decisions.md, Data rights): on the demo data, the member
 * who posted internships and opportunities, the admin who wrote the toolkits and posts, and the student who bought a
 * toolkit all delete their accounts; then every page of the site, as a guest and as the remaining admin, answers
 * without a server error, and the pages name the kept records' people "Former member"; so do they while a deletion
 * runs (the user record gone before the records are forgotten).
 */
import { assert, assertEquals } from "@/tests/helpers/assert.ts";
import { createTestApp, createTestUser, type TestApp } from "@/tests/helpers/app.ts";
import { submitOpportunity } from "@/tests/fixtures/opportunities.ts";
import { postInternship } from "@/tests/fixtures/internships.ts";
import { createPost } from "@/tests/fixtures/posts.ts";
import { seedDemoData } from "@/lib/demo/seed.ts";
import { DEMO_ACCOUNTS } from "@/lib/demo/accounts.ts";
import { createSession } from "@/lib/auth/sessions.ts";
import { getUserByEmail, updateUser, userKey } from "@/lib/users/users.ts";
import { routePattern } from "@/lib/web/routes.ts";
import manifest from "@/routes.gen.ts";

/** A session cookie of the demo account `email`. */
async function demoCookie(t: TestApp, email: string): Promise<string> {
  const user = (await getUserByEmail(t.kv, email))!;
  return `session=${(await createSession(t.kv, user.id)).token}`;
}

/** Deletes the demo account `email` through the API, as its person would. */
async function deleteDemoAccount(t: TestApp, email: string): Promise<void> {
  const { password } = DEMO_ACCOUNTS.find((account) => account.email === email)!;
  const cookie = await demoCookie(t, email);
  const res = await t.json("DELETE", "/api/me", { body: { confirm: email, password }, headers: { cookie } });
  assertEquals(res.status, 200, await res.clone().text());
  await res.body?.cancel();
  await t.settled(); // the deletion's job, which the answer does not wait for
}

async function json(t: TestApp, path: string, cookie?: string) {
  const res = await t.fetch(path, { headers: cookie ? { cookie } : {} });
  assertEquals(res.status, 200, path);
  return await res.json();
}

/** Whether a served path is one of `pattern` (a route pattern such as `/internships/:id`). */
function matches(pattern: string, path: string): boolean {
  const body = pattern.split("/").map((part) => part.startsWith(":") ? "[^/]+" : part.replace(/\./g, "\\.")).join(
    "/",
  );
  return new RegExp(`^${body}$`).test(path);
}

Deno.test("with the demo's member, admin and buyer deleted, every page renders and shows a former member", async () => {
  await using t = await createTestApp();
  await seedDemoData(t.kv);
  const rohan = (await getUserByEmail(t.kv, "rohan@demo.careers"))!;
  await updateUser(t.kv, rohan.id, { role: "admin" });
  const admin = await demoCookie(t, "rohan@demo.careers");

  await deleteDemoAccount(t, "member@demo.careers");
  await deleteDemoAccount(t, "admin@demo.careers");
  await deleteDemoAccount(t, "sara@demo.careers");

  const internships = (await json(t, "/api/internships?limit=100")).internships as {
    id: string;
    user: unknown;
    organization: { id: string; slug: string };
  }[];
  const orphanInternships = internships.filter((i) => i.user === null);
  assert(orphanInternships.length > 0, "the member's internships are kept without an owner");
  const opportunities = (await json(t, "/api/opportunities?limit=100")).opportunities as {
    id: string;
    postedBy: unknown;
  }[];
  const orphanOpportunity = opportunities.find((o) => o.postedBy === null)!;
  assert(orphanOpportunity, "the member's opportunities are kept without an owner");
  const toolkits = await json(t, "/api/toolkits") as { id: string; creatorName: string }[];
  assert(toolkits.every((k) => k.creatorName === "Former member"), "the admin's toolkits are kept");
  const toolkit = await json(t, `/api/toolkits/${toolkits[0].id}`);
  const lessonId = toolkit.contentItems[0].id;
  const posts = (await json(t, "/api/ungatekeep")).posts as { id: string; creator: unknown }[];
  assert(posts.length > 0 && posts.every((p) => p.creator === null), "the admin's posts are kept");
  const [certificate] = (await json(t, "/api/me/certificates", admin)).certificates;
  const refunded = (await json(t, "/api/admin/purchases?status=refunded", admin)).purchases;
  assert(
    refunded[0]?.user === null && refunded[0].receiptUrl,
    "the deleted buyer's refunded purchase keeps its receipt",
  );
  const [reported] = (await json(t, "/api/admin/reports", admin)).targets as { kind: string; targetId: string }[];
  assert(reported, "the demo's reports are kept");
  const adminToolkits = await json(t, "/api/admin/toolkits", admin);
  assert(adminToolkits.toolkits?.length ?? adminToolkits.length, "the admin lists the toolkits");

  const paths = [
    "/",
    "/internships",
    "/internships?includeClosed=true",
    "/internships/rss.xml",
    ...orphanInternships.map((i) => `/internships/${i.id}`),
    `/internships/${orphanInternships[0].id}/edit`,
    `/internships/${orphanInternships[0].id}/apply`,
    `/internships/${orphanInternships[0].id}/applicants`,
    `/internships/${orphanInternships[0].id}/applications`,
    "/internships/mine",
    "/internships/new",
    `/organizations/${orphanInternships[0].organization.slug}`,
    "/organizations/claim/an-unknown-or-expired-token",
    "/opportunities",
    `/opportunities/${orphanOpportunity.id}`,
    `/opportunities/${orphanOpportunity.id}/calendar.ics`,
    `/opportunities/${orphanOpportunity.id}/edit`,
    "/opportunities/mine",
    "/opportunities/new",
    "/toolkits",
    `/toolkits/${toolkits[0].id}`,
    `/toolkits/${toolkits[0].id}/learn`,
    `/toolkits/${toolkits[0].id}/learn/${lessonId}`,
    "/toolkits/mine",
    `/certificates/${certificate.id}`,
    refunded[0].receiptUrl,
    refunded[0].receiptUrl.replace(/\/receipt$/, "/credit-notes/an-unknown-credit-note"),
    "/ungatekeep",
    "/ungatekeep/rss.xml",
    ...posts.map((p) => `/ungatekeep/${p.id}`),
    "/me/tracker",
    "/me/applications/an-unknown-application/withdraw",
    "/me/applications/an-unknown-application/stipend-report",
    "/purchases/an-unknown-purchase/refund-request",
    "/unsubscribe/an-unknown-or-expired-token",
    "/profile",
    "/onboarding",
    "/admin",
    "/admin/banners",
    "/admin/coupons",
    "/admin/internships",
    "/admin/opportunities",
    "/admin/organizations",
    "/admin/reports",
    `/admin/reports/${reported.kind}/${reported.targetId}`,
    `/admin/organizations/${orphanInternships[0].organization.id}`,
    "/admin/toolkits",
    `/admin/toolkits/${toolkits[0].id}`,
    "/admin/toolkits/new",
    "/admin/ungatekeep",
    `/admin/ungatekeep/${posts[0].id}`,
    "/admin/ungatekeep/new",
    "/admin/users",
    "/sitemap.xml",
    "/robots.txt",
    "/privacy",
    "/terms",
    "/refunds",
    "/contact",
    "/sign-in",
    "/sign-up",
    "/forgot-password",
    "/reset-password",
    "/check-inbox",
    "/api/docs",
  ];
  const pageRoutes = Object.keys(manifest.routes)
    .filter((file) => !file.startsWith("./routes/api/") && !/\/_[^/]*$/.test(file) && !file.endsWith("sign-out.ts"))
    .map((file) => routePattern(file).pattern);
  // Every page without a parameter is crawled as it is; each with one must be among the paths above.
  paths.push(...pageRoutes.filter((pattern) => !pattern.includes(":") && !paths.includes(pattern)));
  for (const pattern of pageRoutes) {
    if (pattern === "/sitemap/:file") continue;
    assert(paths.some((path) => matches(pattern, path.split("?")[0])), `the crawl covers ${pattern}`);
  }

  const shown = new Map<string, string>();
  for (const cookie of [undefined, admin]) {
    for (const path of paths) {
      const res = await t.fetch(path, { headers: cookie ? { cookie } : {}, redirect: "manual" });
      const text = await res.text();
      assert(res.status < 500, `${path} (${cookie ? "admin" : "guest"}): ${res.status}`);
      if (cookie) shown.set(path, text);
    }
  }
  for (const path of [`/internships/${orphanInternships[0].id}`, `/opportunities/${orphanOpportunity.id}`]) {
    assert(shown.get(path)!.includes("Former member"), `${path} names a former member`);
  }
  assert(shown.get("/admin/internships")!.includes("Former member"), "the admin list names a former member");
  assert(shown.get(`/toolkits/${toolkits[0].id}`)!.includes("Former member"), "the toolkit page");
  assert(shown.get(`/ungatekeep/${posts[0].id}`)!.includes("Former member"), "the post page");
  const hindi = await (await t.fetch(`/toolkits/${toolkits[0].id}?lang=hi`, { headers: { cookie: admin } })).text();
  assert(hindi.includes("पूर्व सदस्य") && !hindi.includes("Former member"), "the toolkit page in Hindi");
});

Deno.test("while an account's deletion runs, its listings and posts show a former member, never an unknown user", async () => {
  await using t = await createTestApp();
  const member = await createTestUser(t, "member");
  const admin = await createTestUser(t, "admin");
  const opportunity = await submitOpportunity(t, member, { title: "Hackathon X" });
  const internship = await postInternship(t, member, { title: "Kept Intern" });
  const post = await createPost(t, admin, { title: "Kept post" });
  // The state `deleteAccount` leaves until its steps forget them: the user records are gone, the ids still stored.
  await t.kv.delete(userKey(member.user.id));
  await t.kv.delete(userKey(admin.user.id));
  assertEquals((await json(t, `/api/opportunities/${opportunity.id}`)).opportunity.postedBy, null);
  // An internship's owner comes from the store's summary cache, which still knows the member here.
  assert((await json(t, `/api/internships/${internship.id}`)).internship.user?.name !== "Unknown user");
  assertEquals((await json(t, `/api/ungatekeep/${post.id}`)).post.creator, null);
  const pages = [`/opportunities/${opportunity.id}`, "/opportunities", `/ungatekeep/${post.id}`, "/ungatekeep"];
  for (const path of [...pages, `/internships/${internship.id}`]) {
    for (const lang of ["en", "hi"]) {
      const res = await t.fetch(`${path}?lang=${lang}`);
      const html = await res.text();
      assertEquals(res.status, 200, path);
      assert(!html.includes("Unknown user"), `${path} in ${lang}`);
      if (pages.includes(path)) {
        assert(html.includes(lang === "hi" ? "पूर्व सदस्य" : "Former member"), `${path} in ${lang} names a former member`);
      }
    }
  }
});

Deno.test("a deleted person's comment is by a former member, in English and Hindi, as the deletion page promises", async () => {
  await using t = await createTestApp();
  const admin = await createTestUser(t, "admin");
  const student = await createTestUser(t, "user");
  const post = await createPost(t, admin, { title: "Kept discussion" });
  const said = await t.json("POST", `/api/ungatekeep/${post.id}/comments`, {
    body: { content: "Thanks for this" },
    headers: student.headers,
  });
  assertEquals(said.status, 201, await said.text());
  const gone = await t.json("DELETE", "/api/me", { body: { confirm: student.user.email }, headers: student.headers });
  assertEquals(gone.status, 200, await gone.text());
  await t.settled();
  for (
    const [lang, words, not] of [["en", "Former member", "Deleted user"], ["hi", "पूर्व सदस्य", "डिलीट किया गया यूज़र"]]
  ) {
    const html = await (await t.fetch(`/ungatekeep/${post.id}?lang=${lang}`, { headers: admin.headers })).text();
    assert(html.includes("Thanks for this"), "the comment is kept");
    assert(html.includes(words) && !html.includes(not), `the comment's author in ${lang}`);
  }
});
