/**
 * The size bounds of a lesson (docs/decisions.md, Toolkits and payments, "Lesson size"), plain constants that islands
 * import too.
 */
import { valueBytes } from "@/lib/kv/value_size.ts";

/**
 * The most bytes an article body may take in its lesson's KV value, as `valueBytes` counts them (two bytes a UTF-16
 * unit, whatever the script): one value holds 64 KiB, and the rest of the lesson record has the remainder.
 */
export const ARTICLE_MAX_BYTES = 60_000;
/** The longest article body in characters (UTF-16 units, before sanitizing): the most `ARTICLE_MAX_BYTES` admits. */
export const ARTICLE_MAX = (ARTICLE_MAX_BYTES - valueBytes("")) / 2;
