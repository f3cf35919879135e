import { assert } from "@/tests/helpers/assert.ts";
import { valueBytes } from "@/lib/kv/value_size.ts";
import { ARTICLE_MAX, ARTICLE_MAX_BYTES } from "./limits.ts";

Deno.test("ARTICLE_MAX is the longest article ARTICLE_MAX_BYTES admits, as valueBytes counts it", () => {
  assert(valueBytes("न".repeat(ARTICLE_MAX)) <= ARTICLE_MAX_BYTES, "the longest article fits");
  assert(valueBytes("न".repeat(ARTICLE_MAX + 1)) > ARTICLE_MAX_BYTES, "one character more does not");
});
