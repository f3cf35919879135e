/**
 * Which uploaded images banners, posts and toolkit covers still name (docs/decisions.md, Ungatekeep and banners,
 * "Images"): one upload may be used by several banners, posts and covers, so an image one of them drops, or one a
 * deleted banner, post or toolkit had, is deleted from the object store only when none names it any more. The key
 * prefixes of the three records are defined here, so the scan reads exactly what `banners.ts`, `posts.ts` and
 * `lib/toolkits/catalog.ts` write.
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

/** The upload a cover names (its path, `/api/files/{id}`: the id), or null for an address elsewhere or no cover. */
export function uploadOf(coverImageUrl: string | null | undefined): string | null {
  return /^\/api\/files\/([^/?#]+)$/.exec(coverImageUrl ?? "")?.[1] ?? null;
}

/**
 * Deletes those of the images `ids` that no banner, post or toolkit cover names any more (a scan of the three lists,
 * which are small, that stops once every one of `ids` is found named; none at all for no `ids`, a post without
 * images), as `deleteImages`
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
  await deleteImages({ files, log }, [...unused], fields);
}
