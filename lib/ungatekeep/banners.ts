/**
 * Banners of the carousel at the top of the Ungatekeep feed (docs/api.md, Ungatekeep, docs/decisions.md, Ungatekeep
 * and banners, "Banners"): admin CRUD and the public list of active banners by `orderIndex`. `linkUrl` is an http(s)
 * URL or a path on this site, never `javascript:` or `data:`; `imageId` names an uploaded file, deleted with its
 * banner or once an update replaces or removes it, unless another banner, a post, a toolkit cover or a lesson names it
 * (`image_use.ts`). Keys (written here only): `["banners", id]` (`BANNERS_PREFIX`). The list is small (a carousel), so
 * it is read whole.
 */
import type { AuditHook } from "@/lib/admin_log/admin_log.ts";
import { z } from "zod";
import { TextSchema } from "@/lib/text.ts";
import { BusyError, NotFoundError } from "@/lib/errors.ts";
import { assertUploaded } from "@/lib/files/images.ts";
import { BANNERS_PREFIX, deleteUnusedImages } from "./image_use.ts";
import type { ObjectStore } from "@/lib/files/object_store.ts";
import type { Logger } from "@/lib/log.ts";
import { HttpUrlSchema } from "./schema.ts";
import { PLATFORM_REFUSALS, REFUSALS } from "@/lib/refusals.ts";

/** A banner as stored and returned. */
export interface Banner {
  id: string;
  title: string;
  imageId: string | null;
  linkUrl: string | null;
  isActive: boolean;
  orderIndex: number;
  createdAt: string;
  updatedAt: string;
}

/** A banner as the feed's carousel shows it: its image as a file path, or null without one. */
export type BannerSlide = Pick<Banner, "id" | "title" | "linkUrl"> & { imageUrl: string | null };

/** `banner` as a carousel slide (`imageId` becomes the path that serves the image). */
export function bannerSlide({ id, title, imageId, linkUrl }: Banner): BannerSlide {
  return { id, title, imageUrl: imageId ? `/api/files/${imageId}` : null, linkUrl };
}

const NOT_FOUND = REFUSALS.bannerNotFound;
const MAX_RETRIES = 10;
const bannerKey = (id: string): Deno.KvKey => [...BANNERS_PREFIX, id];

/** A path on this site (one leading slash) or an http(s) URL. */
const LinkSchema = z.union([
  z.string().regex(/^\/(?![/\\])[^\s\\]*$/, "fields.linkOrPath").max(2048),
  HttpUrlSchema,
], { error: "fields.linkOrPath" });

const fields = {
  title: TextSchema.trim().min(1).max(200),
  imageId: z.string().max(100).nullable(),
  linkUrl: LinkSchema.nullable(),
  isActive: z.boolean(),
  orderIndex: z.int().min(0).max(1_000_000),
};

/** Body of `POST /api/admin/banners`: `title` required; `isActive` default true, `orderIndex` default 0. */
export const BannerCreateSchema = z.object({
  ...fields,
  imageId: fields.imageId.default(null),
  linkUrl: fields.linkUrl.default(null),
  isActive: fields.isActive.default(true),
  orderIndex: fields.orderIndex.default(0),
});
export type BannerCreate = z.infer<typeof BannerCreateSchema>;

/** Body of `PATCH /api/admin/banners/{id}`: any subset of the fields. */
export const BannerUpdateSchema = z.object(fields).partial();
export type BannerUpdate = z.infer<typeof BannerUpdateSchema>;

/** Every banner by `orderIndex` (then creation); with `activeOnly`, only the active ones. */
export async function listBanners(kv: Deno.Kv, activeOnly: boolean): Promise<Banner[]> {
  const banners: Banner[] = [];
  for await (const entry of kv.list<Banner>({ prefix: BANNERS_PREFIX })) {
    if (!activeOnly || entry.value.isActive) banners.push(entry.value);
  }
  return banners.sort((a, b) => a.orderIndex - b.orderIndex || a.createdAt.localeCompare(b.createdAt));
}

/**
 * Creates a banner of `input`, with `audit`'s entry in the same write.
 * @throws InvalidInputError "Unknown image" when `imageId` is not an upload (in `files`).
 */
export async function createBanner(
  kv: Deno.Kv,
  { files, input, audit }: { files: ObjectStore; input: BannerCreate; audit?: AuditHook },
): Promise<Banner> {
  if (input.imageId) await assertUploaded(files, [input.imageId]);
  const now = new Date().toISOString();
  const banner: Banner = { id: crypto.randomUUID(), ...input, createdAt: now, updatedAt: now };
  const op = kv.atomic().set(bannerKey(banner.id), banner);
  audit?.(op, banner.id, banner.title);
  await op.commit();
  return banner;
}

/**
 * Applies `patch` (only the fields given) to banner `id`, with `audit`'s entry in the same write. An image the patch
 * replaces or removes is deleted from the object store after the commit unless another banner, a post, a toolkit cover or
 * a lesson names it (docs/decisions.md, Ungatekeep and banners, "Images"); a failed delete is logged with `log` and the file left stored, never failing the edit.
 * @throws NotFoundError "Banner not found"; InvalidInputError for an `imageId` that is not an upload;
 * BusyError after lost races.
 */
export async function updateBanner(
  kv: Deno.Kv,
  { files, log, id, patch, audit }: {
    files: ObjectStore;
    log: Logger;
    id: string;
    patch: BannerUpdate;
    audit?: AuditHook;
  },
): Promise<Banner> {
  if (patch.imageId) await assertUploaded(files, [patch.imageId]);
  const changes = Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined));
  for (let attempt = 0; attempt < MAX_RETRIES; attempt++) {
    const entry = await kv.get<Banner>(bannerKey(id));
    if (!entry.value) throw new NotFoundError(NOT_FOUND);
    const banner: Banner = { ...entry.value, ...changes, updatedAt: new Date().toISOString() };
    const op = kv.atomic().check(entry).set(entry.key, banner);
    audit?.(op, id, banner.title);
    if ((await op.commit()).ok) {
      const dropped = entry.value.imageId;
      if (dropped && dropped !== banner.imageId) {
        await deleteUnusedImages(kv, { files, log }, [dropped], { message: "banner image not deleted", bannerId: id });
      }
      return banner;
    }
  }
  throw new BusyError(PLATFORM_REFUSALS.busy);
}

/**
 * Deletes banner `id` (with `audit`'s entry in the same write), then its image from the object store `files` unless
 * another banner, a post, a toolkit cover or a lesson names it (`deleteUnusedImages`; a failed delete is logged with
 * `log`, never failing this).
 * @throws NotFoundError "Banner not found"; BusyError `PLATFORM_REFUSALS.busy` (503) after `MAX_RETRIES` lost races,
 *   nothing deleted.
 */
export async function deleteBanner(
  kv: Deno.Kv,
  { files, log, id, audit }: { files: ObjectStore; log: Logger; id: string; audit?: AuditHook },
): Promise<void> {
  for (let attempt = 0; attempt < MAX_RETRIES; attempt++) {
    const entry = await kv.get<Banner>(bannerKey(id));
    if (!entry.value) throw new NotFoundError(NOT_FOUND);
    const op = kv.atomic().check(entry).delete(entry.key);
    audit?.(op, id, entry.value.title);
    if ((await op.commit()).ok) {
      if (entry.value.imageId) {
        await deleteUnusedImages(kv, { files, log }, [entry.value.imageId], {
          message: "banner image not deleted",
          bannerId: id,
        });
      }
      return;
    }
  }
  throw new BusyError(PLATFORM_REFUSALS.busy);
}
