import { assert, assertEquals } from "@/tests/helpers/assert.ts";
import { translatorFor } from "@/lib/i18n/catalogue.ts";
import { NOT_EDITABLE as OPPORTUNITY_NOT_EDITABLE } from "@/lib/opportunities/opportunities.ts";
import { RESUME_CHANGED } from "@/lib/resumes/resumes.ts";
import { REFUSAL_KEYS, refusalText } from "./refusal_text.ts";

const [en, hi] = [translatorFor("en"), translatorFor("hi")];
/** Sentences whose English words on a page differ from the API's. */
const REWORDED = new Set([
  "Too many requests, try again later",
  "Invalid status change",
  OPPORTUNITY_NOT_EDITABLE,
  RESUME_CHANGED,
]);

Deno.test("a listed refusal reads as the API's sentence in English and in Hindi for a Hindi page", () => {
  for (const [sentence] of REFUSAL_KEYS) {
    if (!REWORDED.has(sentence)) assertEquals(refusalText(en, sentence), `${sentence.replace(/\.$/, "")}.`);
    assert(/[\u0900-\u097F]/.test(refusalText(hi, new Error(sentence))), `${sentence} in Hindi`);
  }
});

Deno.test("a refusal not listed is shown as the domain wrote it", () => {
  assertEquals(refusalText(hi, new Error("Something new went wrong")), "Something new went wrong");
});
