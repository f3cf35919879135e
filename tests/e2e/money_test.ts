/**
 * Money in Chromium (docs/decisions.md, Money operations): the admin refunds a purchase from `/admin/purchases` and
 * the buyer loses the lesson and sees the refund in "My toolkits"; the receipt prints as a tax invoice with the
 * seller's GSTIN; a learner completes the last lesson and opens their certificate; the dashboard draws its charts; on
 * a phone the admin's rows say a request gave no reason, that a refund replaced a decline (the note is the decline's),
 * and warn of the policy only on a purchase with a payment to refund; an empty decline note, sent with or without
 * JavaScript, is told at its field in the page's language, the confirmation kept. Every page is checked with axe.
 */
import { assert, assertEquals } from "@/tests/helpers/assert.ts";
import { createTestApp, createTestUser } from "@/tests/helpers/app.ts";
import {
  assertAccessible,
  assertAccessibleWithoutScript,
  openBrowser,
  openHydrated,
  signInBrowser,
} from "@/tests/helpers/browser.ts";
import { refundProcessedDelivery, startFakeRazorpay } from "@/tests/fakes/razorpay.ts";
import { addCoupon, addToolkitWithLessons, buy, checkout } from "@/tests/fixtures/toolkits.ts";
import { assertFitsPhone, assertNoSidewaysScroll, layoutDefects, phoneContext } from "@/tests/helpers/phone.ts";
import { translatorFor } from "@/lib/i18n/catalogue.ts";

/** Where screenshots go, to look at (`SCREENSHOTS_DIR`, default the system's temp folder). */
const SHOTS = Deno.env.get("SCREENSHOTS_DIR") ?? Deno.makeTempDirSync({ prefix: "money-e2e-" });

const TOOLKIT = { title: "Crack the Data Analyst Interview", description: "SQL, cases and the offer.", price: 799 };

const SELLER = {
  SELLER_NAME: "Career Community Private Limited",
  SELLER_ADDRESS: "12 MG Road, Bengaluru 560001",
  SELLER_STATE: "Karnataka",
  SELLER_GSTIN: "29ABCDE1234F1Z5",
};

Deno.test("the admin refunds a purchase; the buyer loses the lesson and sees the refund; the receipt prints", async () => {
  await using fake = startFakeRazorpay();
  await using t = await createTestApp({ listen: true, env: { ...fake.env, ...SELLER } });
  const admin = await createTestUser(t, "admin", { name: "Asha Admin" });
  const buyer = await createTestUser(t, "user", { name: "Rohan Mehta" });
  await t.json("POST", "/api/onboarding", {
    body: {
      persona: "student",
      locationType: "state",
      locationValue: "Maharashtra",
      opportunityInterests: ["Hackathons"],
    },
    headers: buyer.headers,
  });
  const { toolkit, lessons: items } = await addToolkitWithLessons({ t, admin }, { ...TOOLKIT, lessons: ["SQL joins"] });
  const { purchaseId } = await buy({ t, fake }, buyer, toolkit.id);
  await using browser = await openBrowser();

  // The receipt: a tax invoice (inter-state: IGST), printed.
  const buyerContext = await browser.newContext();
  await signInBrowser(buyerContext, t.origin, buyer);
  const mine = await buyerContext.newPage();
  await openHydrated(mine, `${t.origin}/toolkits/mine`);
  await mine.getByRole("link", { name: "Receipt for Crack the Data Analyst Interview" }).click();
  await mine.waitForURL(`${t.origin}/purchases/${purchaseId}/receipt`);
  await mine.getByRole("heading", { name: "Tax invoice" }).waitFor();
  const invoice = await mine.locator("article.receipt").innerText();
  for (
    const text of [
      "GSTIN: 29ABCDE1234F1Z5",
      "Place of supply: Maharashtra (27)",
      "IGST 18 %",
      "₹121.88",
      "₹677.12",
      "₹799",
    ]
  ) {
    assert(invoice.includes(text), `the invoice shows ${text}: ${invoice}`);
  }
  await assertAccessible(mine, "receipt");
  await mine.emulateMedia({ media: "print" });
  assertEquals(await mine.locator("body > header").isVisible(), false);
  assertEquals(await mine.getByRole("button", { name: "Print tax invoice" }).isVisible(), false);
  await mine.screenshot({ path: `${SHOTS}/receipt-print.png`, fullPage: true });
  const pdf = await mine.pdf({ preferCSSPageSize: true });
  assertEquals((new TextDecoder().decode(pdf).match(/\/Type\s*\/Page[^s]/g) ?? []).length, 1);
  await mine.emulateMedia({ media: "screen" });

  // The buyer asks for a refund on the receipt, with a reason; the receipt then says it was asked.
  await mine.getByText("Ask for a refund").click();
  await mine.getByLabel("Why? (optional)").fill("Bought the wrong toolkit");
  await mine.getByRole("button", { name: "Send the request" }).click();
  await mine.getByText(/Refund asked on/).waitFor();
  await assertAccessible(mine, "receipt with a refund request");

  // The admin refunds it from the purchases table, after a dialog that shows the amount.
  const adminContext = await browser.newContext();
  await signInBrowser(adminContext, t.origin, admin);
  const page = await adminContext.newPage();
  await openHydrated(page, `${t.origin}/admin/purchases?tab=asked`);
  await page.getByRole("button", { name: "Refund asked (1)", pressed: true }).waitFor();
  const row = page.getByRole("row", { name: /Rohan Mehta/ });
  const facts = await row.innerText();
  assert(facts.includes("“Bought the wrong toolkit”") && facts.includes("paid today · 0 of 1 lesson done"), facts);
  await row.getByRole("button", { name: "Refund Rohan Mehta's purchase" }).click();
  const dialog = page.getByRole("dialog", { name: "Refund this payment?" });
  const words = await dialog.innerText();
  assert(words.includes("Refund ₹799 to Rohan Mehta") && words.includes("0 of 1 lesson done"), words);
  assert(words.includes("The buyer sees this reason in the refund notification and e-mail."), words);
  await assertAccessible(page, "refund dialog");
  await dialog.getByLabel("Reason (optional)").fill("Asked within 7 days");
  // The gateway refunds but its answer is lost: the dialog says the refund is not confirmed, not that nothing was.
  fake.mode = "lose";
  await dialog.getByRole("button", { name: "Refund ₹799" }).click();
  await dialog.getByText("The refund is not confirmed").waitFor();
  assert((await dialog.innerText()).includes("refund again to be sure"), await dialog.innerText());
  assert(!(await dialog.innerText()).includes("Nothing was refunded"), await dialog.innerText());
  await assertAccessible(page, "refund dialog, refund not confirmed");
  fake.mode = "ok";
  await dialog.getByRole("button", { name: "Refund ₹799" }).click();
  await page.getByRole("status").filter({ hasText: "Refunded ₹799 to Rohan Mehta." }).waitFor();
  await page.getByRole("button", { name: "Refunded (1)" }).click();
  await page.getByRole("row", { name: /Rohan Mehta/ }).getByText("Refunded", { exact: true }).waitFor();
  await assertAccessible(page, "admin purchases");
  // The reason is the buyer's to read, not the gateway's: the refund's notes name the purchase only.
  assertEquals(fake.refunds.map((r) => [r.amount, r.notes]), [[79900, { purchaseId }]]);

  // The buyer: the lesson is locked again (its old link says why), and "My toolkits" shows the refund.
  const lesson = await buyerContext.newPage();
  await lesson.goto(`${t.origin}/toolkits/${toolkit.id}/learn/${items[0].id}`);
  await lesson.waitForURL(`${t.origin}/toolkits/${toolkit.id}?ended=refund`);
  await lesson.getByText("Your access ended with the refund").waitFor();
  await openHydrated(mine, `${t.origin}/toolkits/mine`);
  await mine.getByText("You have no toolkits yet").waitFor();
  const history = await mine.getByRole("region", { name: "Payment history" }).innerText();
  assert(history.includes("Refunded: ₹799 on"), history);
  assert(!history.includes("Ask for a refund"), history);
  const told = await (await t.fetch("/api/me/notifications", { headers: buyer.headers })).json();
  assert(told.notifications[0].body.includes("Why: Asked within 7 days"), told.notifications[0].body);
  await assertAccessible(mine, "my toolkits after the refund");
  await mine.screenshot({ path: `${SHOTS}/my-toolkits-refunded.png`, fullPage: true });

  // The dashboard: tiles and both charts.
  await openHydrated(page, `${t.origin}/admin`);
  await page.getByRole("img", { name: /Revenue per day, last 30 days/ }).waitFor();
  await page.getByRole("img", { name: /Sign-ups per day/ }).waitFor();
  const totals = await page.getByRole("list", { name: "Totals" }).innerText();
  assert(totals.includes("₹799") && totals.includes("Refunds asked\n0"), totals);
  await assertAccessible(page, "dashboard");
  await page.screenshot({ path: `${SHOTS}/dashboard.png`, fullPage: true });
});

Deno.test("a purchase refunded in part at the gateway is flagged; the admin's refund asks for what is left", async () => {
  await using fake = startFakeRazorpay();
  await using t = await createTestApp({ listen: true, env: fake.env });
  const admin = await createTestUser(t, "admin", { name: "Asha Admin" });
  const buyer = await createTestUser(t, "user", { name: "Rohan Mehta" });
  const { toolkit } = await addToolkitWithLessons({ t, admin }, { ...TOOLKIT, lessons: ["Joins"] });
  const { orderId, payment } = await buy({ t, fake }, buyer, toolkit.id);
  const part = await fake.refundInDashboard(payment.id, 10000);
  const delivery = refundProcessedDelivery(part, { orderId });
  const res = await t.fetch("/api/webhooks/razorpay", { method: "POST", ...delivery });
  assertEquals(res.status, 200);
  await res.body?.cancel();
  await using browser = await openBrowser();
  const context = await browser.newContext();
  await signInBrowser(context, t.origin, admin);
  const page = await context.newPage();
  await openHydrated(page, `${t.origin}/admin/purchases`);
  await page.getByRole("button", { name: "Partly refunded (1)" }).click();
  const row = page.getByRole("row", { name: /Rohan Mehta/ });
  await row.getByText("Partly refunded ₹100").waitFor();
  const search = page.getByLabel("Search by buyer, toolkit, order or payment id");
  await search.fill("rohan");
  await search.press("Enter");
  await row.getByText("Partly refunded ₹100").waitFor();
  const tab = page.getByRole("button", { name: "Partly refunded (1)" });
  assertEquals([await tab.getAttribute("aria-pressed"), new URL(page.url()).search], ["true", ""], "Enter keeps it");
  await row.getByRole("button", { name: "Refund Rohan Mehta's purchase" }).click();
  const dialog = page.getByRole("dialog", { name: "Refund this payment?" });
  const words = await dialog.innerText();
  assert(words.includes("₹100 of ₹799 was refunded at the gateway already; this refunds the ₹699 left."), words);
  await assertAccessible(page, "refund dialog after a partial refund");
  await dialog.getByRole("button", { name: "Refund ₹699" }).click();
  await page.getByRole("status").filter({ hasText: "Refunded ₹699 to Rohan Mehta." }).waitFor();
  assertEquals(fake.refunds.map((r) => r.amount), [10000, 69900]);
  await page.getByRole("button", { name: "Partly refunded (0)" }).waitFor();
});

Deno.test("without JavaScript, on a 360 px phone, the admin declines one refund request and refunds another", async () => {
  await using fake = startFakeRazorpay();
  await using t = await createTestApp({ listen: true, env: fake.env });
  const admin = await createTestUser(t, "admin", { name: "Asha Admin" });
  const rohan = await createTestUser(t, "user", { name: "Rohan Mehta" });
  const sara = await createTestUser(t, "user", { name: "Sara Khan" });
  const { toolkit } = await addToolkitWithLessons({ t, admin }, { ...TOOLKIT, lessons: ["Joins"] });
  // Tax invoices: Sara's refund issues a credit note, which her row then lists.
  t.services.config.seller = { ...t.services.config.seller, state: "Karnataka", gstin: "29ABCDE1234F1Z5" };
  const purchaseIds: string[] = [];
  for (const buyer of [rohan, sara]) {
    const { purchaseId } = await buy({ t, fake }, buyer, toolkit.id);
    purchaseIds.push(purchaseId);
    const asked = await t.json("POST", `/api/purchases/${purchaseId}/refund-request`, {
      body: { reason: "Wrong toolkit" },
      headers: buyer.headers,
    });
    assertEquals(asked.status, 200);
    await asked.body?.cancel();
  }
  await using browser = await openBrowser();
  const context = await phoneContext(browser, { javaScriptEnabled: false });
  await signInBrowser(context, t.origin, admin);
  const page = await context.newPage();
  await page.goto(`${t.origin}/admin/purchases?tab=asked`);

  await page.getByRole("row", { name: /Rohan Mehta/ }).getByRole("button", { name: /Decline request/ }).click();
  const declining = page.getByRole("region", { name: "Decline this refund request?" });
  assert((await declining.innerText()).includes("Decline Rohan Mehta's refund request"), await declining.innerText());
  await declining.getByLabel("Note to the buyer (required)").fill("The lessons were all opened already");
  await assertAccessibleWithoutScript(page, "decline confirmation without JavaScript");
  await declining.getByRole("button", { name: "Decline the request" }).click();
  await page.getByText("Declined Rohan Mehta's refund request.").waitFor();
  assertEquals(new URL(page.url()).searchParams.get("tab"), "asked", "back on the tab it was declined from");
  assertEquals(await page.getByRole("row", { name: /Rohan Mehta/ }).count(), 0, "no longer asked");

  await page.getByRole("row", { name: /Sara Khan/ }).getByRole("button", { name: /^Refund/ }).click();
  const refunding = page.getByRole("region", { name: "Refund this payment?" });
  assert((await refunding.innerText()).includes("Refund ₹799 to Sara Khan"), await refunding.innerText());
  await refunding.getByLabel("Reason (optional)").fill("Asked within 7 days");
  fake.mode = "lose";
  await refunding.getByRole("button", { name: "Refund ₹799" }).click();
  const refused = page.getByRole("region", { name: "Refund this payment?" });
  assert((await refused.innerText()).includes("The refund is not confirmed"), await refused.innerText());
  assert(!(await refused.innerText()).includes("Nothing was refunded"), await refused.innerText());
  assertEquals(await refused.getByLabel("Reason (optional)").inputValue(), "Asked within 7 days", "kept as typed");
  fake.mode = "ok";
  await refused.getByRole("button", { name: "Refund ₹799" }).click();
  await page.getByText("Refunded ₹799 to Sara Khan.").waitFor();
  assertEquals(fake.refunds.map((r) => [r.amount, r.notes]), [[79900, { purchaseId: purchaseIds[1] }]]);
  await assertNoSidewaysScroll(page, "admin purchases without JavaScript");
  await assertAccessibleWithoutScript(page, "admin purchases without JavaScript");
  // Her row lists the refund's credit note, its number, amount and date linking its page; her status stays one line.
  await page.goto(`${t.origin}/admin/purchases?tab=refunded`);
  const saraRow = page.getByRole("row", { name: /Sara Khan/ });
  const status = saraRow.getByText("Refunded", { exact: true });
  const lines = await status.evaluate((badge) => Math.round(badge.getBoundingClientRect().height / 16));
  assertEquals(lines, 1, "the status does not wrap");
  const note = saraRow.getByRole("link", { name: /^Credit note CN-\d{4}-1: ₹799, / });
  await note.click();
  await page.getByRole("heading", { level: 1, name: "Credit note" }).waitFor();
  assert((await page.innerText("main")).includes("₹799"), await page.innerText("main"));
  await assertFitsPhone(page, "the credit note opened from the admin's list");
});

Deno.test("on a 360 px phone, in English and Hindi, with and without JavaScript, an empty decline note is told at its field", async () => {
  await using fake = startFakeRazorpay();
  await using t = await createTestApp({ listen: true, env: fake.env });
  const admin = await createTestUser(t, "admin", { name: "Asha Admin" });
  const rohan = await createTestUser(t, "user", { name: "Rohan Mehta" });
  const { toolkit } = await addToolkitWithLessons({ t, admin }, { ...TOOLKIT, lessons: ["Joins"] });
  const { purchaseId } = await buy({ t, fake }, rohan, toolkit.id);
  const asked = await t.json("POST", `/api/purchases/${purchaseId}/refund-request`, {
    body: { reason: "Wrong toolkit" },
    headers: rohan.headers,
  });
  assertEquals(asked.status, 200);
  await asked.body?.cancel();
  await using browser = await openBrowser();

  for (const lang of ["en", "hi"] as const) {
    const tr = translatorFor(lang);
    for (const javaScript of [true, false]) {
      const label = `${lang}, ${javaScript ? "with" : "without"} JavaScript`;
      const context = await phoneContext(browser, { javaScriptEnabled: javaScript });
      await signInBrowser(context, t.origin, admin);
      const page = await context.newPage();
      const url = `${t.origin}/admin/purchases?tab=asked&lang=${lang}`;
      if (javaScript) await openHydrated(page, url);
      else await page.goto(url);
      await page.getByRole("row", { name: /Rohan Mehta/ }).getByRole("button", {
        name: new RegExp(`^${[tr.rich("admin.purchases.decline", { who: () => "" })].flat().join("")}`),
      }).click();
      const box = javaScript
        ? page.getByRole("dialog", { name: tr("admin.refund.declineTitle") })
        : page.getByRole("region", { name: tr("admin.refund.declineTitle") });
      const note = box.getByLabel(tr("admin.refund.note"));
      await note.fill("   ");
      await box.getByRole("button", { name: tr("admin.refund.declineConfirm") }).click();
      await box.getByText(tr("fields.required")).waitFor();
      assertEquals(
        await page.getByText(tr("common.refusalPage.invalid.title")).count(),
        0,
        `${label}: not the generic page`,
      );
      assertEquals(await note.getAttribute("aria-invalid"), "true", `${label}: the note is marked`);
      assert((await note.getAttribute("aria-describedby"))?.includes("-error"), `${label}: the error names the note`);
      await assertFitsPhone(page, `the refused decline, ${label}`);
      await (javaScript ? assertAccessible : assertAccessibleWithoutScript)(page, `the refused decline, ${label}`);
      await context.close();
    }
  }
});

Deno.test("a learner completes the last lesson and opens their certificate; it prints on one page", async () => {
  await using fake = startFakeRazorpay();
  await using t = await createTestApp({ listen: true, env: fake.env });
  const admin = await createTestUser(t, "admin");
  const learner = await createTestUser(t, "user", { name: "Sara Khan" });
  const { toolkit, lessons: items } = await addToolkitWithLessons({ t, admin }, {
    ...TOOLKIT,
    lessons: ["Joins", "Window functions"],
  });
  await buy({ t, fake }, learner, toolkit.id);
  await t.json(
    "POST",
    `/api/toolkits/${toolkit.id}/progress`,
    { body: { contentItemId: items[0].id, completed: true }, headers: learner.headers },
  );
  await using browser = await openBrowser();
  const context = await browser.newContext();
  await signInBrowser(context, t.origin, learner);
  const page = await context.newPage();
  await openHydrated(page, `${t.origin}/toolkits/${toolkit.id}/learn/${items[1].id}`);
  assertEquals(await page.getByRole("link", { name: /Certificate/ }).count(), 0);
  await page.getByRole("button", { name: "Mark as complete" }).click();
  // The lesson list ticks the lesson at once, and finishing says so with the certificate.
  const lessonList = page.getByRole("navigation", { name: "Lessons" });
  await lessonList.getByRole("link", { name: /Window functions.*completed/ }).waitFor();
  await page.getByText("You finished this toolkit").waitFor();
  await page.getByRole("link", { name: "Your certificate is ready" }).waitFor();
  await page.getByRole("link", { name: "Certificate", exact: true }).click();
  await page.waitForURL(/\/certificates\/[0-9a-f-]{36}$/);
  const certificate = await page.getByRole("article").innerText();
  for (const text of ["Certificate of completion", "Sara Khan", "Crack the Data Analyst Interview", "CERT-"]) {
    assert(certificate.includes(text), `the certificate shows ${text}`);
  }
  const linkedIn = await page.getByRole("link", { name: /Add to LinkedIn/ }).getAttribute("href");
  const url = new URL(linkedIn!);
  assertEquals(url.origin + url.pathname, "https://www.linkedin.com/profile/add");
  assertEquals(url.searchParams.get("certUrl"), page.url());
  assertEquals(url.searchParams.get("name"), "Crack the Data Analyst Interview");
  await assertAccessible(page, "certificate");
  // Public: a guest opens it too.
  const guest = await browser.newPage();
  await guest.goto(page.url());
  await guest.getByText("Sara Khan").waitFor();
  assertEquals(await guest.getByRole("link", { name: /Add to LinkedIn/ }).count(), 0);
  await guest.getByRole("link", { name: "Copy link" }).waitFor();
  await page.emulateMedia({ media: "print" });
  await page.screenshot({ path: `${SHOTS}/certificate-print.png`, fullPage: true });
  const pdf = await page.pdf({ preferCSSPageSize: true });
  assertEquals((new TextDecoder().decode(pdf).match(/\/Type\s*\/Page[^s]/g) ?? []).length, 1);
  // "My toolkits" links the certificate.
  await openHydrated(page, `${t.origin}/toolkits/mine`);
  await page.getByRole("link", { name: "Certificate for Crack the Data Analyst Interview" }).waitFor();
  await page.getByRole("link", { name: "Review Crack the Data Analyst Interview" }).waitFor();
});

Deno.test("on a 360 px phone in Hindi, without JavaScript, a buyer asks for a refund; the admin declines it with a note", async () => {
  await using fake = startFakeRazorpay();
  await using t = await createTestApp({ listen: true, env: fake.env });
  const admin = await createTestUser(t, "admin", { name: "Asha Admin" });
  const buyer = await createTestUser(t, "user", { name: "Rohan Mehta" });
  const { toolkit } = await addToolkitWithLessons({ t, admin }, { ...TOOLKIT, lessons: ["Joins"] });
  const { purchaseId } = await buy({ t, fake }, buyer, toolkit.id);
  await using browser = await openBrowser();

  const buyerContext = await phoneContext(browser, { javaScriptEnabled: false });
  await signInBrowser(buyerContext, t.origin, buyer);
  const mine = await buyerContext.newPage();
  await mine.goto(`${t.origin}/toolkits/mine?lang=hi`);
  await mine.getByText("रिफ़ंड माँगें").click();
  await mine.getByLabel("क्यों? (ज़रूरी नहीं)").fill("गलत टूलकिट ले लिया");
  await mine.getByRole("button", { name: "रिक्वेस्ट भेजें" }).click();
  await mine.getByText(/को रिफ़ंड माँगा।/).waitFor();
  assert(new URL(mine.url()).hash === `#purchase-${purchaseId}`, mine.url());
  await assertAccessibleWithoutScript(mine, "my toolkits with a refund request, Hindi");
  await assertNoSidewaysScroll(mine, "my toolkits with a refund request, Hindi");

  const adminContext = await phoneContext(browser);
  await signInBrowser(adminContext, t.origin, admin);
  const page = await adminContext.newPage();
  await openHydrated(page, `${t.origin}/admin/purchases?tab=asked`);
  const row = page.getByRole("row", { name: /Rohan Mehta/ });
  await row.getByRole("button", { name: "Decline request Rohan Mehta's purchase" }).click();
  const dialog = page.getByRole("dialog", { name: "Decline this refund request?" });
  await dialog.getByLabel("Note to the buyer (required)").fill("The lessons were all opened already");
  await assertAccessible(page, "decline dialog");
  await dialog.getByRole("button", { name: "Decline the request" }).click();
  await page.getByRole("status").filter({ hasText: "Declined Rohan Mehta's refund request." }).waitFor();

  await mine.goto(`${t.origin}/toolkits/mine?lang=hi`);
  const history = await mine.getByRole("region", { name: "पेमेंट की हिस्ट्री" }).innerText();
  assert(history.includes("रिफ़ंड रिक्वेस्ट मना हुई") && history.includes("The lessons were all opened already"), history);
  assert(!history.includes("रिफ़ंड माँगें"), history);
});

Deno.test("on a 360 px phone, the admin's rows say what happened: no reason, a refund after a decline, a free purchase", async () => {
  await using fake = startFakeRazorpay();
  await using t = await createTestApp({ listen: true, env: fake.env });
  const admin = await createTestUser(t, "admin", { name: "Asha Admin" });
  const rohan = await createTestUser(t, "user", { name: "Rohan Mehta" });
  const sara = await createTestUser(t, "user", { name: "Sara Khan" });
  const shop = { t, admin };
  const { toolkit, lessons } = await addToolkitWithLessons(shop, {
    ...TOOLKIT,
    lessons: ["Joins", "Windows", "Cases"],
  });
  await addCoupon(shop, { code: "ALLFREE", discountType: "percentage", discountValue: 100 });
  const answer = async (path: string, body: Record<string, unknown>, who: { headers: HeadersInit }) => {
    const res = await t.json("POST", path, { body, headers: who.headers });
    assertEquals(res.status, 200, JSON.stringify(await res.clone().json()));
    await res.body?.cancel();
  };
  // Rohan asks without a reason; the admin declines with a note, then refunds after all.
  const { purchaseId } = await buy({ t, fake }, rohan, toolkit.id);
  await answer(`/api/purchases/${purchaseId}/refund-request`, {}, rohan);
  // Sara's purchase is free (a 100 % coupon) and past the policy's lessons: there is nothing to refund.
  assertEquals((await checkout(shop, sara, toolkit.id, "ALLFREE")).status, 200);
  for (const lesson of lessons) {
    await answer(`/api/toolkits/${toolkit.id}/progress`, { contentItemId: lesson.id, completed: true }, sara);
  }

  await using browser = await openBrowser();
  const context = await phoneContext(browser);
  await signInBrowser(context, t.origin, admin);
  const page = await context.newPage();
  const rowText = (name: RegExp) => page.getByRole("row", { name }).innerText();
  await openHydrated(page, `${t.origin}/admin/purchases`);
  const asked = await rowText(/Rohan Mehta/);
  assert(/Refund asked [^\n]*: no reason given\./.test(asked), asked);
  const free = await rowText(/Sara Khan/);
  assert(free.includes("3 of 3 lessons done"), free);
  assert(!free.includes("Past the refund policy") && !free.includes("You may still refund"), free);

  await answer(`/api/admin/purchases/${purchaseId}/refund-request/decline`, { note: "The lessons were opened" }, admin);
  await answer(`/api/admin/purchases/${purchaseId}/refund`, { reason: "The video did not play" }, admin);
  await openHydrated(page, `${t.origin}/admin/purchases`);
  const refunded = await rowText(/Rohan Mehta/);
  assert(refunded.includes("declined, then refunded: no reason given."), refunded);
  assert(refunded.includes("Your note when declining: The lessons were opened"), refunded);
  assertEquals(await layoutDefects(page), []);
  await assertAccessible(page, "admin purchases on a phone");

  await openHydrated(page, `${t.origin}/admin/purchases?lang=hi`);
  const hindi = await page.getByRole("row", { name: /Rohan Mehta/ }).innerText();
  assert(hindi.includes("मना किया, फिर रिफ़ंड हुआ: कोई वजह नहीं बताई।"), hindi);
  assert(hindi.includes("मना करते समय आपका नोट: The lessons were opened"), hindi);
  assertEquals(await layoutDefects(page), []);
});

Deno.test("on a 360 px phone, the receipt keeps each amount on one line, the coupon's and the credit note's", async () => {
  await using fake = startFakeRazorpay();
  await using t = await createTestApp({ listen: true, env: { ...fake.env, ...SELLER } });
  const admin = await createTestUser(t, "admin");
  const buyer = await createTestUser(t, "user", { name: "Rohan Mehta" });
  const shop = { t, admin };
  const { toolkit } = await addToolkitWithLessons(shop, { ...TOOLKIT, lessons: ["Joins"] });
  await addCoupon(shop, { code: "WELCOME20", discountType: "percentage", discountValue: 20 });
  const { purchaseId } = await buy({ t, fake }, buyer, toolkit.id, "WELCOME20");
  // Refunded: the tax invoice shows its credit note below the items.
  const refunded = await t.json("POST", `/api/admin/purchases/${purchaseId}/refund`, {
    body: {},
    headers: admin.headers,
  });
  assertEquals(refunded.status, 200);
  await refunded.body?.cancel();
  await using browser = await openBrowser();
  const context = await phoneContext(browser, { javaScriptEnabled: false });
  await signInBrowser(context, t.origin, buyer);
  const page = await context.newPage();
  await page.goto(`${t.origin}/purchases/${purchaseId}/receipt`);
  const amounts = await page.locator("article.receipt td").evaluateAll((cells) =>
    cells.map((cell) => {
      const range = document.createRange();
      range.selectNodeContents(cell);
      const tops = new Set([...range.getClientRects()].map((rect) => Math.round(rect.top)));
      return { text: cell.textContent, lines: tops.size };
    })
  );
  // The discount, then the credit note's taxable value, CGST, SGST and amount credited.
  assertEquals(amounts.filter((a) => a.text?.startsWith("−")).length, 5, JSON.stringify(amounts));
  assert(amounts.every((a) => a.lines === 1), `an amount wraps: ${JSON.stringify(amounts)}`);
  assert((await page.locator("h2[id^='credit-note-']").innerText()).match(/credit note/i));
  assertEquals(await layoutDefects(page), []);
  await assertAccessibleWithoutScript(page, "receipt with a credit note at 360 px");
  // The credit note's own page, followed from the receipt without JavaScript, in English and in Hindi.
  await page.getByRole("link", { name: /Open credit note/ }).click();
  await page.waitForURL(/\/credit-notes\/CN-/);
  assert((await page.locator("h1").innerText()).match(/credit note/i));
  assert((await page.locator("article").innerText()).includes(SELLER.SELLER_GSTIN), "it names the seller's GSTIN");
  assertEquals(await layoutDefects(page), []);
  await assertAccessibleWithoutScript(page, "credit note at 360 px");
  await page.goto(`${page.url()}?lang=hi`);
  assert((await page.locator("h1").innerText()).includes("क्रेडिट नोट"));
  assertEquals(await layoutDefects(page), []);
  await assertAccessibleWithoutScript(page, "credit note in Hindi at 360 px");
  await page.screenshot({ path: `${SHOTS}/credit-note-360-hi.png`, fullPage: true });
});
