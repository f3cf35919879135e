/**
 * The size bounds of a lesson (docs/decisions.md, Toolkits and payments, "Lesson size"), plain constants that islands
 * import too (so this module imports nothing: `limits_test.ts` holds them to `valueBytes`, `lib/kv/value_size.ts`).
 */

/**
 * The longest article body in characters (UTF-16 units, before sanitizing), a round number a form can state: one KV
 * value holds 64 KiB, and the rest of the lesson record has what `ARTICLE_MAX_BYTES` leaves.
 */
export const ARTICLE_MAX = 30_000;
/**
 * The most bytes an article body may take in its lesson's KV value, as `valueBytes` counts them: `ARTICLE_MAX`
 * characters at two bytes each (whatever the script) and a string's 8-byte header.
 */
export const ARTICLE_MAX_BYTES = ARTICLE_MAX * 2 + 8;
