import { hiddenFields, htmlDocument, page, scriptsOf } from "@/tests/fixtures/html.ts";
import { adminLogQuerySchema, listAdminLog } from "@/lib/admin_log/admin_log.ts";
import { assert, assertEquals, assertMatch } from "@/tests/helpers/assert.ts";
import { createTestUser, postForm } from "@/tests/helpers/app.ts";
import { getToolkitRecord } from "@/lib/toolkits/catalog.ts";
import { signedPayment } from "@/tests/fakes/razorpay.ts";
import { addCoupon, addLesson, addToolkit, buy, checkout, openShop } from "@/tests/fixtures/toolkits.ts";

Deno.test("/toolkits: an empty state without toolkits; cards with price, struck original price, Sale badge and lesson count", async () => {
  await using shop = await openShop();
  const empty = await (await shop.t.fetch("/toolkits")).text();
  assert(empty.includes("No toolkits yet"));
  const kit = await addToolkit(shop, {
    title: "Salary Negotiation",
    price: 499,
    originalPrice: 999,
    showSaleBadge: true,
    totalDuration: "2 hours",
  });
  await addLesson(shop, kit.id);
  await addToolkit(shop, { title: "Hidden Draft", isActive: false });
  const res = await shop.t.fetch("/toolkits");
  assertEquals(res.status, 200);
  const html = await res.text();
  for (const text of ["Salary Negotiation", "₹499", "<s", "₹999", "Sale", "1 lesson · 2 hours"]) {
    assert(html.includes(text), text);
  }
  assert(!html.includes("Hidden Draft"));
  assertEquals(scriptsOf(html), [], "the marketplace ships no JavaScript but the service worker's registration");
});

Deno.test("toolkit page: locked lesson bodies never reach the HTML; Checkout.js hosts are allowed by this page's CSP only", async () => {
  await using shop = await openShop();
  const kit = await addToolkit(shop);
  await addLesson(shop, kit.id, { title: "Open lesson", content: "<p>Preview words</p>", isPreview: true });
  await addLesson(shop, kit.id, { title: "Closed lesson", content: "<p>Paid secret words</p>" });
  await addLesson(shop, kit.id, {
    title: "Closed video",
    type: "video",
    cdnVideoUrl: "https://cdn.example.com/paid.mp4",
  });
  const user = await createTestUser(shop.t);
  for (const headers of [undefined, user.headers]) {
    const res = await shop.t.fetch(`/toolkits/${kit.id}`, { headers });
    assertEquals(res.status, 200);
    const csp = res.headers.get("content-security-policy") ?? "";
    assertMatch(csp, /script-src 'self' https:\/\/checkout\.razorpay\.com(;|$)/);
    assertMatch(csp, /frame-src [^;]*https:\/\/api\.razorpay\.com/);
    const html = await res.text();
    assert(html.includes("Closed lesson"));
    assert(!html.includes("Paid secret words") && !html.includes("paid.mp4"));
  }
  const other = await shop.t.fetch("/toolkits");
  assert(!(other.headers.get("content-security-policy") ?? "").includes("razorpay"));
  assertEquals(other.headers.get("x-frame-options"), "SAMEORIGIN");
});

Deno.test("lesson viewer: a preview lesson is open; a locked one sends non-buyers to the toolkit page and guests to sign in; buyers read it", async () => {
  await using shop = await openShop();
  const kit = await addToolkit(shop);
  const preview = await addLesson(shop, kit.id, { title: "Open", content: "<p>Preview words</p>", isPreview: true });
  const locked = await addLesson(shop, kit.id, { title: "Closed", content: "<p>Paid secret words</p>" });
  const user = await createTestUser(shop.t);
  const open = await shop.t.fetch(`/toolkits/${kit.id}/learn/${preview.id}`);
  assertEquals(open.status, 200);
  assert((await open.text()).includes("Preview words"));
  const guest = await shop.t.fetch(`/toolkits/${kit.id}/learn/${locked.id}`);
  assertEquals(guest.status, 302);
  assertMatch(guest.headers.get("location") ?? "", /^\/sign-in\?callbackURL=/);
  const stranger = await shop.t.fetch(`/toolkits/${kit.id}/learn/${locked.id}`, { headers: user.headers });
  assertEquals([stranger.status, stranger.headers.get("location")], [302, `/toolkits/${kit.id}`]);
  const started = await checkout(shop, user, kit.id);
  await shop.t.json("POST", `/api/toolkits/${kit.id}/verify`, {
    body: signedPayment(started.body.order.id),
    headers: user.headers,
  });
  const resume = await shop.t.fetch(`/toolkits/${kit.id}/learn`, { headers: user.headers });
  assertEquals(resume.headers.get("location"), `/toolkits/${kit.id}/learn/${preview.id}`);
  // The checkout's way in once paid: the first lesson says the payment went through and where the receipt is.
  const paid = await shop.t.fetch(`/toolkits/${kit.id}/learn?paid=1`, { headers: user.headers });
  assertEquals(paid.headers.get("location"), `/toolkits/${kit.id}/learn/${preview.id}?paid=1`);
  const welcome = await (await shop.t.fetch(paid.headers.get("location")!, { headers: user.headers })).text();
  assert(welcome.includes("Payment received") && welcome.includes('<a href="/toolkits/mine"'), "paid notice");
  assert(
    !(await (await shop.t.fetch(`/toolkits/${kit.id}/learn/${preview.id}?paid=1`)).text()).includes(
      "Payment received",
    ),
    "not for a guest reading the preview",
  );
  const hindiWelcome = await (await shop.t.fetch(`/toolkits/${kit.id}/learn/${preview.id}?paid=1&lang=hi`, {
    headers: user.headers,
  })).text();
  assert(hindiWelcome.includes("पेमेंट मिल गया") && hindiWelcome.includes(">मेरे टूलकिट</a>"), "paid notice in Hindi");
  await shop.t.json(
    "POST",
    `/api/toolkits/${kit.id}/progress`,
    { body: { contentItemId: preview.id, completed: true }, headers: user.headers },
  );
  const resumed = await shop.t.fetch(`/toolkits/${kit.id}/learn`, { headers: user.headers });
  assertEquals(resumed.headers.get("location"), `/toolkits/${kit.id}/learn/${locked.id}`);
  const read = await shop.t.fetch(`/toolkits/${kit.id}/learn/${locked.id}`, { headers: user.headers });
  assertEquals(read.status, 200);
  assert((await read.text()).includes("Paid secret words"));
  const mine = await (await shop.t.fetch("/toolkits/mine", { headers: user.headers })).text();
  assert(mine.includes("1 of 2 lessons complete"));
  assert(mine.includes('<a href="/toolkits/mine" aria-current="page"'), "My toolkits is in the account menu");
  assert(mine.includes("Payment history") && mine.includes("₹499") && mine.includes("Paid"));
  const hindi = await (await shop.t.fetch("/toolkits/mine?lang=hi", { headers: user.headers })).text();
  for (const words of ["मेरे टूलकिट", "2 में से 1 लेसन पूरा", "पेमेंट की हिस्ट्री", "₹499", "पेमेंट हो गया", "आगे पढ़ें"]) {
    assert(hindi.includes(words), words);
  }
  assertEquals((await shop.t.fetch(`/toolkits/${kit.id}/learn/nope`, { headers: user.headers })).status, 404);
});

Deno.test("toolkit and lesson pages in Hindi: syllabus, checkout, the no-JavaScript buy form, preview offer and progress", async () => {
  await using shop = await openShop();
  const kit = await addToolkit(shop, { title: "Salary Negotiation", price: 1499 });
  const preview = await addLesson(shop, kit.id, { title: "Open", content: "<p>Preview words</p>", isPreview: true });
  await addLesson(shop, kit.id, { title: "Closed", content: "<p>Paid secret words</p>" });
  const buyer = await createTestUser(shop.t);
  const hindi = { ...buyer.headers, cookie: `${buyer.headers.cookie}; lang=hi` };
  const page = async (path: string, headers?: Record<string, string>) => {
    const res = await shop.t.fetch(path, { headers });
    assertEquals(res.status, 200, path);
    return await res.text();
  };
  const has = (html: string, words: string[], where: string) => {
    for (const text of words) assert(html.includes(text), `${where}: ${text}`);
  };

  has(await page(`/toolkits/${kit.id}?lang=hi`), [
    "सिलेबस",
    "मुफ़्त प्रीव्यू",
    "लॉक है",
    "यह टूलकिट लें",
    "ख़रीदने के लिए साइन इन करें",
    "लेख",
  ], "guest");
  has(await page(`/toolkits/${kit.id}/learn/${preview.id}?lang=hi`), [
    "2 में से लेसन 1",
    "यह Salary Negotiation का मुफ़्त प्रीव्यू था",
    "इसके सभी 2 लेसन ₹1,499 में पाएँ",
    "टूलकिट लें",
  ], "preview lesson");

  const config = shop.t.services.config;
  config.seller = { ...config.seller, state: "Karnataka", gstin: "29ABCDE1234F1Z5" };
  has(await page(`/toolkits/${kit.id}`, hindi), [
    "कूपन कोड (ज़रूरी नहीं)",
    "आपका राज्य (GST वाली रसीद के लिए)",
    "चुनें…",
    "₹1,499 में ख़रीदें",
    "पेमेंट Razorpay के ज़रिए सुरक्षित तरीक़े से होता है।",
  ], "checkout");
  const post = (fields: Record<string, string>) =>
    shop.t.fetch(`/toolkits/${kit.id}`, { method: "POST", body: new URLSearchParams(fields), headers: hindi });
  const missing = await post({});
  assertEquals(missing.status, 400);
  has(await missing.text(), ["अपना राज्य या केंद्र शासित प्रदेश चुनें।"], "state missing");
  const refused = await post({ apply: "1", couponCode: "NOPE" });
  assertEquals(refused.status, 400);
  const refusedPage = await refused.text();
  // A refused Apply is said at the coupon field, the code kept as typed; nothing was being bought.
  const field = htmlDocument(refusedPage).querySelector("#coupon-code");
  assertEquals(field?.getAttribute("value"), "NOPE", "the code as typed");
  assertEquals(field?.getAttribute("aria-invalid"), "true");
  has(refusedPage, ['<p id="coupon-code-error"', "यह कूपन कोड मौजूद नहीं है।"], "coupon refused");
  assert(!refusedPage.includes("ख़रीदा नहीं गया"), "no 'Not bought' after Apply");
  assert(!refusedPage.includes("Invalid coupon code"), "the refusal in Hindi, not the API's English");
  // A coupon applied without JavaScript shows in the price; the page does not tell of a Buy nobody pressed.
  await addCoupon(shop, { code: "HALF50", discountValue: 50 });
  const applied = await post({ apply: "1", couponCode: "HALF50" });
  assertEquals(applied.status, 200);
  const appliedPage = await applied.text();
  has(appliedPage, ["कूपन HALF50", "₹749.50 में ख़रीदें"], "coupon applied");
  assert(!appliedPage.includes("बस एक कदम बाकी"), "no 'press Buy again' after Apply");
  const made = await post({ buyerState: "Kerala" });
  assertEquals(made.status, 200);
  has(await made.text(), ["बस एक कदम बाकी", "पेमेंट के लिए Razorpay की पेमेंट विंडो खुलती है"], "order made");

  await buy(shop, buyer, kit.id);
  has(await page(`/toolkits/${kit.id}`, hindi), ["यह टूलकिट आपका है", "सीखना शुरू करें"], "owner");
  has(await page(`/toolkits/${kit.id}/learn/${preview.id}`, hindi), [
    "2 में से कोई लेसन पूरा नहीं (0 %)",
    "पूरा हुआ मार्क करें",
  ], "lesson");
});

Deno.test("admin toolkit pages: admins only; the editor of an unknown toolkit is 404", async () => {
  await using shop = await openShop();
  const kit = await addToolkit(shop);
  const user = await createTestUser(shop.t);
  for (const path of ["/admin/toolkits", "/admin/toolkits/new", `/admin/toolkits/${kit.id}`, "/admin/coupons"]) {
    assertEquals((await shop.t.fetch(path, { headers: shop.admin.headers })).status, 200, path);
    assertEquals((await shop.t.fetch(path, { headers: user.headers })).status, 403, path);
  }
  assertEquals(
    (await shop.t.fetch(`/admin/toolkits/${crypto.randomUUID()}`, { headers: shop.admin.headers })).status,
    404,
  );
});

Deno.test("a new toolkit's editor says it was created and, while inactive, that students cannot see it yet", async () => {
  await using shop = await openShop();
  const kit = await addToolkit(shop, { isActive: false, title: "Draft Kit" });
  const editor = async (query: string) =>
    await (await shop.t.fetch(`/admin/toolkits/${kit.id}${query}`, { headers: shop.admin.headers })).text();
  const created = await editor("?created=1");
  assert(created.includes("“Draft Kit” is created. Add its lessons below."), "the created notice");
  const shown = />Students can(&#39;|')t see this toolkit yet</;
  assert(shown.test(created), "the inactive notice is rendered, not only among the island's words");
  const hindi = await editor("?created=1&lang=hi");
  assert(hindi.includes("“Draft Kit” बन गया। नीचे इसके लेसन जोड़ें।") && hindi.includes("छात्र अभी यह टूलकिट नहीं देख सकते"));
  assert(!(await editor("")).includes("is created."), "only where creating it leads");
  const active = await addToolkit(shop, { title: "Live Kit" });
  const live = await (await shop.t.fetch(`/admin/toolkits/${active.id}`, { headers: shop.admin.headers })).text();
  assert(!shown.test(live), "an active toolkit says nothing of the kind");
});

Deno.test("the lesson form states a round limit, and the preview switch reads as one pair, in both languages", async () => {
  await using shop = await openShop();
  const kit = await addToolkit(shop);
  await addLesson(shop, kit.id, { title: "Free one", content: "<p>Hi</p>", isPreview: true });
  await addLesson(shop, kit.id, { title: "Paid one", content: "<p>Hi</p>" });
  const editor = async (lang: string) =>
    await (await shop.t.fetch(`/admin/toolkits/${kit.id}?lang=${lang}`, { headers: shop.admin.headers })).text();
  const [en, hi] = [await editor("en"), await editor("hi")];
  assert(en.includes("At most 30,000 characters."), "a round limit");
  assert(hi.includes("ज़्यादा से ज़्यादा 30,000 अक्षर।"), "a round limit in Hindi");
  assert(/>Remove preview</.test(en) && />Make preview</.test(en), "one verb pair in English");
  assert(/>प्रीव्यू हटाएँ</.test(hi) && />प्रीव्यू बनाएँ</.test(hi), "and in Hindi");
});

Deno.test("/admin/toolkits: a row form drawn before another admin's change saves and logs only its own switch", async () => {
  await using shop = await openShop({ payments: false });
  const { t, admin } = shop;
  const other = await createTestUser(t, "admin");
  const kit = await addToolkit(shop, { title: "Resume Toolkit" });
  const drawn = hiddenFields((await page(t, "/admin/toolkits", admin)).html);
  assertEquals([drawn.was_isActive, drawn.was_showSaleBadge], ["true", "false"], "the row as drawn");
  const badge = await t.json("PUT", `/api/admin/toolkits/${kit.id}`, {
    body: { showSaleBadge: true },
    headers: other.headers,
  });
  assertEquals(badge.status, 200);
  await badge.body?.cancel();
  const logged = async () =>
    (await listAdminLog(t.kv, adminLogQuerySchema.parse({ action: "toolkit.update" }))).entries
      .filter((entry) => entry.adminId === admin.user.id).map((entry) => entry.summary);
  const earlier = await logged();
  assert(earlier.length > 0, "the toolkit's set-up is logged before");
  const row = { intent: "update", id: kit.id, was_isActive: "true", was_showSaleBadge: "false" };
  const saved = await postForm(t, admin, "/admin/toolkits", row);
  assertEquals([saved.status, saved.headers.get("location")], [303, `/admin/toolkits?saved=${kit.id}`]);
  const record = await getToolkitRecord(t.kv, kit.id);
  assertEquals([record?.isActive, record?.showSaleBadge], [false, true], "the other admin's badge stays");
  const unchanged = await postForm(t, admin, "/admin/toolkits", { ...row, was_isActive: "false" });
  assertEquals(unchanged.status, 303, "nothing changed: back, with no write");
  const mine = (await logged()).slice(0, -earlier.length);
  assertEquals(mine, ["Resume Toolkit: isActive: false"], "the log says what this admin changed, once");
  assertEquals((await getToolkitRecord(t.kv, kit.id))?.showSaleBadge, true);
});

Deno.test("/admin/toolkits renders its rows and takes a row's switches and delete as plain forms; a refusal in the page's words", async () => {
  await using shop = await openShop({ payments: false });
  const { t, admin } = shop;
  const kit = await addToolkit(shop, { title: "Resume Toolkit" });
  const first = await (await t.fetch("/admin/toolkits", { headers: admin.headers })).text();
  assert(first.includes("Resume Toolkit") && first.includes('form="toolkit-'), "the rows before any script");
  const saved = await postForm(t, admin, "/admin/toolkits", { intent: "update", id: kit.id, showSaleBadge: "true" });
  assertEquals([saved.status, saved.headers.get("location")], [303, `/admin/toolkits?saved=${kit.id}`]);
  const record = await getToolkitRecord(t.kv, kit.id);
  assertEquals([record?.isActive, record?.showSaleBadge], [false, true], "an unticked switch is off");
  const hindi = await (await t.fetch(`/admin/toolkits?saved=${kit.id}&lang=hi`, { headers: admin.headers })).text();
  assert(hindi.includes("“Resume Toolkit” सेव हो गया।"));
  const deleted = await postForm(t, admin, "/admin/toolkits", { intent: "delete", id: kit.id });
  assertEquals([deleted.status, deleted.headers.get("location")], [303, "/admin/toolkits?deleted=1"]);
  const gone = await postForm(t, admin, "/admin/toolkits", { intent: "update", id: kit.id }, {
    "accept-language": "hi-IN,hi;q=0.9",
  });
  assertEquals(gone.status, 404);
  assert((await gone.text()).includes("बदलाव सेव नहीं हुआ"), "the refusal's title in Hindi");
  const bad = await postForm(t, admin, "/admin/toolkits", { intent: "archive", id: kit.id });
  assertEquals(bad.status, 400);
  await bad.body?.cancel();
});
