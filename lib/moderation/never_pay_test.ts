import { assertEquals } from "@/tests/helpers/assert.ts";
import { foldForMatching, moneyPhrasesIn, NEVER_PAY_PHRASES } from "./never_pay.ts";

Deno.test("every phrase the rule must cover is found in plain text", () => {
  const cases: [string, string][] = [
    ["Pay the registration fee to confirm", "registration fee"],
    ["Registration charges apply", "registration charges"],
    ["A security deposit is needed", "security deposit"],
    ["Refundable deposit of 2000", "refundable deposit"],
    ["Training fee: 5000", "training fee"],
    ["Small processing fee", "processing fee"],
    ["joining fee", "joining fee"],
    ["Laptop deposit required", "laptop deposit"],
    ["kit charges extra", "kit charges"],
    ["Pay ₹499 to start", "pay ₹ (an amount)"],
    ["pay Rs 1,500/- only", "pay Rs (an amount)"],
    ["पंजीकरण शुल्क जमा करें", "पंजीकरण शुल्क"],
    ["सुरक्षा जमा देना होगा", "सुरक्षा जमा"],
    ["प्रशिक्षण शुल्क ₹2000", "प्रशिक्षण शुल्क"],
    ["Entry fee for the hackathon", "entry fee"],
    ["a fee of Rs. 300", "a fee of ₹/Rs (an amount)"],
  ];
  for (const [text, label] of cases) assertEquals(moneyPhrasesIn(text), [label], text);
});

Deno.test("case, extra spaces and punctuation between words do not hide a phrase", () => {
  for (
    const text of [
      "REGISTRATION FEE",
      "Registration   fee",
      "registration-fee",
      "registration, fee",
      "registration.fee",
      "registration_fee",
      "registration\n\tfee",
      "(registration) (fees)",
      "re\u00ADgistration fee",
      "ＲＥＧＩＳＴＲＡＴＩＯＮ ＦＥＥ",
    ]
  ) assertEquals(moneyPhrasesIn(text), ["registration fee"], JSON.stringify(text));
  assertEquals(moneyPhrasesIn("PAY  rs.  500"), ["pay Rs (an amount)"]);
  assertEquals(moneyPhrasesIn("pay₹500"), ["pay ₹ (an amount)"]);
  assertEquals(moneyPhrasesIn("पंजीकरण  -  शुल्क।"), ["पंजीकरण शुल्क"]);
  assertEquals(moneyPhrasesIn("सुरक्षा, जमा"), ["सुरक्षा जमा"]);
});

Deno.test("words that only look alike, and talk of money the intern is paid, are not phrases", () => {
  for (
    const text of [
      "Preregistration feedback welcome",
      "Registration is free",
      "We pay a stipend of ₹8,000 a month",
      "Your pay: Rs 10,000",
      "We pay ₹10,000 a month",
      "we will pay Rs 12000 after the first month",
      "pay ₹ per month is competitive",
      "No fees of any kind",
      "Security deposits are never asked",
      "Training feedback sessions every week",
      "सुरक्षा पर काम",
    ]
  ) {
    const expected = text === "Security deposits are never asked" ? ["security deposit"] : [];
    assertEquals(moneyPhrasesIn(text), expected, text);
  }
});

Deno.test("a phrase is found in any of the texts given, null and undefined skipped", () => {
  assertEquals(moneyPhrasesIn("Backend intern", null, undefined, "Training fee applies"), ["training fee"]);
  assertEquals(moneyPhrasesIn(null, undefined), []);
  assertEquals(moneyPhrasesIn("security deposit and registration fee"), ["registration fee", "security deposit"]);
});

Deno.test("folding keeps letters, marks, digits and the rupee sign, one space between words", () => {
  assertEquals(foldForMatching("  Pay: ₹1,500!! "), " pay ₹ 1 500 ");
  assertEquals(foldForMatching("प्रशिक्षण—शुल्क"), " प्रशिक्षण शुल्क ");
  assertEquals(foldForMatching("Р\u0430y ₹५००: f\u0435\u0435, फ़ीस"), " pay ₹ ५०० fee फीस ");
  assertEquals(foldForMatching("F E E: ₹500, r-e-g f-e-e"), " fee ₹ 500 reg fee ");
  assertEquals(NEVER_PAY_PHRASES.every((p) => p.label.length > 0), true);
});

Deno.test("a phrase negated before it (or by नहीं after it) in the same clause does not count", () => {
  for (
    const text of [
      "No registration fee. No security deposit.",
      "There is no registration fee or training fee.",
      "We never charge a registration fee",
      "We don't charge any registration fee",
      "Zero joining fee",
      "Free of any processing fee",
      "Beware of fraud: we do not ask you to pay ₹500",
      "we do not ask you to pay ₹500",
      "No registration fee",
      "कोई पंजीकरण शुल्क नहीं",
      "पंजीकरण शुल्क नहीं लिया जाता",
      "koi registration fee nahi hai",
    ]
  ) assertEquals(moneyPhrasesIn(text), [], text);
});

Deno.test("a real ask still matches beside a negation elsewhere, or with other words between", () => {
  const cases: [string, string[]][] = [
    ["pay ₹500 registration fee", ["registration fee", "pay ₹ (an amount)"]],
    ["registration fee of ₹999 — no refunds", ["registration fee", "a fee of ₹/Rs (an amount)"]],
    ["No hidden charges, pay ₹500 to join", ["pay ₹ (an amount)"]],
    ["No worries: registration fee ₹500", ["registration fee"]],
    ["No experience needed registration fee ₹500", ["registration fee"]],
    ["Stipend: no. Registration fee ₹500", ["registration fee"]],
    ["No registration fee; a security deposit of Rs 2000", ["security deposit"]],
    ["No registration fee. Registration fee ₹500 after selection", ["registration fee"]],
    ["पंजीकरण शुल्क ₹500 देना होगा नहीं तो सीट नहीं मिलेगी", ["पंजीकरण शुल्क"]],
    ["पंजीकरण शुल्क नहीं तो सीट नहीं", ["पंजीकरण शुल्क"]],
  ];
  for (const [text, labels] of cases) assertEquals(moneyPhrasesIn(text), labels, text);
});

Deno.test("a negation beside a condition, a refund or a second negation does not count: the demand is held", () => {
  const cases: [string, string[]][] = [
    ["you cannot start without paying the security deposit", ["security deposit"]],
    ["You can't join without a security deposit of Rs 2000", ["security deposit"]],
    ["No joining without ₹2000 training fee", ["training fee"]],
    ["Candidates who do not pay the registration fee will not be selected", ["registration fee"]],
    ["Students who don't pay the security deposit are removed", ["security deposit"]],
    ["No registration fee refund after selection", ["registration fee"]],
    ["No security deposit is refundable", ["security deposit"]],
    ["बिना पंजीकरण शुल्क के जुड़ नहीं सकते", ["पंजीकरण शुल्क"]],
    ["पंजीकरण शुल्क नहीं देने पर चयन रद्द होगा", ["पंजीकरण शुल्क"]],
    ["पंजीकरण शुल्क 500 देना है नहीं देने पर चयन रद्द", ["पंजीकरण शुल्क"]],
    ["If you do not pay ₹500 your seat is cancelled", ["pay ₹ (an amount)"]],
    ["We don't charge a registration fee unless you are selected", ["registration fee"]],
    ["No registration fee until you are selected", ["registration fee"]],
    // "without" and "बिना" never negate, so these reassurances wait for an admin: when in doubt, hold.
    ["Apply without any security deposit", ["security deposit"]],
    ["बिना किसी पंजीकरण शुल्क के आवेदन करें", ["पंजीकरण शुल्क"]],
  ];
  for (const [text, labels] of cases) assertEquals(moneyPhrasesIn(text), labels, text);
});

Deno.test("a negation reaches no phrase across 'and', 'but' or another phrase; 'or' joins a list it covers", () => {
  const cases: [string, string[]][] = [
    ["No registration fee and you pay a training fee of ₹5000", ["training fee", "a fee of ₹/Rs (an amount)"]],
    ["There is no joining fee and we ask you to pay ₹5000 training fee", ["training fee", "pay ₹ (an amount)"]],
    ["No hidden charges and you pay ₹2000 security deposit", ["security deposit", "pay ₹ (an amount)"]],
    ["Zero registration fee and we charge a training fee", ["training fee"]],
    ["No registration fee but a training fee of ₹5000", ["training fee", "a fee of ₹/Rs (an amount)"]],
    ["No registration fee you pay a training fee", ["training fee"]],
    ["no registration fee or you pay training fee", ["training fee"]],
    ["koi registration fee nahi aur training fee ₹500", ["training fee"]],
    ["कोई पंजीकरण शुल्क नहीं लेकिन प्रशिक्षण शुल्क ₹500", ["प्रशिक्षण शुल्क"]],
    ["No stipend and you pay ₹500", ["pay ₹ (an amount)"]],
    ["No registration and you pay a training fee", ["training fee"]],
    ["No registration fee and training fee of ₹5000", ["training fee", "a fee of ₹/Rs (an amount)"]],
  ];
  for (const [text, labels] of cases) assertEquals(moneyPhrasesIn(text), labels, text);
  for (
    const text of [
      "No fee",
      "there is no registration fee and no deposit",
      "No registration fee and no security deposit",
      "No hidden charges and no registration fee",
      "100% free: no registration fee, no training fee and no deposit",
      "There is no registration fee or any training fee.",
      "We never ask for a registration fee or a security deposit",
      "We don't ask you to send ₹500 or any money",
      "You never have to pay ₹1 to us",
      "कोई फीस नहीं",
      "कोई पंजीकरण फ़ीस नहीं",
      "कोई पंजीकरण शुल्क या प्रशिक्षण शुल्क नहीं",
      "कोई शुल्क नहीं लिया जाएगा",
    ]
  ) assertEquals(moneyPhrasesIn(text), [], text);
});

Deno.test("common ways of writing a fee are found: amounts beside fee words, other verbs, Hindi, look-alikes", () => {
  const cases: [string, string[]][] = [
    ["₹ 500 registration", ["registration ₹/Rs (an amount)"]],
    ["Registration: ₹499 (one time)", ["registration ₹/Rs (an amount)"]],
    ["fee: ₹500", ["fee ₹/Rs (an amount)"]],
    ["Fees: INR 1500", ["fee ₹/Rs (an amount)"]],
    ["reg. fee ₹500", ["fee ₹/Rs (an amount)"]],
    ["Charges: Rs. 300", ["fee ₹/Rs (an amount)"]],
    ["Pay 500 rupees to confirm your seat", ["pay Rs (an amount)"]],
    ["Pay 499/- only", ["pay Rs (an amount)"]],
    ["Deposit ₹2000 before joining", ["deposit ₹/Rs (an amount)"]],
    ["A deposit of ₹1000 is needed", ["deposit ₹/Rs (an amount)"]],
    ["A one-time payment of ₹999 is required", ["payment of ₹/Rs (an amount)"]],
    ["Send ₹500 via UPI", ["send ₹/Rs (an amount)"]],
    ["Transfer Rs 700 to confirm", ["send ₹/Rs (an amount)"]],
    ["Security amount ₹1000", ["security deposit"]],
    ["Refundable caution money ₹3000", ["caution money"]],
    ["पंजीकरण फीस ₹500", ["पंजीकरण शुल्क"]],
    ["पंजीकरण फ़ीस ₹500", ["पंजीकरण शुल्क"]],
    ["₹500 शुल्क देना होगा", ["शुल्क ₹ (an amount)"]],
    ["फीस: ₹ 1,000", ["शुल्क ₹ (an amount)"]],
    ["रजिस्ट्रेशन चार्ज 500", ["रजिस्ट्रेशन फीस"]],
    ["प्रशिक्षण चार्ज देना होगा", ["प्रशिक्षण शुल्क"]],
    ["r\u0435gistration f\u0435\u0435", ["registration fee"]],
    ["\u03A4R\u0391\u0399\u039DING F\u0395\u0395", ["training fee"]],
    ["you pay ₹५००", ["pay ₹ (an amount)"]],
    ["pay ₹٥٠٠", ["pay ₹ (an amount)"]],
    ["Fee ₹५००", ["fee ₹/Rs (an amount)"]],
    ["Training cost ₹4999", ["training fee"]],
    ["registration ke liye ₹500 dene honge", ["₹ देने होंगे (an amount)"]],
    ["चयन के बाद ₹500 जमा करें", ["₹ देने होंगे (an amount)"]],
    ["₹2000 देना पड़ेगा", ["₹ देने होंगे (an amount)"]],
    ["f e e ₹500", ["fee ₹/Rs (an amount)"]],
    ["Pay a f e e of ₹500", ["a fee of ₹/Rs (an amount)"]],
    ["security a m o u n t", ["security deposit"]],
    ["R.E.G.I.S.T.R.A.T.I.O.N. F.E.E. applies", ["registration fee"]],
    ["r e g i s t r a t i o n  f e e", ["registration fee"]],
    ["p-a-y ₹ 500", ["pay ₹ (an amount)"]],
    ["pay ₹ five hundred", ["pay ₹ (an amount)"]],
    ["Pay five hundred rupees to confirm", ["pay Rs (an amount)"]],
    ["pay ₹ 5 thousand", ["pay ₹ (an amount)"]],
    ["A fee of Rs one thousand", ["a fee of ₹/Rs (an amount)"]],
    ["₹ पाँच सौ देने होंगे", ["₹ देने होंगे (an amount)"]],
    ["registration and training fee ₹500", ["training fee"]],
  ];
  for (const [text, labels] of cases) assertEquals(moneyPhrasesIn(text), labels, text);
});

Deno.test("money the intern is paid, and reassurances, beside the new fee forms stay clear", () => {
  for (
    const text of [
      "stipend ₹5000",
      "Stipend: ₹10,000/month",
      "we pay ₹5000 a month",
      "We pay 5000 rupees a month",
      "Our interns are paid 5000 rupees",
      "पैसे नहीं लगेंगे",
      "no deposit needed",
      "Joining bonus ₹5000",
      "₹5000 training stipend",
      "We deposit ₹8000 in your bank account every month",
      "Stipend payment of ₹5000 each month",
      "Monthly payment of ₹8000",
      "We'll send ₹2000 for travel",
      "Travel allowance ₹2000",
      "Fee reimbursement up to ₹2000",
      "Free registration, stipend ₹6000",
      "Registration closes on 5 May",
      "Class of 2025 registration",
      "₹8000 मासिक वजीफा",
      "पंजीकरण निःशुल्क है",
      "There is no security amount",
      "No caution money",
      "No payment of ₹ any kind",
      "You will receive a payment of ₹5000 every month as stipend.",
      "Interns receive a monthly stipend; the first payment of ₹8,000 is made after 30 days.",
      "Travel allowance: deposit of ₹3000 credited to your bank account every month.",
      "Prize money: payment of ₹10,000 to the winner.",
      "Send ₹500? Never. We never ask for money.",
      "You get a payment of Rs 6000 at the end of each month",
      "We bear the training cost",
      "You will not pay any training cost",
      "You will not pay any training cost of ₹5000",
      "हम हर महीने ₹8000 देंगे",
      "आपको ₹8000 हर महीने दिए जाएँगे",
      "₹500 जमा करने की ज़रूरत नहीं",
      "₹500 देने की ज़रूरत नहीं",
      "stipend ₹5000 जमा होगा",
      "स्टाइपेंड ₹5000 हर महीने आपके खाते में जमा होगा",
      "stipend ₹5000 dena hai har mahine",
      "हर महीने स्टाइपेंड ₹8000 देना होगा, यह हमारी ज़िम्मेदारी है",
      "No registration and training fee",
      "There is no registration and training fee or security deposit",
      "कोई पंजीकरण और प्रशिक्षण शुल्क नहीं",
      "No f e e of any kind",
      "Grade A, B, C students are welcome",
      "We pay ₹ five thousand a month",
      "Stipend: Rs ten thousand a month",
      "You get a payment of Rs five thousand every month",
      "Payment of ₹ one lakh to the winner",
    ]
  ) assertEquals(moneyPhrasesIn(text), [], text);
});
