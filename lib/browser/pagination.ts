/** Browser-safe: where a page of a paged list sits, in words ("11–20 of 34"), for its links and status text. */

/** "11–20 of 34" for a page of `shown` (at least 1) items starting at the 0-based `offset`. */
export function pageRange(offset: number, shown: number, total: number): string {
  return `${offset + 1}–${offset + shown} of ${total}`;
}

/** Where a page sits: its `pageRange`, or "34 in all" for an empty page (past the end). */
export function pagePosition(offset: number, shown: number, total: number): string {
  return shown > 0 ? pageRange(offset, shown, total) : `${total} in all`;
}
