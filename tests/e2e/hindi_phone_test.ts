/**
 * The platform in Hindi on a 360 px phone (docs/decisions.md, Languages): a guest switches to Hindi from the phone
 * menu and stays on the page; the main pages then show no English of the platform's own in their main content, their
 * Devanagari is drawn with Debian's Noto Sans Devanagari, nothing runs off the screen, and axe finds nothing serious.
 * Pages whose words are still being moved to the catalogues are not walked here yet. An admin reads every admin page
 * in Hindi over the demo data, its tables stacked on the phone: the admin menu in Hindi, nothing off the screen, axe
 * clean. A student who chose Hindi reads an internship's and an opportunity's page, the Ungatekeep feed and a post with
 * its discussion, their tracker, the report form, their notifications and their settings the same way, and submits an
 * opportunity (its field errors in Hindi), reads their submissions and the edit form, and manages their alerts; buys a
 * toolkit with a coupon (the checkout asking their state), marks a lesson complete and reads the Ungatekeep banners. A
 * member who chose Hindi posts an internship (its form and its field errors in Hindi), edits it, and finds its card
 * (verified by an admin) in Hindi on their list and on `/internships`, also once the filter island has loaded the
 * results again.
 */
import type { Page } from "playwright-core";
import { assert, assertEquals } from "@/tests/helpers/assert.ts";
import { createTestApp, createTestUser, type TestApp } from "@/tests/helpers/app.ts";
import {
  assertAccessible,
  fetchesDrawn,
  hydrated,
  openBrowser,
  openHydrated,
  seriousA11yViolations,
  signInBrowser,
  trackFetches,
} from "@/tests/helpers/browser.ts";
import { layoutDefects, PHONE, phoneContext } from "@/tests/helpers/phone.ts";
import { seedDemoData } from "@/lib/demo/seed.ts";
import { createSession } from "@/lib/auth/sessions.ts";
import { getUserByEmail } from "@/lib/users/users.ts";
import type { PurchaseRecord } from "@/lib/purchases/purchases.ts";
import { postInternship } from "@/tests/fixtures/internships.ts";
import { submitOpportunity } from "@/tests/fixtures/opportunities.ts";
import { createPost } from "@/tests/fixtures/posts.ts";
import { addCoupon, addToolkitWithLessons } from "@/tests/fixtures/toolkits.ts";
import { startFakeRazorpay } from "@/tests/fakes/razorpay.ts";

/** The pages walked, in Hindi. */
const PAGES = [
  "/",
  "/internships",
  "/opportunities",
  "/toolkits",
  "/sign-in",
  "/sign-up",
  "/forgot-password",
  "/check-inbox",
];

/**
 * Latin-letter words a Hindi page keeps on purpose: names (a file format, English named in itself in the language
 * choice), what the page quotes as an example (an e-mail address, tags as listings write them), and a time's zone
 * ("सुबह 10:30 IST"; never "am" or "pm").
 */
const KEPT = new Set([
  "Career",
  "Community",
  "Ungatekeep",
  "Google",
  "LinkedIn",
  "RSS",
  "JSON",
  "English",
  "name",
  "example",
  "com",
  "react",
  "design",
  "careers",
  "intern",
  "https",
  "http",
  "marketing",
  "UG",
  "PG",
  "AI",
  "IST",
]);

/** The Latin-letter words of the page's main content that are neither kept on purpose nor among `also`. */
async function englishIn(page: Page, also: readonly string[] = []): Promise<string[]> {
  const text = await page.locator("main").innerText();
  return (text.match(/[A-Za-z]{2,}/g) ?? []).filter((word) => !KEPT.has(word) && !also.includes(word));
}

/** The fonts Chromium drew the text of `selector`'s first match with. */
async function fontsOf(page: Page, selector: string): Promise<string[]> {
  const cdp = await page.context().newCDPSession(page);
  const { root } = await cdp.send("DOM.getDocument", { depth: 0 });
  const { nodeId } = await cdp.send("DOM.querySelector", { nodeId: root.nodeId, selector });
  await cdp.send("CSS.enable");
  const { fonts } = await cdp.send("CSS.getPlatformFontsForNode", { nodeId });
  await cdp.detach();
  return fonts.map((font: { familyName: string }) => font.familyName);
}

Deno.test("a guest on a phone switches to Hindi and reads the main pages in Hindi, drawn in Noto", async () => {
  await using t = await createTestApp({ listen: true });
  await using browser = await openBrowser();
  const context = await phoneContext(browser);
  const page = await context.newPage();

  await openHydrated(page, `${t.origin}/opportunities?type=hackathon`);
  assertEquals(await page.locator("html").getAttribute("lang"), "en");
  await page.getByText("Menu", { exact: true }).click();
  await page.getByRole("button", { name: "Language: हिन्दी" }).click();
  await page.waitForURL(/lang=hi/);
  const url = new URL(page.url());
  assertEquals([url.pathname, url.searchParams.get("type")], ["/opportunities", "hackathon"], "the page and its query");
  assertEquals(await page.locator("html").getAttribute("lang"), "hi");

  for (const path of PAGES) {
    await page.goto(`${t.origin}${path}`);
    assertEquals(await page.locator("html").getAttribute("lang"), "hi", `${path} stays in Hindi by the cookie`);
    assertEquals(await englishIn(page), [], `${path}: English in the main content`);
    const fonts = await fontsOf(page, "main h1");
    assert(fonts.includes("Noto Sans Devanagari"), `${path}: the heading is drawn in ${fonts.join(", ")}`);
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    assert(width <= PHONE.width, `${path} is ${width} px wide`);
    await assertAccessible(page, `${path} in Hindi`);
  }
});

/** An admin API answer's JSON, read with `cookie`. */
async function adminJson(t: TestApp, path: string, cookie: string) {
  const res = await t.fetch(path, { headers: { cookie } });
  assertEquals(res.status, 200, path);
  return await res.json();
}

Deno.test("an admin on a phone reads every admin page in Hindi, its tables stacked, nothing off the screen", async () => {
  await using t = await createTestApp({ listen: true });
  await seedDemoData(t.kv);
  const admin = await getUserByEmail(t.kv, "admin@demo.careers");
  const cookie = `session=${(await createSession(t.kv, admin!.id)).token}`;
  const [toolkit] = (await adminJson(t, "/api/admin/toolkits", cookie)).toolkits;
  const [post] = (await adminJson(t, "/api/admin/ungatekeep", cookie)).posts;
  const [organization] = (await adminJson(t, "/api/admin/organizations", cookie)).organizations;
  const [reported] = (await adminJson(t, "/api/admin/reports", cookie)).targets;
  // The newest paid purchase was paid again twice: the list says why each payment is owed back, one refunded; ₹50 of
  // it was refunded at the gateway.
  const [paid] = (await adminJson(t, "/api/admin/purchases?status=paid", cookie)).purchases;
  const stored = await t.kv.get<PurchaseRecord>(["purchases", paid.id]);
  const refund = { id: "rfnd_e2e", paymentId: "pay_e2e_1", amount: 29900, reason: null, by: admin!.id };
  const extraPayments: PurchaseRecord["extraPayments"] = [
    { orderId: "order_e2e_1", paymentId: "pay_e2e_1", amount: 29900, at: paid.createdAt, reason: "already paid" },
    { orderId: "order_e2e_2", paymentId: "pay_e2e_2", amount: 29900, at: paid.createdAt, reason: "coupon unavailable" },
  ];
  extraPayments[0].refund = { ...refund, at: paid.createdAt, status: "pending", processedAt: null };
  const gatewayPartialRefunds = [{ id: "rfnd_e2e_part", paymentId: paid.paymentId, amount: 5000, at: paid.createdAt }];
  const changed = { ...stored.value!, extraPayments, gatewayPartialRefunds };
  assert((await t.kv.atomic().check(stored).set(stored.key, changed).commit()).ok);
  const paths = [
    "/admin",
    "/admin/users",
    "/admin/internships",
    "/admin/opportunities",
    "/admin/moderation",
    "/admin/organizations",
    `/admin/organizations/${organization.id}`,
    "/admin/reports",
    `/admin/reports/${reported.kind}/${reported.targetId}`,
    "/admin/toolkits",
    "/admin/toolkits/new",
    `/admin/toolkits/${toolkit.id}`,
    "/admin/coupons",
    "/admin/purchases",
    "/admin/ungatekeep",
    "/admin/ungatekeep/new",
    `/admin/ungatekeep/${post.id}`,
    "/admin/comments",
    "/admin/banners",
    "/admin/api-keys",
    "/admin/outbox",
    "/admin/jobs",
    "/admin/log",
  ];

  await using browser = await openBrowser();
  const context = await phoneContext(browser);
  await trackFetches(context);
  await signInBrowser(context, t.origin, { cookie });
  const page = await context.newPage();
  await page.goto(`${t.origin}/admin?lang=hi`);
  const found: string[] = [];
  for (const path of paths) {
    await openHydrated(page, `${t.origin}${path}`);
    await fetchesDrawn(page);
    if (await page.locator("html").getAttribute("lang") !== "hi") found.push(`${path}: not in Hindi`);
    if (!await page.getByText("एडमिन मेन्यू").isVisible()) found.push(`${path}: the admin menu is not in Hindi`);
    if (path === "/admin/users") {
      // A row's suspend form, open: its reason and the ticked "also hide their open listings" fit the screen too.
      await page.getByText("सस्पेंड करें…").first().click();
      const hide = page.getByLabel("उनकी खुली लिस्टिंग भी छिपाएँ").first();
      if (!await hide.isVisible() || !await hide.isChecked()) found.push(`${path}: no ticked box to hide listings`);
    }
    if (path === "/admin/purchases" && !await page.getByText(/वापस देना है: दो बार पेमेंट हुआ/).isVisible()) {
      found.push(`${path}: no reason for the payment owed back`);
    }
    if (path === "/admin/purchases" && !await page.getByText("कुछ रिफ़ंड हुआ: ₹50").isVisible()) {
      found.push(`${path}: the partial refund at the gateway is not flagged`);
    }
    found.push(...(await layoutDefects(page)).map((line) => `${path}: ${line}`));
    found.push(...(await seriousA11yViolations(page)).map((line) => `${path}: ${line}`));
  }
  assertEquals(found, [], "admin pages in Hindi on a phone");
});

/**
 * The page reads in Hindi: no English of the platform's own (`also`: Latin words this page shows on purpose), a
 * Devanagari heading in Noto, nothing off a 360 px screen, axe.
 */
async function assertHindiPage(page: Page, path: string, also: readonly string[] = []): Promise<void> {
  assertEquals(await englishIn(page, also), [], `${path}: English in the main content`);
  // A heading that is a name ("Ungatekeep") is in Latin letters; every other is drawn in Noto's Devanagari.
  if (/[\u0900-\u097F]/.test(await page.locator("main h1").innerText())) {
    const fonts = await fontsOf(page, "main h1");
    assert(fonts.includes("Noto Sans Devanagari"), `${path}: the heading is drawn in ${fonts.join(", ")}`);
  }
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  assert(width <= PHONE.width, `${path} is ${width} px wide`);
  // The footer's lines keep a margin from both edges of the screen.
  const footer = await page.locator("footer > p").last().evaluate((line) => {
    const range = document.createRange();
    range.selectNodeContents(line);
    const box = range.getBoundingClientRect();
    return { left: box.left, right: box.right };
  });
  assert(footer.left >= 12 && footer.right <= PHONE.width - 12, `${path}: the footer runs ${JSON.stringify(footer)}`);
  await assertAccessible(page, `${path} in Hindi`);
}

Deno.test("a student who chose Hindi reads listings, Ungatekeep, their tracker, a report form, their notifications and settings in Hindi on a phone", async () => {
  await using t = await createTestApp({ listen: true });
  const admin = await createTestUser(t, "admin", { name: "प्रिया शर्मा" });
  const member = await createTestUser(t, "member", { name: "अमित वर्मा" });
  const student = await createTestUser(t, "user", { name: "कविता अय्यर" });
  const internship = await postInternship(t, member, {
    title: "डेटा विश्लेषण इंटर्न",
    hiringOrganization: "नवाचार लैब्स",
    location: "पुणे",
    stipend: 15000,
    deadline: "2099-03-31",
    description: "डेटा साफ़ करना और रिपोर्ट बनाना।",
  });
  const opportunity = await submitOpportunity(t, admin, {
    title: "कैंपस हैकाथॉन",
    organizer: "छात्र परिषद",
    location: "दिल्ली",
    description: "दो दिन का हैकाथॉन।",
  });
  const post = await createPost(t, admin, {
    title: "मेरी पहली इंटर्नशिप कैसे मिली",
    content: "जल्दी आवेदन करें।\n\nहर दिन थोड़ा सीखें।",
  });
  const language = await t.json("PATCH", "/api/me/settings", { body: { language: "hi" }, headers: student.headers });
  assertEquals(language.status, 200);
  const comment = await t.json("POST", `/api/ungatekeep/${post.id}/comments`, {
    body: { content: "बहुत काम की बात, धन्यवाद।" },
    headers: student.headers,
  });
  assertEquals(comment.status, 201);
  const saved = await t.json("PUT", `/api/me/saved/internships/${internship.id}`, {
    body: {},
    headers: student.headers,
  });
  assertEquals(saved.status, 200);

  await using browser = await openBrowser();
  const context = await phoneContext(browser);
  await signInBrowser(context, t.origin, student);
  const page = await context.newPage();
  for (
    const path of [
      `/internships/${internship.id}`,
      `/opportunities/${opportunity.id}`,
      "/ungatekeep",
      `/ungatekeep/${post.id}`,
      "/me/tracker",
      `/report?kind=internship&id=${internship.id}&back=%2Finternships`,
      "/me/notifications",
      "/me/settings",
    ]
  ) {
    await openHydrated(page, `${t.origin}${path}`);
    assertEquals(await page.locator("html").getAttribute("lang"), "hi", `${path} follows the setting`);
    await assertHindiPage(page, path);
  }
  // The browser's own bubbles would speak English and stop the submit: an empty comment and a report without a reason
  // reach the island and the server, which say what is missing in Hindi.
  await openHydrated(page, `${t.origin}/ungatekeep/${post.id}`);
  await page.getByRole("button", { name: "कमेंट पोस्ट करें" }).click();
  assertEquals(await page.locator("#new-comment-error").innerText(), "यह जानकारी भरें।");
  await openHydrated(page, `${t.origin}/report?kind=internship&id=${internship.id}&back=%2Finternships`);
  await page.getByRole("button", { name: "रिपोर्ट भेजें" }).click();
  await page.getByText("चुनें कि क्या गड़बड़ है।").waitFor();
});

Deno.test("a student who chose Hindi submits an opportunity, reads their submissions and manages alerts in Hindi on a phone", async () => {
  await using t = await createTestApp({ listen: true });
  const student = await createTestUser(t, "user", { name: "कविता अय्यर" });
  const language = await t.json("PATCH", "/api/me/settings", { body: { language: "hi" }, headers: student.headers });
  assertEquals(language.status, 200);
  const own = await submitOpportunity(t, student, { title: "नवाचार आइडियाथॉन", type: "ideathon", location: "पुणे" });
  const alerts = [{ kind: "internships", query: { location: "पुणे", types: "remote,hybrid" } }, {
    kind: "opportunities",
    query: { search: "रोबोटिक्स" },
  }];
  for (const body of alerts) {
    assertEquals((await t.json("POST", "/api/me/alerts", { body, headers: student.headers })).status, 201);
  }

  await using browser = await openBrowser();
  const context = await phoneContext(browser);
  await signInBrowser(context, t.origin, student);
  const page = await context.newPage();

  await openHydrated(page, `${t.origin}/opportunities/new`);
  await page.getByLabel("आयोजक (ज़रूरी नहीं)", { exact: true }).waitFor();
  await page.getByRole("button", { name: "अवसर सबमिट करें" }).click();
  await page.getByText("टाइटल लिखें।").waitFor();
  assertEquals(await page.locator("#endDate-error").innerText(), "ख़त्म होने की तारीख़ डालें।");
  await assertHindiPage(page, "/opportunities/new with its field errors");

  for (const path of ["/opportunities/mine", `/opportunities/${own.id}/edit`]) {
    await openHydrated(page, `${t.origin}${path}`);
    await assertHindiPage(page, path);
  }

  await openHydrated(page, `${t.origin}/me/alerts`);
  await page.getByRole("heading", { name: "इंटर्नशिप: काम की जगह रिमोट या हाइब्रिड, जगह पुणे" }).waitFor();
  await assertHindiPage(page, "/me/alerts");
  await page.getByRole("link", { name: "डिलीट करें" }).first().click();
  const dialog = page.getByRole("dialog", { name: "यह अलर्ट डिलीट करें?" });
  await dialog.getByRole("button", { name: "हाँ, डिलीट करें" }).waitFor();
  await dialog.getByRole("button", { name: "रद्द करें" }).click();
  await page.getByRole("button", { name: "रोकें" }).first().click();
  await page.getByRole("button", { name: "फिर से चालू करें" }).waitFor();
  await page.getByText("रुका हुआ · रोज़").waitFor();
});

Deno.test("a member who chose Hindi posts and edits an internship on a phone, and its card reads in Hindi", async () => {
  await using t = await createTestApp({ listen: true });
  const member = await createTestUser(t, "member", { name: "अमित वर्मा" });
  const language = await t.json("PATCH", "/api/me/settings", { body: { language: "hi" }, headers: member.headers });
  assertEquals(language.status, 200);

  await using browser = await openBrowser();
  const context = await phoneContext(browser);
  await signInBrowser(context, t.origin, member);
  const page = await context.newPage();

  await openHydrated(page, `${t.origin}/internships/new`);
  await assertHindiPage(page, "/internships/new");
  await page.getByLabel("आवेदन का लिंक", { exact: true }).fill("not a link");
  await page.getByRole("button", { name: "इंटर्नशिप पोस्ट करें" }).click();
  await page.getByText("हाइलाइट किए गए फ़ील्ड ठीक करें।").waitFor();
  assertEquals(
    await page.locator("#internship-link-error").innerText(),
    "आवेदन का लिंक पूरे वेब पते के रूप में डालें, जो https:// या http:// से शुरू हो।",
  );
  await assertHindiPage(page, "/internships/new with errors");

  await page.getByLabel("टाइटल", { exact: true }).fill("डेटा विश्लेषण इंटर्न");
  await page.getByLabel("भर्ती करने वाली संस्था").fill("नवाचार लैब्स");
  await page.getByLabel("आवेदन का लिंक", { exact: true }).fill("https://navachar.example.com/intern");
  await page.getByLabel("काम की जगह").selectOption("remote");
  await page.getByLabel("हर महीने का स्टाइपेंड (₹)").fill("15000");
  await page.getByLabel("जगह", { exact: true }).fill("पुणे");
  await page.getByLabel("आवेदन की डेडलाइन").fill("2099-03-31");
  await page.getByRole("button", { name: "इंटर्नशिप पोस्ट करें" }).click();
  await page.waitForURL(/\/internships\/[0-9a-f-]{36}\?posted=1$/);
  await page.getByText("आपकी इंटर्नशिप पोस्ट हो गई").waitFor();
  const id = new URL(page.url()).pathname.split("/").pop()!;
  const admin = await createTestUser(t, "admin");
  const verified = await t.json("PUT", `/api/internships/${id}`, {
    body: { isVerified: true },
    headers: admin.headers,
  });
  assertEquals(verified.status, 200);

  await openHydrated(page, `${t.origin}/internships/${id}/edit`);
  await page.getByRole("heading", { level: 1, name: "“डेटा विश्लेषण इंटर्न” बदलें" }).waitFor();
  await assertHindiPage(page, "/internships/{id}/edit");

  for (const path of ["/internships/mine", "/internships"]) {
    await openHydrated(page, `${t.origin}${path}`);
    const card = page.getByRole("article", { name: "डेटा विश्लेषण इंटर्न" });
    await card.getByText("₹15,000 हर महीने").waitFor();
    await assertHindiPage(page, path);
  }
  const save = page.getByRole("button", { name: "सेव करें डेटा विश्लेषण इंटर्न" });
  await save.click();
  await page.getByRole("button", { name: "सेव है डेटा विश्लेषण इंटर्न", pressed: true }).waitFor();

  // The filter island renders the cards itself once it loads results (a new order here), with its own messages.
  await page.getByLabel("क्रम").selectOption("stipend");
  await page.waitForURL(/sort=stipend/);
  await page.locator("#internship-results:not([aria-busy])").waitFor();
  const card = page.getByRole("article", { name: "डेटा विश्लेषण इंटर्न" });
  await card.getByText("रिमोट").waitFor();
  const badge = card.getByTitle("एक एडमिन ने यह लिस्टिंग जाँची है");
  assert((await badge.innerText()).startsWith("जाँची गई"), "the badge of an admin's check, in Hindi");
  await assertHindiPage(page, "/internships after the island loaded results");
});

Deno.test("a student who chose Hindi buys a toolkit with a coupon, learns, and reads the Ungatekeep banners in Hindi on a phone", async () => {
  await using fake = startFakeRazorpay();
  await using t = await createTestApp({
    listen: true,
    env: {
      ...fake.env,
      RAZORPAY_CHECKOUT_URL: fake.checkoutUrl,
      SELLER_STATE: "Karnataka",
      SELLER_GSTIN: "29ABCDE1234F1Z5",
    },
  });
  const admin = await createTestUser(t, "admin", { name: "प्रिया शर्मा" });
  const student = await createTestUser(t, "user", { name: "कविता अय्यर" });
  const language = await t.json("PATCH", "/api/me/settings", { body: { language: "hi" }, headers: student.headers });
  assertEquals(language.status, 200);
  const { toolkit } = await addToolkitWithLessons({ t, admin }, {
    title: "वेतन पर बातचीत",
    description: "सही आँकड़े और सही शब्द।",
    price: 1499,
    highlights: ["बातचीत की स्क्रिप्ट", "अभ्यास के सवाल"],
    lessons: [
      { title: "बात क्यों करें", content: "<p>पहला ऑफ़र आख़िरी नहीं होता।</p>", isPreview: true },
      { title: "बातचीत की स्क्रिप्ट", content: "<p>पहले सुनें, फिर बोलें।</p>" },
    ],
  });
  await addCoupon({ t, admin }, { code: "NAYA20", discountType: "percentage", discountValue: 20 });
  for (const [orderIndex, title] of ["इंटर्नशिप मेला 2026", "रिज़्यूमे की मुफ़्त जाँच"].entries()) {
    const banner = await t.json("POST", "/api/admin/banners", {
      body: { title, linkUrl: "/internships", orderIndex },
      headers: admin.headers,
    });
    assertEquals(banner.status, 201);
  }

  await using browser = await openBrowser();
  const context = await phoneContext(browser);
  await signInBrowser(context, t.origin, student);
  const page = await context.newPage();
  page.on("dialog", (dialog) => dialog.accept(""));

  await openHydrated(page, `${t.origin}/toolkits/${toolkit.id}`);
  await page.getByLabel("कूपन कोड (ज़रूरी नहीं)").fill("purana");
  await page.getByRole("button", { name: "लगाएँ" }).click();
  await page.getByText("यह कूपन कोड मौजूद नहीं है। इसे जाँचकर फिर से कोशिश करें।").waitFor();
  await page.getByLabel("कूपन कोड (ज़रूरी नहीं)").fill("naya20");
  await page.getByRole("button", { name: "लगाएँ" }).click();
  await page.getByText("आप देंगे").waitFor();
  const buy = page.getByRole("button", { name: "₹1,199.20 में ख़रीदें" });
  await buy.click();
  await page.getByText("अपना राज्य या केंद्र शासित प्रदेश चुनें।").waitFor();
  await assertHindiPage(page, "the toolkit page with its checkout", ["GST", "NAYA", "Razorpay"]);
  await page.getByLabel("आपका राज्य (GST वाली रसीद के लिए)").selectOption({ label: "केरल" });
  await buy.click();
  await page.waitForURL(/\/learn\/[0-9a-f-]{36}\?paid=1$/);
  await hydrated(page);
  await page.getByRole("button", { name: "पूरा हुआ मार्क करें" }).click();
  await page.getByText("2 में से 1 लेसन पूरा (50 %)").waitFor();
  await page.getByRole("link", { name: "अगला लेसन →" }).waitFor();
  await assertHindiPage(page, "a lesson with its progress");

  await openHydrated(page, `${t.origin}/ungatekeep`);
  await page.getByRole("group", { name: "2 में से 1: इंटर्नशिप मेला 2026" }).waitFor();
  await page.getByRole("button", { name: "अगली" }).click();
  await page.getByRole("group", { name: "2 में से 2: रिज़्यूमे की मुफ़्त जाँच" }).waitFor();
  await assertHindiPage(page, "/ungatekeep with its banners", ["Ungatekeep"]);
});
