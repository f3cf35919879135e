import { assert, assertEquals, assertMatch } from "@/tests/helpers/assert.ts";
import { createTestUser } from "@/tests/helpers/app.ts";
import { refundProcessedDelivery, signedPayment } from "@/tests/fakes/razorpay.ts";
import { financialYearOf } from "@/lib/purchases/receipts.ts";
import { addToolkit, buy, checkout, openShop, registerForGst } from "@/tests/fixtures/toolkits.ts";
import { deliver, purchaseRecord, refund } from "./helpers.ts";

Deno.test("receipts: 50 confirmations at once take the numbers 1..50 of the financial year, no gap, no repeat", async () => {
  await using shop = await openShop();
  const kit = await addToolkit(shop);
  const buyers = await Promise.all(Array.from({ length: 50 }, () => createTestUser(shop.t)));
  const started = await Promise.all(buyers.map((buyer) => checkout(shop, buyer, kit.id)));
  const answers = await Promise.all(
    started.map((s, i) =>
      shop.t.json("POST", `/api/toolkits/${kit.id}/verify`, {
        body: signedPayment(s.body.order.id),
        headers: buyers[i].headers,
      })
    ),
  );
  assertEquals(answers.map((res) => res.status), Array(50).fill(200));
  const year = financialYearOf(new Date().toISOString());
  const numbers = await Promise.all(
    started.map(async (s) => (await purchaseRecord(shop, s.body.purchase.id)).receipt!.number),
  );
  const sequence = numbers.map((n) => {
    assert(n.startsWith(`RCPT-${year}-`), n);
    return Number(n.slice(`RCPT-${year}-`.length));
  }).sort((a, b) => a - b);
  assertEquals(sequence, Array.from({ length: 50 }, (_, i) => i + 1));
  // Each receipt is issued to its buyer.
  const first = await purchaseRecord(shop, started[0].body.purchase.id);
  assertEquals([first.receipt!.name, first.receipt!.email], [buyers[0].user.name, buyers[0].user.email]);
});

Deno.test("receipts and refunds: only the buyer and admins see a receipt; ids of others are refused", async () => {
  await using shop = await openShop();
  const buyer = await createTestUser(shop.t);
  const other = await createTestUser(shop.t);
  const kit = await addToolkit(shop);
  const { purchaseId, payment } = await buy(shop, buyer, kit.id);
  const page = (id: string, headers: Record<string, string> = {}) =>
    shop.t.fetch(`/purchases/${id}/receipt`, { headers, redirect: "manual" });
  const own = await page(purchaseId, buyer.headers);
  assertEquals(own.status, 200);
  // Not a dead end: links back to "My toolkits" and to the toolkit, left out of the print.
  const links = (await own.text()).match(/<nav aria-label="Back from the receipt" class="([^"]*)">([\s\S]*?)<\/nav>/);
  assert(links && links[1].split(" ").includes("print:hidden"), "the links are not printed");
  assert(links[2].includes('href="/toolkits/mine"') && links[2].includes("My toolkits"));
  assert(links[2].includes(`href="/toolkits/${kit.id}"`), "the toolkit is linked");
  assertEquals((await page(purchaseId, shop.admin.headers)).status, 200);
  assertEquals((await page(purchaseId, other.headers)).status, 404);
  assertEquals((await page("not-a-purchase", buyer.headers)).status, 404);
  assert([302, 303].includes((await page(purchaseId)).status));
  // The purchase's own payment is not one of its extra payments; another purchase's id is not this one's.
  const post = (path: string, headers: Record<string, string>) => shop.t.json("POST", path, { body: {}, headers });
  for (
    const [path, headers, status, error] of [
      [
        `/api/admin/purchases/${purchaseId}/extra-payments/${payment.id}/refund`,
        shop.admin.headers,
        404,
        "Payment not found",
      ],
      [`/api/admin/purchases/123/refund`, shop.admin.headers, 404, "Purchase not found"],
      [`/api/admin/purchases/123/extra-payments/${payment.id}/refund`, shop.admin.headers, 404, "Purchase not found"],
      [`/api/admin/purchases/${purchaseId}/refund`, buyer.headers, 403, "Forbidden"],
      [`/api/admin/purchases/${purchaseId}/refund`, {}, 401, "Unauthorized"],
    ] as const
  ) {
    const res = await post(path, headers);
    assertEquals([res.status, (await res.json()).error], [status, error], path);
  }
  const bad = await shop.t.json("POST", `/api/admin/purchases/${purchaseId}/refund`, {
    body: { reason: 42 },
    headers: shop.admin.headers,
  });
  assertEquals(bad.status, 400);
  assertEquals((await purchaseRecord(shop, purchaseId)).paymentStatus, "paid");
  assertEquals(shop.fake.refunds.length, 0);
});

Deno.test("receipts: an invoice keeps the seller as it was issued when the seller's settings change", async () => {
  await using shop = await openShop();
  const config = shop.t.services.config;
  registerForGst(shop);
  const buyer = await createTestUser(shop.t);
  const kit = await addToolkit(shop);
  const { purchaseId } = await buy(shop, buyer, kit.id);
  const read = async () => {
    const html = await (await shop.t.fetch(`/purchases/${purchaseId}/receipt`, { headers: buyer.headers })).text();
    return html.slice(html.indexOf("<article"), html.indexOf("</article>"));
  };
  const issued = await read();
  assert(issued.includes("29ABCDE1234F1Z5") && issued.includes("CGST"), issued);
  // The seller moves to another state with another GSTIN, then drops the GSTIN: the invoice issued stays as issued.
  config.seller = { ...config.seller, name: "Other Name Pvt Ltd", state: "Maharashtra", gstin: "27ABCDE1234F1Z5" };
  assertEquals(await read(), issued);
  config.seller = { sac: config.seller.sac };
  assertEquals(await read(), issued);
});

Deno.test("tax invoice: the place of supply is the checkout's state, else the onboarding city's, else the seller's", async () => {
  await using shop = await openShop();
  registerForGst(shop);
  const invoice = async (purchaseId: string, buyer: { headers: Record<string, string> }, query = "") => {
    const path = `/purchases/${purchaseId}/receipt${query}`;
    const html = await (await shop.t.fetch(path, { headers: buyer.headers })).text();
    return html.slice(html.indexOf("<article"), html.indexOf("</article>"));
  };
  const onboard = async (buyer: { headers: Record<string, string> }, locationType: string, locationValue: string) => {
    const res = await shop.t.json("POST", "/api/onboarding", {
      body: { persona: "student", locationType, locationValue },
      headers: buyer.headers,
    });
    assertEquals(res.status, 200);
  };
  // Onboarding named a city, Pune: Maharashtra, another state than the seller's, so IGST.
  const fromPune = await createTestUser(shop.t);
  await onboard(fromPune, "city", "Pune");
  const kit = await addToolkit(shop);
  const punePurchase = (await buy(shop, fromPune, kit.id)).purchaseId;
  const pune = await invoice(punePurchase, fromPune);
  assert(pune.includes("Place of supply: Maharashtra (27)"), pune);
  assert(pune.includes("IGST 18 %") && !pune.includes("CGST"), pune);
  // The same invoice in Hindi: its words in Hindi, the state, identifiers and amounts as they are.
  const hindi = await invoice(punePurchase, fromPune, "?lang=hi");
  for (
    const words of [
      "रसीद (टैक्स इनवॉइस)",
      "सप्लाई की जगह: Maharashtra (27)",
      "29ABCDE1234F1Z5",
      "IGST 18 %",
      "चुकाई गई रकम",
    ]
  ) {
    assert(hindi.includes(words), words);
  }
  assertMatch(
    hindi,
    /तारीख़: <time datetime="[^"]+">\d{1,2} (जनवरी|फ़रवरी|मार्च|अप्रैल|मई|जून|जुलाई|अगस्त|सितंबर|अक्टूबर|नवंबर|दिसंबर) \d{4}</,
  );
  // The state named at checkout wins over onboarding.
  const named = await createTestUser(shop.t);
  await onboard(named, "city", "Pune");
  const started = await shop.t.json("POST", `/api/toolkits/${kit.id}`, {
    body: { buyerState: "tamil nadu" },
    headers: named.headers,
  });
  assertEquals(started.status, 200);
  const { order, purchase } = await started.json();
  const payment = shop.fake.addPayment(order.id, "captured");
  const verified = await shop.t.json("POST", `/api/toolkits/${kit.id}/verify`, {
    body: signedPayment(order.id, payment.id),
    headers: named.headers,
  });
  assertEquals(verified.status, 200);
  assert((await invoice(purchase.id, named)).includes("Place of supply: Tamil Nadu (33)"));
  // The export tells the two apart: `checkoutState` is what was typed at checkout (null when nothing was), the
  // receipt's `buyerState` the place of supply it was issued with.
  const exported = async (buyer: { headers: Record<string, string> }) => {
    const res = await shop.t.fetch("/api/me/export", { headers: buyer.headers });
    assertEquals(res.status, 200);
    const [only] = (await res.json()).purchases;
    return [only.checkoutState, only.receipt.buyerState, "buyerState" in only];
  };
  assertEquals(await exported(fromPune), [null, "Maharashtra", false]);
  assertEquals(await exported(named), ["Tamil Nadu", "Tamil Nadu", false]);
  // Nothing known: the seller's state, CGST + SGST.
  const unknown = await createTestUser(shop.t);
  const seller = await invoice((await buy(shop, unknown, kit.id)).purchaseId, unknown);
  assert(seller.includes("Place of supply: Karnataka (29)") && seller.includes("CGST"), seller);
  // A state that is none: 400, and no purchase.
  const other = await addToolkit(shop, { title: "Other" });
  for (const buyerState of ["Atlantis", "Pune", 27]) {
    const res = await shop.t.json("POST", `/api/toolkits/${other.id}`, {
      body: { buyerState },
      headers: unknown.headers,
    });
    const body = await res.json();
    assertEquals(res.status, 400, JSON.stringify(body));
    if (typeof buyerState === "string") assertEquals(body.error, "Invalid buyerState");
  }
  assertEquals(shop.fake.orders.length, 3);
});

Deno.test("toolkit page: with a GSTIN and no known state the buy form asks for it, and posts without JavaScript", async () => {
  await using shop = await openShop();
  const config = shop.t.services.config;
  const kit = await addToolkit(shop);
  const free = await addToolkit(shop, { title: "Free Kit", price: 0 });
  const buyer = await createTestUser(shop.t);
  const page = async () => await (await shop.t.fetch(`/toolkits/${kit.id}`, { headers: buyer.headers })).text();
  // No GSTIN: no tax invoice, nothing to ask.
  assert(!(await page()).includes('name="buyerState"'));
  config.seller = { ...config.seller, state: "Karnataka", gstin: "29ABCDE1234F1Z5" };
  const asking = await page();
  assert(asking.includes('name="buyerState"') && asking.includes("Your state (for the GST invoice)"), asking);
  assert(asking.includes(`<form method="post" action="/toolkits/${kit.id}"`), asking);
  // The form posted without JavaScript: a state is needed, then the order is made with it.
  const post = (id: string, fields: Record<string, string>) =>
    shop.t.fetch(`/toolkits/${id}`, {
      method: "POST",
      body: new URLSearchParams(fields),
      headers: { ...buyer.headers, origin: shop.t.origin },
      redirect: "manual",
    });
  const missing = await post(kit.id, {});
  assertEquals(missing.status, 400);
  assert((await missing.text()).includes("Choose your state or union territory."));
  const made = await post(kit.id, { buyerState: "Kerala" });
  assertEquals(made.status, 200);
  assert((await made.text()).includes("Paying opens Razorpay"));
  const pending = (await shop.t.kv.list<{ buyerState?: string; toolkitId: string }>({ prefix: ["purchases"] }).next())
    .value!.value;
  assertEquals([pending.toolkitId, pending.buyerState], [kit.id, "Kerala"]);
  const freeBought = await post(free.id, { buyerState: "Kerala" });
  assertEquals([freeBought.status, freeBought.headers.get("location")], [303, `/toolkits/${free.id}/learn?free=1`]);
  // Once onboarding names a known city, the page does not ask.
  await shop.t.json("POST", "/api/onboarding", {
    body: { persona: "student", locationType: "city", locationValue: "Bangalore" },
    headers: buyer.headers,
  });
  assert(!(await page()).includes('name="buyerState"'));
});

Deno.test("credit notes: a refunded tax invoice shows one for all refunded, numbered in turn; a plain receipt none", async () => {
  await using shop = await openShop();
  const config = shop.t.services.config;
  registerForGst(shop);
  const kit = await addToolkit(shop, { price: 499 });
  const [first, second, third] = [
    await createTestUser(shop.t),
    await createTestUser(shop.t),
    await createTestUser(shop.t),
  ];
  const bought = [(await buy(shop, first, kit.id)).purchaseId, (await buy(shop, second, kit.id)).purchaseId];
  // The seller drops the GSTIN before the third purchase: a plain receipt, refunded without a credit note.
  config.seller = { sac: config.seller.sac };
  const plain = (await buy(shop, third, kit.id)).purchaseId;
  const year = financialYearOf(new Date().toISOString());
  const answers = [];
  for (const id of [...bought, plain]) answers.push(await refund(shop, id, "Asked by the buyer"));
  assertEquals(answers.map((a) => [a.status, a.body.purchase.refund.creditNote?.number]), [
    [200, `CN-${year}-1`],
    [200, `CN-${year}-2`],
    [200, undefined],
  ]);

  const notes = await Promise.all([...bought, plain].map(async (id) => (await purchaseRecord(shop, id)).refund));
  assertEquals(notes.map((r) => r?.creditNote?.number), [`CN-${year}-1`, `CN-${year}-2`, undefined]);
  const invoice = async (id: string, who: { headers: Record<string, string> }, query = "") => {
    const html = await (await shop.t.fetch(`/purchases/${id}/receipt${query}`, { headers: who.headers })).text();
    return html.slice(html.indexOf("<article"), html.indexOf("</article>"));
  };
  const page = await invoice(bought[0], first);
  const receiptNumber = (await purchaseRecord(shop, bought[0])).receipt!.number;
  for (
    const words of [
      "Credit note",
      `CN-${year}-1`,
      `Against tax invoice ${receiptNumber} of`,
      "− ₹422.88", // the taxable value of ₹499 taken back
      "− ₹38.06", // CGST and SGST, 9 % each
      "Amount credited (GST included)",
      "− ₹499",
    ]
  ) assert(page.includes(words), `${words} in ${page}`);
  const hindi = await invoice(bought[0], first, "?lang=hi");
  assert(hindi.includes("क्रेडिट नोट") && hindi.includes("वापस की गई रकम (GST सहित)"), hindi);
  assert(!(await invoice(plain, third)).includes("Credit note"), "a plain receipt has no credit note");
  await shop.t.settled();
  const mailTo = (who: { user: { email: string } }) =>
    shop.t.mails.find((m) => m.to === who.user.email && m.subject.includes("refund"))!.text;
  assert(mailTo(first).includes(`credit note CN-${year}-1`), mailTo(first));
  assert(mailTo(first).includes(`/purchases/${bought[0]}/credit-notes/CN-${year}-1`), "the e-mail links the note");
  assert(!mailTo(third).includes("credit note"), "no credit note, none in the e-mail");
});

Deno.test("credit notes: each is a page of its own for the buyer and admins, in English and Hindi; others get 404", async () => {
  await using shop = await openShop();
  const config = shop.t.services.config;
  config.seller = {
    ...config.seller,
    name: "Career Community LLP",
    address: "12 MG Road, Bengaluru",
    state: "Karnataka",
    gstin: "29ABCDE1234F1Z5",
  };
  const buyer = await createTestUser(shop.t, "user", { name: "Rohan Mehta" });
  const otherBuyer = await createTestUser(shop.t);
  const stranger = await createTestUser(shop.t);
  const kit = await addToolkit(shop, { price: 499 });
  const { purchaseId, orderId, payment } = await buy(shop, buyer, kit.id);
  const others = await buy(shop, otherBuyer, kit.id);
  const part = await shop.fake.refundInDashboard(payment.id, 10000);
  const res = await deliver(shop, refundProcessedDelivery(part, { orderId }));
  await res.body?.cancel();
  assertEquals((await refund(shop, purchaseId, "Asked by the buyer")).status, 200);
  const record = await purchaseRecord(shop, purchaseId);
  const year = financialYearOf(record.refund!.at);
  const [first, second] = [`CN-${year}-1`, `CN-${year}-2`];
  const open = (path: string, headers: Record<string, string> = {}) =>
    shop.t.fetch(path, { headers, redirect: "manual" });
  const article = async (response: Response) => {
    const html = await response.text();
    return html.slice(html.indexOf("<article"), html.indexOf("</article>"));
  };

  const receipt = await article(await open(`/purchases/${purchaseId}/receipt`, buyer.headers));
  for (const number of [first, second]) {
    assert(receipt.includes(`href="/purchases/${purchaseId}/credit-notes/${number}"`), `the receipt links ${number}`);
  }
  const path = `/purchases/${purchaseId}/credit-notes/${first}`;
  const own = await open(path, buyer.headers);
  assertEquals(own.status, 200);
  const page = await article(own);
  const invoice = record.receipt!;
  for (
    const words of [
      "<h1",
      "Credit note",
      first,
      `Against tax invoice ${invoice.number} of`,
      "for its refund of",
      "29ABCDE1234F1Z5",
      "Career Community LLP",
      "Rohan Mehta",
      buyer.user.email,
      "Place of supply: Karnataka (29)",
      "Reason: refund",
      "− ₹84.75", // the taxable value of the ₹100 part: round(10,000 × 100 / 118) paise
      "− ₹7.62", // CGST (the odd paisa) and SGST, 9 % each
      "− ₹7.63",
      "− ₹100",
      `href="/purchases/${purchaseId}/receipt"`,
    ]
  ) assert(page.includes(words), `${words} in ${page}`);
  assert(!page.includes(second) && !page.includes("− ₹400"), "only its own note");
  const hindi = await article(await open(`${path}?lang=hi`, buyer.headers));
  for (const words of ["क्रेडिट नोट", "कारण: रिफ़ंड", "वापस की गई रकम (GST सहित)", "सप्लाई की जगह"]) {
    assert(hindi.includes(words), `${words} in ${hindi}`);
  }
  assertEquals((await open(path, shop.admin.headers)).status, 200, "an admin reads it");
  for (
    const [who, asked] of [
      [otherBuyer.headers, path],
      [stranger.headers, path],
      [otherBuyer.headers, `/purchases/${others.purchaseId}/credit-notes/${first}`],
      [buyer.headers, `/purchases/${purchaseId}/credit-notes/CN-${year}-9`],
      [buyer.headers, `/purchases/${purchaseId}/credit-notes/${"x".repeat(300)}`],
    ] as const
  ) {
    const answer = await open(asked, who);
    assertEquals(answer.status, 404, asked);
    await answer.body?.cancel();
  }
  const guest = await open(path);
  assert([302, 303].includes(guest.status), "a guest is sent to sign in");
  await guest.body?.cancel();
});
