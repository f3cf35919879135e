/**
 * The size bounds of a lesson (docs/decisions.md, Toolkits and payments, "Lesson size"), plain constants that islands
 * import too (so this module imports nothing: `limits_test.ts` holds them to `valueBytes`, `lib/kv/value_size.ts`).
 */

/**
 * The most bytes an article body may take in its lesson's KV value, as `valueBytes` counts them (two bytes a UTF-16
 * unit, whatever the script): one value holds 64 KiB, and the rest of the lesson record has the remainder.
 */
export const ARTICLE_MAX_BYTES = 60_000;
/**
 * The longest article body in characters (UTF-16 units, before sanitizing): the most `ARTICLE_MAX_BYTES` admits, once
 * `valueBytes` adds a string's 8-byte header.
 */
export const ARTICLE_MAX = 29_996;
