/**
 * The offsets of the paged public list pages (`/opportunities`, `/internships`, `/ungatekeep`, an organization's page;
 * docs/decisions.md, Guest pages, "Pages past the end"): a page past the end of a list that has one is not a page,
 * and a canonical link names the page an offset falls in.
 */
import { NotFoundError } from "@/lib/errors.ts";

/**
 * Refuses a page starting at `offset` (0-based) of a list of `total` items when it is past the end: any offset but 0
 * at or past `total`. The first page is always a page (the empty state when there is nothing).
 * @throws NotFoundError, which a page answers with the 404 page in the reader's language; the guest page cache keeps
 *   no answer but a 200, so no such offset makes an entry.
 */
export function assertWithinList(offset: number, total: number): void {
  if (offset > 0 && offset >= total) throw new NotFoundError();
}

/** The first offset of the page of `pageSize` items that `offset` falls in: what the page's canonical link names. */
export function alignedOffset(offset: number, pageSize: number): number {
  return offset - offset % pageSize;
}
