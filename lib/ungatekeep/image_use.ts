/**
 * Which uploaded images banners, posts, toolkit covers and lessons still name (docs/decisions.md, Ungatekeep and
 * banners, "Images"): one upload may be used by several of them, so an image one of them drops, or one a deleted
 * banner, post or toolkit had, is deleted from the object store only when none names it any more. A cover or a lesson
 * names an upload by its path, `/api/files/{id}` (the toolkit routes write the site's own full address of one as its
 * path: `ownFilePaths`). A profile picture never names one (`isProfileImage` refuses it), so profiles are not read.
 * The key prefixes of the four records are defined here, so the scan reads exactly what
 * `banners.ts`, `posts.ts` and `lib/toolkits/catalog.ts` write.
 */
import { deleteImages } from "@/lib/files/images.ts";
import type { ObjectStore } from "@/lib/files/object_store.ts";
import type { Logger } from "@/lib/log.ts";

/** The prefix of the banner records, `["banners", id]` (written by `banners.ts` only). */
export const BANNERS_PREFIX: Deno.KvKey = ["banners"];
/** The prefix of the post records, `["ungatekeep_posts", id]` (written by `posts.ts` only). */
export const POSTS_PREFIX: Deno.KvKey = ["ungatekeep_posts"];
/** The prefix of the toolkit records, `["toolkits", id]` (written by `lib/toolkits/catalog.ts` only). */
export const TOOLKITS_PREFIX: Deno.KvKey = ["toolkits"];
/** The prefix of the lessons, `["toolkit_items", toolkitId, id]` (written by `lib/toolkits/catalog.ts` only). */
export const LESSONS_PREFIX: Deno.KvKey = ["toolkit_items"];

/** An upload's path as an article's HTML holds it once sanitized: a quoted `src` or `href` attribute. */
const LESSON_UPLOAD = /(?:src|href)="\/api\/files\/([^"/?#]+)"/g;

/** The upload a cover names (its path, `/api/files/{id}`: the id), or null for an address elsewhere or no cover. */
export function uploadOf(coverImageUrl: string | null | undefined): string | null {
  return /^\/api\/files\/([^/?#]+)$/.exec(coverImageUrl ?? "")?.[1] ?? null;
}

/**
 * Deletes those of the images `ids` that no banner, post, toolkit cover or lesson names any more (a scan of the four
 * lists, smallest first, that stops once every one of `ids` is found named; none at all for no `ids`, a post without
 * images; the lessons, up to 60 KB each, are read only for an image named nowhere else), as `deleteImages`
 * does: one the store fails to delete is logged with `message` and `fields`. Called after the write that stopped naming
 * them. Never throws for the store; throws what a KV read throws.
 */
export async function deleteUnusedImages(
  kv: Deno.Kv,
  { files, log }: { files: ObjectStore; log: Logger },
  ids: readonly string[],
  fields: { message: string } & Record<string, string>,
): Promise<void> {
  const unused = new Set(ids);
  if (unused.size === 0) return;
  for await (const entry of kv.list<{ imageId?: string | null }>({ prefix: BANNERS_PREFIX })) {
    if (entry.value.imageId) unused.delete(entry.value.imageId);
    if (unused.size === 0) return;
  }
  for await (const entry of kv.list<{ images?: readonly string[] }>({ prefix: POSTS_PREFIX })) {
    for (const image of entry.value.images ?? []) unused.delete(image);
    if (unused.size === 0) return;
  }
  for await (const entry of kv.list<{ coverImageUrl?: string | null }>({ prefix: TOOLKITS_PREFIX })) {
    const cover = uploadOf(entry.value.coverImageUrl);
    if (cover) unused.delete(cover);
    if (unused.size === 0) return;
  }
  for await (const entry of kv.list<{ content?: string | null }>({ prefix: LESSONS_PREFIX })) {
    for (const [, id] of (entry.value.content ?? "").matchAll(LESSON_UPLOAD)) unused.delete(id);
    if (unused.size === 0) return;
  }
  await deleteImages({ files, log }, [...unused], fields);
}
