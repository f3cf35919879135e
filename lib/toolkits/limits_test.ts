import { assert, assertEquals } from "@/tests/helpers/assert.ts";
import { KV_VALUE_MAX_BYTES, valueBytes } from "@/lib/kv/value_size.ts";
import { ARTICLE_MAX, ARTICLE_MAX_BYTES } from "./limits.ts";
import type { ContentItem } from "./schema.ts";

Deno.test("ARTICLE_MAX is the longest body within ARTICLE_MAX_BYTES by valueBytes, in any script", () => {
  for (const letter of ["a", "न", "₹"]) {
    assert(valueBytes(letter.repeat(ARTICLE_MAX)) <= ARTICLE_MAX_BYTES, letter);
    assert(valueBytes(letter.repeat(ARTICLE_MAX + 1)) > ARTICLE_MAX_BYTES, letter);
  }
  assertEquals(ARTICLE_MAX, 29_996);
});

Deno.test("a lesson with the longest body and title in Hindi fits one KV value", () => {
  const at = new Date().toISOString();
  const item: ContentItem = {
    id: crypto.randomUUID(),
    toolkitId: "t".repeat(100),
    title: "न".repeat(200),
    type: "article",
    content: "न".repeat(ARTICLE_MAX),
    cdnVideoUrl: null,
    orderIndex: 100_000,
    isPreview: true,
    createdAt: at,
    updatedAt: at,
  };
  assert(valueBytes(item) <= KV_VALUE_MAX_BYTES, `${valueBytes(item)} bytes`);
});
