/**
 * The queries and offsets of paged list pages: the public ones (`/opportunities`, `/internships`, `/ungatekeep`, an
 * organization's page; docs/decisions.md, Guest pages, "Pages past the end"), where a page past the end of a list that
 * has one is not a page and a canonical link names the page an offset falls in; and the admin's lists filtered by
 * `status` and `kind` (`/admin/reports`, `/admin/moderation`), whose query one function reads (`adminListQuery`).
 */
import type { z } from "zod";
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

/**
 * The query of an admin list page filtered by `status` and `kind` (`/admin/reports`, `/admin/moderation`) as `schema`,
 * the query schema of the list's API, reads it: `status` and `kind` when not empty (a link to all of them names none),
 * `offset` (0 when absent) and `limit` the page's `pageSize`. A query the schema refuses (an unknown status or kind, an
 * offset that is not a whole number) gives the first page of the unfiltered list: a page answers a link it cannot read
 * with the list, where the API answers 400.
 */
export function adminListQuery<T>(schema: z.ZodType<T>, params: URLSearchParams, pageSize: number): T {
  const limit = String(pageSize);
  const parsed = schema.safeParse({
    ...params.get("status") ? { status: params.get("status") } : {},
    ...params.get("kind") ? { kind: params.get("kind") } : {},
    offset: params.get("offset") ?? "0",
    limit,
  });
  return parsed.success ? parsed.data : schema.parse({ limit });
}
