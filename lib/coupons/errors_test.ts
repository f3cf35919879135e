import { assert, assertEquals } from "@/tests/helpers/assert.ts";
import { translatorFor } from "@/lib/i18n/catalogue.ts";
import { refusalText } from "@/lib/refusals.ts";
import { COUPON_ERRORS, couponRefusalKey } from "./errors.ts";

Deno.test("every coupon refusal has words in both languages; any other sentence has none", () => {
  for (const sentence of Object.values(COUPON_ERRORS)) {
    const key = couponRefusalKey(sentence);
    assert(key, sentence);
    for (const lang of ["en", "hi"] as const) {
      const words: string = translatorFor(lang)(key);
      assert(words !== key && words !== sentence, `${lang}: ${sentence}`);
    }
  }
  assertEquals(couponRefusalKey("Toolkit not found"), undefined);
  assertEquals(refusalText(translatorFor("hi"), COUPON_ERRORS.expired), "इस कूपन की मियाद ख़त्म हो चुकी है।");
});
