/**
 * An admin on a 360 px phone with JavaScript off (docs/decisions.md, Islands, "Forms work without JavaScript"):
 * `/admin/users` searches, filters by role and pages through plain `GET` forms and links (a page it lacks a disabled
 * button, as once hydrated) and changes a row's role (its
 * select and "Change role"; a refusal at the row), and so does `/admin/purchases`
 * with its search and status tabs; `/admin/banners` adds a banner
 * with its image (a multipart form, a refused link shown at its field), saves a row's order and Active with its Save
 * button, and deletes one after the page's confirmation; `/admin/api-keys`, reached from the admin menu, makes a key
 * (shown once) and revokes it after its confirmation; `/admin/comments` deletes a comment after its confirmation;
 * `/admin/ungatekeep` searches by words and tag, saves a post's Published and Pinned with its Save button and deletes one after its confirmation;
 * a listing's Verified and Active save with their Save button on `/admin/internships` and on the listing's page;
 * `/admin/toolkits` lists and searches the toolkits, saves a row's Active and Sale badge and deletes one after its confirmation;
 * `/admin/coupons` searches by code, creates a coupon (a refusal at its field first), saves a row's Active and deletes one;
 * `/admin/outbox` pages, opens a tab and searches within it; `/admin/opportunities` pages, searches, approves a row, rejects one with a reason and opens a tab, each keeping the
 * view.
 */
import { Buffer } from "node:buffer";
import { assert, assertEquals } from "@/tests/helpers/assert.ts";
import { createTestApp, createTestUser } from "@/tests/helpers/app.ts";
import { assertAccessibleWithoutScript, openBrowser, openHydrated, signInBrowser } from "@/tests/helpers/browser.ts";
import { listBanners } from "@/lib/ungatekeep/banners.ts";
import { getUser, updateUser, type User } from "@/lib/users/users.ts";
import { createComment } from "@/lib/comments/comments.ts";
import { startFakeSmtp } from "@/tests/fakes/smtp.ts";
import { queueMail } from "@/lib/mail/delivery.ts";
import { listOutbox } from "@/lib/mail/outbox_admin.ts";
import { queueMailOps } from "@/lib/mail/outbox.ts";
import { getPostForAdmin } from "@/lib/ungatekeep/posts.ts";
import { postInternship } from "@/tests/fixtures/internships.ts";
import { getInternship } from "@/lib/internships/internships.ts";
import { createPost, PNG } from "@/tests/fixtures/posts.ts";
import { translatorFor } from "@/lib/i18n/catalogue.ts";
import { startFakeRazorpay } from "@/tests/fakes/razorpay.ts";
import { addToolkit, buy, checkout } from "@/tests/fixtures/toolkits.ts";
import { getToolkitRecord } from "@/lib/toolkits/catalog.ts";
import { listCoupons } from "@/lib/coupons/coupons.ts";
import { submitOpportunity } from "@/tests/fixtures/opportunities.ts";
import { getOpportunity } from "@/lib/opportunities/opportunities.ts";
import { phoneContext } from "@/tests/helpers/phone.ts";

Deno.test("without JavaScript an admin searches, filters and pages /admin/users", async () => {
  await using t = await createTestApp({ listen: true });
  await createTestUser(t, "user", { name: "Grace Hopper" });
  const meera = await createTestUser(t, "member", { name: "Meera Member" });
  let newest = meera;
  for (let i = 0; i < 21; i++) newest = await createTestUser(t, "user", { name: i ? `Filler ${i}` : "Ada Lovelace" });
  const admin = await createTestUser(t, "admin", { name: "Boss Admin" });
  await using browser = await openBrowser();
  const context = await phoneContext(browser, { javaScriptEnabled: false });
  await signInBrowser(context, t.origin, admin);
  const page = await context.newPage();
  await page.goto(`${t.origin}/admin/users`);
  await page.getByText("1–20 of 24").waitFor();

  await page.getByRole("link", { name: "Next" }).click();
  await page.getByText("21–24 of 24").waitFor();
  assertEquals(new URL(page.url()).searchParams.get("offset"), "20");
  await page.getByRole("row", { name: /Grace Hopper/ }).waitFor();
  assertEquals(await page.getByRole("link", { name: "Next" }).count(), 0);
  await assertAccessibleWithoutScript(page, "admin users, second page, without JavaScript at 360 px");
  await page.getByRole("link", { name: "Previous" }).click();
  await page.getByText("1–20 of 24").waitFor();

  await page.getByLabel("Search by name or e-mail").fill("grace");
  await page.getByRole("button", { name: "Search" }).click();
  await page.getByText("1–1 of 1").waitFor();
  assertEquals(await page.getByLabel("Search by name or e-mail").inputValue(), "grace");
  await page.getByRole("row", { name: /Grace Hopper/ }).waitFor();

  await page.getByLabel("Search by name or e-mail").fill("");
  await page.getByLabel("Role", { exact: true }).selectOption("member");
  await page.getByRole("button", { name: "Search" }).click();
  await page.getByText("1–1 of 1").waitFor();
  await page.getByRole("row", { name: /Meera Member/ }).waitFor();
  assertEquals(await page.getByLabel("Role", { exact: true }).inputValue(), "member");

  await page.getByLabel("Role of Meera Member").selectOption("admin");
  await page.getByRole("button", { name: "Change role Meera Member" }).click();
  await page.getByText("Meera Member is now an admin.").waitFor();
  assertEquals((await getUser(t.kv, meera.user.id))?.role, "admin");
  assertEquals(new URL(page.url()).searchParams.get("role"), "member", "back to the page the form was sent from");
  await page.getByRole("link", { name: "All accounts" }).click();
  await updateUser(t.kv, newest.user.id, { suspension: { at: new Date().toISOString(), reason: "A scam", by: null } });
  await page.getByLabel("Role of Filler 20").selectOption("admin");
  await page.getByRole("button", { name: "Change role Filler 20" }).click();
  const refusal = translatorFor("en")("common.refusal.promoteSuspended");
  await page.locator(`#role-${newest.user.id}-error`).getByText(refusal).waitFor();
  assertEquals((await getUser(t.kv, newest.user.id))?.role, "user", "the refused role is not given");
  await assertAccessibleWithoutScript(page, "admin users, a role refused without JavaScript at 360 px");
});

Deno.test("an admin list's pages are drawn the same before and after hydration at 360 px", async () => {
  await using t = await createTestApp({ listen: true });
  await createTestUser(t, "user", { name: "Grace Hopper" });
  const admin = await createTestUser(t, "admin", { name: "Boss Admin" });
  await using browser = await openBrowser();
  const drawn = async (javaScriptEnabled: boolean) => {
    const context = await phoneContext(browser, { javaScriptEnabled });
    await signInBrowser(context, t.origin, admin);
    const page = await context.newPage();
    if (javaScriptEnabled) await openHydrated(page, `${t.origin}/admin/users`);
    else await page.goto(`${t.origin}/admin/users`);
    const nav = page.getByRole("navigation", { name: "Pages of users" });
    const steps = await nav.locator("a, button").evaluateAll((nodes) =>
      nodes.map((node) => `${node.tagName} ${node.textContent} ${(node as HTMLButtonElement).disabled}`)
    );
    const height = (await nav.boundingBox())?.height;
    await context.close();
    return { steps, height };
  };
  const before = await drawn(false);
  assertEquals(before.steps, ["BUTTON Previous true", "BUTTON Next true"], "one page: both steps there, disabled");
  assertEquals(await drawn(true), before, "hydration neither adds nor moves a step");
});

Deno.test("without JavaScript an admin searches, picks a tab and pages /admin/purchases", async () => {
  await using fake = startFakeRazorpay();
  await using t = await createTestApp({ listen: true, env: fake.env });
  const admin = await createTestUser(t, "admin", { name: "Boss Admin" });
  const kit = await addToolkit({ t, admin });
  const grace = await createTestUser(t, "user", { name: "Grace Hopper" });
  await buy({ t, fake }, grace, kit.id);
  for (let i = 0; i < 21; i++) {
    const started = await checkout(
      { t },
      await createTestUser(t, "user", { name: i ? `Filler ${i}` : "Ada Lovelace" }),
      kit.id,
    );
    assertEquals(started.status, 200);
  }
  await using browser = await openBrowser();
  const context = await phoneContext(browser, { javaScriptEnabled: false });
  await signInBrowser(context, t.origin, admin);
  const page = await context.newPage();
  await page.goto(`${t.origin}/admin/purchases`);
  await page.getByText("1–20 of 22").waitFor();

  // The list's own pages, as hydration leaves them (links until then).
  await page.getByRole("navigation", { name: "Pages of purchases" }).getByRole("link", { name: "Next" }).click();
  await page.getByText("21–22 of 22").waitFor();
  assertEquals(new URL(page.url()).searchParams.get("offset"), "20");
  assertEquals(await page.getByRole("link", { name: "Next" }).count(), 0);
  await assertAccessibleWithoutScript(page, "admin purchases, second page, without JavaScript at 360 px");
  await page.getByRole("link", { name: "Previous" }).click();
  await page.getByText("1–20 of 22").waitFor();

  await page.getByRole("button", { name: "Paid (1)" }).click();
  await page.getByText("1–1 of 1").waitFor();
  assertEquals(new URL(page.url()).searchParams.get("tab"), "paid");
  assertEquals(await page.getByRole("button", { name: "Paid (1)" }).getAttribute("aria-pressed"), "true");
  await page.getByRole("row", { name: /Grace Hopper/ }).waitFor();

  await page.getByRole("button", { name: "Pending (21)" }).click();
  await page.getByText("1–20 of 21").waitFor();
  await page.getByLabel("Search by buyer, toolkit, order or payment id").fill("lovelace");
  await page.getByRole("button", { name: "Search", exact: true }).click();
  await page.getByText("1–1 of 1").waitFor();
  const url = new URL(page.url());
  assertEquals([url.searchParams.get("tab"), url.searchParams.get("search")], ["pending", "lovelace"], "the tab kept");
  assertEquals(await page.getByLabel("Search by buyer, toolkit, order or payment id").inputValue(), "lovelace");
  await page.getByRole("row", { name: /Ada Lovelace/ }).waitFor();
});

Deno.test("without JavaScript an admin adds banners with an image, saves order and Active, and deletes one", async () => {
  await using t = await createTestApp({ listen: true });
  const admin = await createTestUser(t, "admin");
  await using browser = await openBrowser();
  const context = await phoneContext(browser, { javaScriptEnabled: false });
  await signInBrowser(context, t.origin, admin);
  const page = await context.newPage();
  await page.goto(`${t.origin}/admin/banners`);

  const link = page.getByLabel("Link (a path such as /internships, or an https:// URL)");
  await page.getByLabel("Title").fill("Exam season");
  await link.fill("internships");
  await page.getByRole("button", { name: "Add banner" }).click();
  await page.locator("#banner-linkUrl-error").getByText(translatorFor("en")("fields.linkOrPath")).waitFor();
  assertEquals(await page.getByLabel("Title").inputValue(), "Exam season");
  await assertAccessibleWithoutScript(page, "banner form refused without JavaScript at 360 px");
  await link.fill("/internships");
  await page.getByLabel("Image (optional)").setInputFiles({
    name: "exams.png",
    mimeType: "image/png",
    buffer: Buffer.from(PNG),
  });
  await page.getByRole("button", { name: "Add banner" }).click();
  await page.getByText("“Exam season” added.").waitFor();
  await page.getByLabel("Title").fill("Jobs fair");
  await page.getByRole("button", { name: "Add banner" }).click();
  await page.getByText("“Jobs fair” added.").waitFor();
  const [exams, jobs] = await listBanners(t.kv, false);
  assertEquals([exams.title, exams.linkUrl, exams.orderIndex, jobs.title, jobs.orderIndex], [
    "Exam season",
    "/internships",
    0,
    "Jobs fair",
    1,
  ]);
  assert(exams.imageId !== null && jobs.imageId === null, "only the first banner has an image");
  assertEquals(await page.locator(`img[src="/api/files/${exams.imageId}"]`).count(), 1);

  const examsRow = page.getByRole("listitem").filter({ hasText: "Exam season" });
  await examsRow.getByRole("spinbutton", { name: "Order" }).fill("5");
  await examsRow.getByRole("checkbox", { name: "Active" }).uncheck();
  await examsRow.getByRole("button", { name: "Save Exam season" }).click();
  await page.getByText("“Exam season” saved.").waitFor();
  assertEquals((await listBanners(t.kv, false)).map((b) => [b.title, b.orderIndex, b.isActive]), [
    ["Jobs fair", 1, true],
    ["Exam season", 5, false],
  ]);
  await assertAccessibleWithoutScript(page, "banners without JavaScript at 360 px");

  await page.getByRole("listitem").filter({ hasText: "Jobs fair" }).getByRole("link", { name: "Delete Jobs fair" })
    .click();
  const confirmation = page.getByRole("region", { name: "Delete this banner?" });
  await confirmation.getByText("“Jobs fair” and its image").waitFor();
  await confirmation.getByRole("button", { name: "Delete" }).click();
  await page.getByText("The banner is deleted.").waitFor();
  assertEquals((await listBanners(t.kv, false)).map((b) => b.title), ["Exam season"]);
});

Deno.test("without JavaScript an admin makes an API key from the admin menu, sees it once, and revokes it", async () => {
  await using t = await createTestApp({ listen: true });
  const admin = await createTestUser(t, "admin");
  await using browser = await openBrowser();
  const context = await phoneContext(browser, { javaScriptEnabled: false });
  await signInBrowser(context, t.origin, admin);
  const page = await context.newPage();
  const postWith = (key: string) =>
    fetch(`${t.origin}/api/internships`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify({ title: "Data Intern", hiringOrganization: "Acme", link: "https://acme.example.com/jobs" }),
    });
  await page.goto(`${t.origin}/admin`);
  await page.getByRole("navigation", { name: "Admin" }).getByText("Admin menu").click();
  await page.getByRole("link", { name: "API keys" }).click();
  await page.getByText("No keys yet.").waitFor();
  assertEquals(new URL(page.url()).pathname, "/admin/api-keys");

  await page.getByRole("button", { name: "Make key" }).click();
  await page.locator("#name-error").waitFor();
  await assertAccessibleWithoutScript(page, "API key form refused without JavaScript at 360 px");
  await page.getByLabel("Name").fill("Acme careers feed");
  await page.getByRole("button", { name: "Make key" }).click();
  await page.getByText("“Acme careers feed” is made").waitFor();
  const key = await page.getByLabel("The key").inputValue();
  assert(key.startsWith("ck_"), "the new key is shown");
  await assertAccessibleWithoutScript(page, "a new API key without JavaScript at 360 px");
  const posted = await postWith(key);
  assertEquals(posted.status, 201, "the key posts internships");
  await posted.body?.cancel();

  await page.goto(`${t.origin}/admin/api-keys`);
  assert(!(await page.content()).includes(key), "the key is shown only once");
  await page.getByRole("link", { name: "Revoke Acme careers feed" }).click();
  const confirmation = page.getByRole("region", { name: "Revoke this key?" });
  await confirmation.getByText("“Acme careers feed” stops working at once").waitFor();
  await confirmation.getByRole("button", { name: "Revoke" }).click();
  await page.getByText("The key is revoked.").waitFor();
  await page.getByText("No keys yet.").waitFor();
  const refused = await postWith(key);
  assertEquals(refused.status, 401, "a revoked key posts nothing");
  await refused.body?.cancel();
});

Deno.test("without JavaScript an admin deletes a comment after the page's confirmation", async () => {
  await using t = await createTestApp({ listen: true });
  const admin = await createTestUser(t, "admin");
  const asha = await createTestUser(t, "user", { name: "Asha Rao" });
  const post = await createPost(t, admin, { title: "Exam tips" });
  for (const content of ["Buy followers at spam.example", "Thanks, this helped"]) {
    const res = await t.json("POST", `/api/ungatekeep/${post.id}/comments`, {
      body: { content },
      headers: asha.headers,
    });
    assertEquals(res.status, 201);
    await res.body?.cancel();
  }
  await using browser = await openBrowser();
  const context = await phoneContext(browser, { javaScriptEnabled: false });
  await signInBrowser(context, t.origin, admin);
  const page = await context.newPage();
  await page.goto(`${t.origin}/admin/comments`);
  await page.getByRole("row").filter({ hasText: "Buy followers" }).getByRole("link", {
    name: "Delete the comment by Asha Rao",
  })
    .click();
  const confirmation = page.getByRole("region", { name: "Delete this comment?" });
  await confirmation.getByText("“Buy followers at spam.example”").waitFor();
  await assertAccessibleWithoutScript(page, "comment delete confirmation without JavaScript at 360 px");
  await confirmation.getByRole("button", { name: "Delete" }).click();
  await page.getByText("The comment is deleted.").waitFor();
  assertEquals(await page.getByText("Buy followers").count(), 0);
  await page.getByRole("row").filter({ hasText: "Thanks, this helped" }).waitFor();
  await assertAccessibleWithoutScript(page, "comments after a delete without JavaScript at 360 px");
});

Deno.test("without JavaScript an admin saves a post's switches and deletes a post after the page's confirmation", async () => {
  await using t = await createTestApp({ listen: true });
  const admin = await createTestUser(t, "admin");
  const tips = await createPost(t, admin, { title: "Exam tips" });
  await createPost(t, admin, { title: "Old news" });
  await using browser = await openBrowser();
  const context = await phoneContext(browser, { javaScriptEnabled: false });
  await signInBrowser(context, t.origin, admin);
  const page = await context.newPage();
  await page.goto(`${t.origin}/admin/ungatekeep`);
  await page.getByRole("checkbox", { name: "Published: Exam tips" }).uncheck();
  await page.getByRole("checkbox", { name: "Pinned: Exam tips" }).check();
  await page.getByRole("button", { name: "Save Exam tips" }).click();
  await page.getByText("“Exam tips” saved.").waitFor();
  const saved = await getPostForAdmin(t.kv, tips.id);
  assertEquals([saved.isPublished, saved.isPinned], [false, true]);
  assert(await page.getByRole("checkbox", { name: "Pinned: Exam tips" }).isChecked(), "the page shows it saved");
  await assertAccessibleWithoutScript(page, "admin posts saved without JavaScript at 360 px");

  await page.getByRole("row").filter({ hasText: "Old news" }).getByRole("link", { name: "Delete Old news" }).click();
  const confirmation = page.getByRole("region", { name: "Delete this post?" });
  await confirmation.getByText("“Old news” and its images").waitFor();
  await confirmation.getByRole("button", { name: "Delete" }).click();
  await page.getByText("The post is deleted.").waitFor();
  assertEquals(await page.getByRole("row").filter({ hasText: "Old news" }).count(), 0);
});

Deno.test("without JavaScript an admin saves a listing's Verified and Active, on the list and on its page", async () => {
  await using t = await createTestApp({ listen: true });
  const admin = await createTestUser(t, "admin");
  const member = await createTestUser(t, "member");
  const listing = await postInternship(t, member, { title: "Data Intern" });
  await using browser = await openBrowser();
  const context = await phoneContext(browser, { javaScriptEnabled: false });
  await signInBrowser(context, t.origin, admin);
  const page = await context.newPage();
  const state = async () => {
    const found = await getInternship(t.kv, { id: listing.id, viewer: admin.user, audience: "api" });
    return [found.isVerified, found.isActive];
  };
  await page.goto(`${t.origin}/admin/internships`);
  const controls = page.getByRole("group", { name: "Admin: moderate “Data Intern”" });
  await controls.getByRole("checkbox", { name: "Verified" }).check();
  await controls.getByRole("button", { name: "Save Data Intern" }).click();
  await controls.getByText("Saved.").waitFor();
  assertEquals(await state(), [true, true]);
  assertEquals(new URL(page.url()).pathname, "/admin/internships");
  await assertAccessibleWithoutScript(page, "admin internships saved without JavaScript at 360 px");

  await page.goto(`${t.origin}/internships/${listing.id}`);
  await controls.getByRole("checkbox", { name: "Active (listed publicly)" }).uncheck();
  await controls.getByRole("button", { name: "Save Data Intern" }).click();
  await controls.getByText("Saved.").waitFor();
  assertEquals(new URL(page.url()).pathname, `/internships/${listing.id}`);
  assertEquals(await state(), [true, false]);
});

Deno.test("without JavaScript an admin sees the toolkits, saves a row's switches and deletes one after the confirmation", async () => {
  await using t = await createTestApp({ listen: true });
  const admin = await createTestUser(t, "admin");
  const resume = await addToolkit({ t, admin }, { title: "Resume Toolkit" });
  await addToolkit({ t, admin }, { title: "Old Toolkit" });
  await using browser = await openBrowser();
  const context = await phoneContext(browser, { javaScriptEnabled: false });
  await signInBrowser(context, t.origin, admin);
  const page = await context.newPage();
  await page.goto(`${t.origin}/admin/toolkits`);
  await page.getByRole("switch", { name: "Active: Resume Toolkit" }).uncheck();
  await page.getByRole("switch", { name: "Sale badge: Resume Toolkit" }).check();
  await page.getByRole("button", { name: "Save Resume Toolkit" }).click();
  await page.getByText("“Resume Toolkit” saved.").waitFor();
  const saved = await getToolkitRecord(t.kv, resume.id);
  assertEquals([saved?.isActive, saved?.showSaleBadge], [false, true]);
  await assertAccessibleWithoutScript(page, "admin toolkits saved without JavaScript at 360 px");

  await page.getByRole("row").filter({ hasText: "Old Toolkit" }).getByRole("link", { name: "Delete Old Toolkit" })
    .click();
  const confirmation = page.getByRole("region", { name: "Delete this toolkit?" });
  await confirmation.getByText("“Old Toolkit” and all its lessons").waitFor();
  await confirmation.getByText("students who bought it lose access to it").waitFor();
  await confirmation.getByRole("button", { name: "Delete" }).click();
  await page.getByText("The toolkit is deleted.").waitFor();
  assertEquals(await page.getByRole("row").filter({ hasText: "Old Toolkit" }).count(), 0);
});

Deno.test("without JavaScript an admin creates a coupon, saves a row's Active and deletes one after the confirmation", async () => {
  await using t = await createTestApp({ listen: true });
  const admin = await createTestUser(t, "admin");
  await using browser = await openBrowser();
  const context = await phoneContext(browser, { javaScriptEnabled: false });
  await signInBrowser(context, t.origin, admin);
  const page = await context.newPage();
  await page.goto(`${t.origin}/admin/coupons`);
  await page.getByLabel("Code", { exact: true }).fill("SAVE20");
  await page.getByLabel("Percent off").fill("120");
  await page.getByRole("button", { name: "Create coupon" }).click();
  await page.locator("#coupon-discountValue-error").waitFor();
  assertEquals(await page.getByLabel("Code", { exact: true }).inputValue(), "SAVE20", "the fields as sent");
  await assertAccessibleWithoutScript(page, "coupon form refused without JavaScript at 360 px");
  await page.getByLabel("Percent off").fill("20");
  await page.getByRole("button", { name: "Create coupon" }).click();
  await page.getByText("Coupon SAVE20 created.").waitFor();
  await page.getByLabel("Code", { exact: true }).fill("OLD10");
  await page.getByLabel("Percent off").fill("10");
  await page.getByRole("button", { name: "Create coupon" }).click();
  await page.getByText("Coupon OLD10 created.").waitFor();

  await page.getByRole("switch", { name: "Active: SAVE20" }).uncheck();
  await page.getByRole("button", { name: "Save SAVE20" }).click();
  await page.getByText("Coupon SAVE20 deactivated.").waitFor();
  await assertAccessibleWithoutScript(page, "admin coupons without JavaScript at 360 px");

  await page.getByRole("row").filter({ hasText: "OLD10" }).getByRole("button", { name: "Delete OLD10" }).click();
  const confirmation = page.getByRole("region", { name: "Delete this coupon?" });
  await confirmation.getByText("The coupon OLD10 will be removed").waitFor();
  await confirmation.getByRole("button", { name: "Delete" }).click();
  await page.getByText("The coupon is deleted.").waitFor();
  assertEquals((await listCoupons(t.kv)).map((c) => [c.code, c.isActive]), [["SAVE20", false]]);
});

Deno.test("without JavaScript an admin pages, searches, approves and rejects with a reason in /admin/opportunities", async () => {
  await using t = await createTestApp({ listen: true });
  const admin = await createTestUser(t, "admin", { name: "Boss Admin" });
  const student = await createTestUser(t, "user", { name: "Asha Rao" });
  const ada = await submitOpportunity(t, student, "Ada Sprint");
  const grace = await submitOpportunity(t, student, "Grace Sprint");
  for (let i = 1; i <= 20; i++) await submitOpportunity(t, student, `Filler Quiz ${i}`);
  await using browser = await openBrowser();
  const context = await phoneContext(browser, { javaScriptEnabled: false });
  await signInBrowser(context, t.origin, admin);
  const page = await context.newPage();
  await page.goto(`${t.origin}/admin/opportunities`);
  await page.getByText("1–20 of 22").waitFor();
  await page.getByRole("tab", { name: "Awaiting review (22)" }).waitFor();

  await page.getByRole("link", { name: "Next" }).click();
  await page.getByText("21–22 of 22").waitFor();
  assertEquals(new URL(page.url()).searchParams.get("offset"), "20");
  await page.getByRole("heading", { name: "Ada Sprint" }).waitFor();
  assertEquals(await page.getByRole("link", { name: "Next" }).count(), 0);
  await assertAccessibleWithoutScript(page, "admin opportunities, second page, without JavaScript at 360 px");
  await page.getByRole("link", { name: "Previous" }).click();
  await page.getByText("1–20 of 22").waitFor();

  await page.getByLabel("Search by title, organizer or place").fill("sprint");
  await page.getByRole("button", { name: "Search", exact: true }).click();
  await page.getByRole("heading", { name: "Grace Sprint" }).waitFor();
  const rows = page.getByRole("tabpanel").getByRole("listitem");
  assertEquals(await rows.count(), 2, "the two that match");
  assertEquals(await page.getByLabel("Search by title, organizer or place").inputValue(), "sprint");
  await page.getByRole("button", { name: "Approve Ada Sprint" }).click();
  await page.getByText("Ada Sprint approved and published.").waitFor();
  const url = new URL(page.url());
  assertEquals([url.searchParams.get("search"), url.searchParams.get("approved")], ["sprint", ada.id], "the view kept");
  const approved = await getOpportunity(t.kv, ada.id, admin.user);
  assertEquals([approved.isVerified, approved.isActive], [true, true]);
  assertEquals(await rows.count(), 1, "the approved one left the awaiting tab");

  await page.getByRole("button", { name: "Reject Grace Sprint" }).click();
  const reason = page.getByLabel("Reason for the submitter of Grace Sprint");
  await reason.fill("Add the organizer and a link to the official page.");
  await assertAccessibleWithoutScript(page, "admin opportunities, a reject reason without JavaScript at 360 px");
  await page.getByRole("button", { name: /^Reject\W+Grace Sprint$/ }).click();
  await page.getByText("Grace Sprint rejected.").waitFor();
  const rejected = await getOpportunity(t.kv, grace.id, admin.user);
  assertEquals([rejected.isActive, rejected.rejection?.reason], [
    false,
    "Add the organizer and a link to the official page.",
  ]);

  await page.getByRole("tab", { name: "Rejected (1)" }).click();
  await page.getByRole("heading", { name: "Grace Sprint" }).waitFor();
  assertEquals(new URL(page.url()).searchParams.get("status"), "rejected");
  await page.getByText("Reason given: Add the organizer and a link to the official page.").waitFor();
  await page.getByRole("tab", { name: "Published (1)" }).click();
  await page.getByRole("heading", { name: "Ada Sprint" }).waitFor();
  await assertAccessibleWithoutScript(page, "admin opportunities, published tab, without JavaScript at 360 px");
});

Deno.test("without JavaScript an admin searches and pages /admin/comments", async () => {
  await using t = await createTestApp({ listen: true });
  const admin = await createTestUser(t, "admin");
  const post = await createPost(t, admin, { title: "Exam tips" });
  const say = async (author: { user: User }, content: string) =>
    await createComment(t.kv, { postId: post.id, author: author.user, input: { content }, appUrl: t.origin });
  const asha = await createTestUser(t, "user", { name: "Asha Rao" });
  await say(asha, "Buy followers at spam.example");
  for (let i = 0; i < 6; i++) {
    const author = await createTestUser(t, "user", { name: `Filler ${i}` });
    for (let j = 0; j < 9; j++) await say(author, `Thanks, this helped ${i}-${j}`);
  }
  await using browser = await openBrowser();
  const context = await phoneContext(browser, { javaScriptEnabled: false });
  await signInBrowser(context, t.origin, admin);
  const page = await context.newPage();
  await page.goto(`${t.origin}/admin/comments`);
  await page.getByText("1–50 of 55").waitFor();

  // The list's own pages, as hydration leaves them (links until then).
  await page.getByRole("navigation", { name: "Pages of comments" }).getByRole("link", { name: "Next" }).click();
  await page.getByText("51–55 of 55").waitFor();
  assertEquals(new URL(page.url()).searchParams.get("offset"), "50");
  await page.getByRole("row").filter({ hasText: "Buy followers" }).waitFor();
  assertEquals(await page.getByRole("link", { name: "Next" }).count(), 0);
  await assertAccessibleWithoutScript(page, "admin comments, second page, without JavaScript at 360 px");
  // A row's Delete and its confirmation's Cancel keep the page the admin was on.
  await page.getByRole("link", { name: "Delete the comment by Asha Rao" }).click();
  const confirmation = page.getByRole("region", { name: "Delete this comment?" });
  await confirmation.getByRole("link", { name: "Cancel" }).click();
  await page.getByText("51–55 of 55").waitFor();
  assertEquals(new URL(page.url()).search, "?offset=50");
  await page.getByRole("link", { name: "Previous" }).click();
  await page.getByText("1–50 of 55").waitFor();

  await page.getByLabel("Search comments and authors").fill("followers");
  await page.getByRole("button", { name: "Search", exact: true }).click();
  await page.getByRole("row").filter({ hasText: "Buy followers" }).waitFor();
  assertEquals(new URL(page.url()).searchParams.get("search"), "followers");
  assertEquals(await page.getByLabel("Search comments and authors").inputValue(), "followers");
  assertEquals(await page.getByRole("row").filter({ hasText: "Thanks, this helped" }).count(), 0, "only the match");

  // Deleting from a search returns to that search, not to the whole list.
  await page.getByRole("link", { name: "Delete the comment by Asha Rao" }).click();
  await page.getByRole("button", { name: "Yes, delete", exact: true }).click();
  await page.getByText("The comment is deleted.").waitFor();
  assertEquals(new URL(page.url()).searchParams.get("search"), "followers");
  assertEquals(await page.getByLabel("Search comments and authors").inputValue(), "followers");
  assertEquals(await page.getByRole("row").filter({ hasText: "Thanks, this helped" }).count(), 0, "still the search");
});

Deno.test("without JavaScript an admin searches, picks a tab and pages /admin/outbox", async () => {
  const down = await startFakeSmtp();
  await down.close();
  await using t = await createTestApp({ listen: true, env: { SMTP_URL: down.url } });
  const admin = await createTestUser(t, "admin");
  const mail = { text: "Text", html: "<p>HTML</p>", link: "", userId: null };
  // Grace's mail is queued a minute before the others: mails queued in the same millisecond are listed by id, so one
  // queued just before the fillers could sort among them and land on the first page.
  const earlier = t.kv.atomic();
  queueMailOps(earlier, { ...mail, to: "grace@example.com", subject: "Your receipt" }, Date.now() - 60_000);
  await earlier.commit();
  for (let i = 0; i < 51; i++) {
    await queueMail(t.services, { ...mail, to: `filler${i}@example.com`, subject: "Digest" });
  }
  await t.settled();
  const { total } = (await listOutbox(t.kv, { limit: 50, offset: 0 })).pagination;
  await using browser = await openBrowser();
  const context = await phoneContext(browser, { javaScriptEnabled: false });
  await signInBrowser(context, t.origin, admin);
  const page = await context.newPage();
  await page.goto(`${t.origin}/admin/outbox`);
  await page.getByText(`1–50 of ${total}`).waitFor();

  // The list's own pages, as hydration leaves them (links until then).
  await page.getByRole("navigation", { name: "Pages of e-mails" }).getByRole("link", { name: "Next" }).click();
  await page.getByText(`51–${total} of ${total}`).waitFor();
  assertEquals(new URL(page.url()).searchParams.get("offset"), "50");
  await page.getByRole("row", { name: /grace@example\.com/ }).waitFor();
  await assertAccessibleWithoutScript(page, "admin outbox, second page, without JavaScript at 360 px");
  await page.getByRole("link", { name: "Previous" }).click();
  await page.getByText(`1–50 of ${total}`).waitFor();

  await page.getByRole("button", { name: /^Sent \(/ }).click();
  assertEquals(new URL(page.url()).searchParams.get("status"), "sent");
  assertEquals(await page.getByRole("button", { name: /^Sent \(/ }).getAttribute("aria-pressed"), "true");
  assertEquals(await page.getByRole("row", { name: /@example\.com/ }).count(), 0, "none sent");
  await page.getByRole("button", { name: /^Pending \(/ }).click();
  await page.getByLabel("Search by recipient").fill("grace");
  await page.getByRole("button", { name: "Search", exact: true }).click();
  await page.getByRole("row", { name: /grace@example\.com/ }).waitFor();
  const url = new URL(page.url());
  assertEquals([url.searchParams.get("status"), url.searchParams.get("search")], ["pending", "grace"], "the tab kept");
  assertEquals(await page.getByRole("row", { name: /filler/ }).count(), 0, "only the match");
  assertEquals(await page.getByLabel("Search by recipient").inputValue(), "grace");
});

Deno.test("without JavaScript an admin searches /admin/toolkits", async () => {
  await using t = await createTestApp({ listen: true });
  const admin = await createTestUser(t, "admin");
  await addToolkit({ t, admin }, { title: "Resume Toolkit" });
  await addToolkit({ t, admin }, { title: "Interview Toolkit" });
  await addToolkit({ t, admin }, { title: "Resume Templates" });
  await using browser = await openBrowser();
  const context = await phoneContext(browser, { javaScriptEnabled: false });
  await signInBrowser(context, t.origin, admin);
  const page = await context.newPage();
  await page.goto(`${t.origin}/admin/toolkits`);
  await page.getByRole("row").filter({ hasText: "Interview Toolkit" }).waitFor();
  await page.getByLabel("Search by title").fill("resume");
  await page.getByRole("button", { name: "Search", exact: true }).click();
  assertEquals(new URL(page.url()).searchParams.get("search"), "resume");
  await page.getByRole("row").filter({ hasText: "Resume Toolkit" }).waitFor();
  assertEquals(await page.getByRole("row").filter({ hasText: "Interview Toolkit" }).count(), 0, "only the match");
  assertEquals(await page.getByLabel("Search by title").inputValue(), "resume");
  await assertAccessibleWithoutScript(page, "admin toolkits searched without JavaScript at 360 px");

  // A row's Save and Delete return to the search, not to the whole list.
  const stillSearched = async () => {
    assertEquals(new URL(page.url()).searchParams.get("search"), "resume");
    assertEquals(await page.getByLabel("Search by title").inputValue(), "resume");
    assertEquals(await page.getByRole("row").filter({ hasText: "Interview Toolkit" }).count(), 0, "still the search");
  };
  await page.getByRole("button", { name: "Save Resume Templates" }).click();
  await page.getByText("“Resume Templates” saved.").waitFor();
  await stillSearched();
  await page.getByRole("link", { name: "Delete Resume Toolkit" }).click();
  await page.getByRole("region", { name: "Delete this toolkit?" }).getByRole("button", { name: "Delete" }).click();
  await page.getByText("The toolkit is deleted.").waitFor();
  await stillSearched();
  await page.getByRole("row").filter({ hasText: "Resume Templates" }).waitFor();
});

Deno.test("without JavaScript an admin searches /admin/ungatekeep and picks a tag", async () => {
  await using t = await createTestApp({ listen: true });
  const admin = await createTestUser(t, "admin");
  await createPost(t, admin, { title: "Exam tips", tag: "resources" });
  await createPost(t, admin, { title: "Exam results are out", tag: "announcement" });
  await createPost(t, admin, { title: "Old news", tag: "announcement" });
  await createPost(t, admin, { title: "Exam dates announced", tag: "announcement" });
  await using browser = await openBrowser();
  const context = await phoneContext(browser, { javaScriptEnabled: false });
  await signInBrowser(context, t.origin, admin);
  const page = await context.newPage();
  await page.goto(`${t.origin}/admin/ungatekeep`);
  await page.getByRole("row").filter({ hasText: "Old news" }).waitFor();
  await page.getByLabel("Search titles and the start of each post").fill("exam");
  await page.getByLabel("Tag", { exact: true }).selectOption("announcement");
  await page.getByRole("button", { name: "Search", exact: true }).click();
  const url = new URL(page.url());
  assertEquals([url.searchParams.get("search"), url.searchParams.get("tag")], ["exam", "announcement"]);
  await page.getByRole("row").filter({ hasText: "Exam results are out" }).waitFor();
  assertEquals(await page.getByRole("row").filter({ hasText: /Exam tips|Old news/ }).count(), 0, "only the match");
  assertEquals(await page.getByLabel("Tag", { exact: true }).inputValue(), "announcement");
  assertEquals(await page.getByLabel("Search titles and the start of each post").inputValue(), "exam");
  await assertAccessibleWithoutScript(page, "admin posts searched without JavaScript at 360 px");

  // A row's Save and Delete return to the search and tag, not to the whole list.
  const stillSearched = async () => {
    const url = new URL(page.url());
    assertEquals([url.searchParams.get("search"), url.searchParams.get("tag")], ["exam", "announcement"]);
    assertEquals(await page.getByLabel("Tag", { exact: true }).inputValue(), "announcement");
    assertEquals(await page.getByRole("row").filter({ hasText: /Exam tips|Old news/ }).count(), 0, "still the search");
  };
  await page.getByRole("button", { name: "Save Exam dates announced" }).click();
  await page.getByText("“Exam dates announced” saved").waitFor();
  await stillSearched();
  await page.getByRole("link", { name: "Delete Exam results are out" }).click();
  await page.getByRole("region", { name: "Delete this post?" }).getByRole("button", { name: "Delete" }).click();
  await page.getByText("The post is deleted.").waitFor();
  await stillSearched();
  await page.getByRole("row").filter({ hasText: "Exam dates announced" }).waitFor();
});

Deno.test("without JavaScript an admin searches /admin/coupons; a row's Save and Delete keep the search", async () => {
  await using t = await createTestApp({ listen: true });
  const admin = await createTestUser(t, "admin");
  for (const code of ["SAVE20", "SAVE50", "DIWALI10"]) {
    const res = await t.json("POST", "/api/admin/coupons", {
      body: { code, discountType: "percentage", discountValue: 10 },
      headers: admin.headers,
    });
    assertEquals(res.status, 201);
    await res.body?.cancel();
  }
  await using browser = await openBrowser();
  const context = await phoneContext(browser, { javaScriptEnabled: false });
  await signInBrowser(context, t.origin, admin);
  const page = await context.newPage();
  await page.goto(`${t.origin}/admin/coupons`);
  await page.getByRole("row").filter({ hasText: "DIWALI10" }).waitFor();
  await page.getByLabel("Search by code").fill("save");
  await page.getByRole("button", { name: "Search", exact: true }).click();
  assertEquals(new URL(page.url()).searchParams.get("search"), "save");
  await page.getByRole("row").filter({ hasText: "SAVE20" }).waitFor();
  assertEquals(await page.getByRole("row").filter({ hasText: "DIWALI10" }).count(), 0, "only the match");
  assertEquals(await page.getByLabel("Search by code").inputValue(), "save");
  await assertAccessibleWithoutScript(page, "admin coupons searched without JavaScript at 360 px");

  // A row's Save and Delete (its confirmation's Cancel too) return to the search, not to the whole list.
  const stillSearched = async () => {
    assertEquals(new URL(page.url()).searchParams.get("search"), "save");
    assertEquals(await page.getByLabel("Search by code").inputValue(), "save");
    assertEquals(await page.getByRole("row").filter({ hasText: "DIWALI10" }).count(), 0, "still the search");
  };
  await page.getByRole("switch", { name: "Active: SAVE20" }).uncheck();
  await page.getByRole("button", { name: "Save SAVE20" }).click();
  await page.getByText("Coupon SAVE20 deactivated.").waitFor();
  await stillSearched();
  await page.getByRole("button", { name: "Delete SAVE50" }).click();
  const confirmation = page.getByRole("region", { name: "Delete this coupon?" });
  await confirmation.getByRole("link", { name: "Cancel" }).click();
  await confirmation.waitFor({ state: "detached" });
  await stillSearched();
  await page.getByRole("button", { name: "Delete SAVE50" }).click();
  await assertAccessibleWithoutScript(page, "a coupon's delete confirmation from a search at 360 px");
  await confirmation.getByRole("button", { name: "Delete" }).click();
  await page.getByText("The coupon is deleted.").waitFor();
  await stillSearched();
  await page.getByRole("row").filter({ hasText: "SAVE20" }).waitFor();
  assertEquals((await listCoupons(t.kv)).map((c) => c.code).sort(), ["DIWALI10", "SAVE20"]);
});
