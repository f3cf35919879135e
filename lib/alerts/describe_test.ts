import { assert, assertEquals } from "@/tests/helpers/assert.ts";
import { translatorFor } from "@/lib/i18n/catalogue.ts";
import { describeAlert } from "./describe.ts";

Deno.test("an alert in words names its types as the list pages do, in the reader's language", () => {
  const internships = { kind: "internships" as const, query: { location: "Pune", types: "remote,hybrid" } };
  const opportunities = { kind: "opportunities" as const, query: { type: "hackathon" } };
  assertEquals(
    describeAlert(internships, translatorFor("en")),
    "Internships: location Pune, work type Remote or Hybrid",
  );
  assertEquals(describeAlert(internships, translatorFor("hi")), "इंटर्नशिप: जगह Pune, काम की जगह रिमोट या हाइब्रिड");
  assertEquals(describeAlert(opportunities, translatorFor("en")), "Opportunities: type Hackathon");
  assertEquals(describeAlert(opportunities, translatorFor("hi")), "अवसर: प्रकार हैकाथॉन");
  assertEquals(describeAlert({ kind: "internships", query: {} }, translatorFor("hi")), "सभी नई इंटर्नशिप");
});

Deno.test("an alert writes its stipends as listings write money: ₹10,000, ₹1,00,000", () => {
  const paid = { kind: "internships" as const, query: { minStipend: 10000, maxStipend: 100000 } };
  assertEquals(
    describeAlert(paid, translatorFor("en")),
    "Internships: stipend from ₹10,000, stipend up to ₹1,00,000",
  );
  const hindi = describeAlert(paid, translatorFor("hi"));
  assert(hindi.includes("₹10,000") && hindi.includes("₹1,00,000"), hindi);
});
