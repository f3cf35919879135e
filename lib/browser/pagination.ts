/** Browser-safe: where a page of a paged list sits, in words ("11–20 of 34"), for its links and status text. */
import type { Translate } from "@/lib/i18n/translator.ts";

/**
 * "11–20 of 34" for a page of `shown` (at least 1) items starting at the 0-based `offset`, in `t`'s language (English
 * without one: an island still without its messages).
 */
export function pageRange(t: Translate | null, offset: number, shown: number, total: number): string {
  if (!t) return `${offset + 1}–${offset + shown} of ${total}`;
  return t("common.pagination.range", { from: offset + 1, to: offset + shown, total });
}

/** Where a page sits: its `pageRange`, or "34 in all" for an empty page (past the end). */
export function pagePosition(t: Translate | null, offset: number, shown: number, total: number): string {
  if (shown > 0) return pageRange(t, offset, shown, total);
  return t ? t("common.pagination.inAll", { total }) : `${total} in all`;
}
