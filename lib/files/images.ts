/**
 * Image uploads (docs/decisions.md, Ungatekeep and banners, "Images"): PNG, JPEG, WebP or GIF, recognised by their
 * bytes (`file-type`), never by the type the client declared; at most 5 MB. Stored in the object store with the
 * detected content type.
 */
import { InvalidInputError, NotFoundError, TooLargeError } from "@/lib/errors.ts";
import type { FileMetadata, ObjectStore } from "./object_store.ts";
import { REFUSALS } from "@/lib/refusals.ts";
import type { Logger } from "@/lib/log.ts";

/** Largest image in bytes: 5 MB. */
export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;

/** The content types an image upload may have. */
export const IMAGE_TYPES: readonly string[] = ["image/png", "image/jpeg", "image/webp", "image/gif"];

/** The path an uploaded file is served at (`GET /api/files/{id}`). */
export function fileUrl(id: string): string {
  return `/api/files/${id}`;
}

/**
 * `text` (a cover's address, a lesson's HTML) with every address of an upload at the site's own origin (that of
 * `appUrl`, any case: `https://site/api/files/{id}`) written as the upload's path (`/api/files/{id}`), the one form the
 * clean-up of unused images counts as a use (docs/decisions.md, Ungatekeep and banners, "Images").
 */
export function ownFilePaths(text: string, appUrl: string): string {
  const origin = new URL(appUrl).origin.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
  // Not inside another address (`?u=https://site/...`): only where an address starts.
  return text.replace(new RegExp(`(?<![\\w/?&%.:=-])${origin}(?=${fileUrl("")})`, "gi"), "");
}

/**
 * Checks and stores one image.
 * @throws TooLargeError over 5 MB; InvalidInputError "File must be a PNG, JPEG, WebP or GIF image"
 *   when the bytes are not one of those formats (whatever the declared type).
 */
export async function storeImage(store: ObjectStore, bytes: Uint8Array): Promise<FileMetadata> {
  if (bytes.length > MAX_IMAGE_BYTES) throw new TooLargeError(REFUSALS.imageTooLarge, MAX_IMAGE_BYTES);
  // file-type (~4 MB of memory) is loaded with the first upload, not with the server.
  const { fileTypeFromBuffer } = await import("file-type");
  const detected = await fileTypeFromBuffer(bytes);
  if (!detected || !IMAGE_TYPES.includes(detected.mime)) {
    throw new InvalidInputError(REFUSALS.imageType);
  }
  return await store.put(bytes, detected.mime);
}

/**
 * Checks that every id names a stored file.
 * @throws InvalidInputError "Unknown image" (`REFUSALS.unknownImage`) when an id is not an upload.
 */
export async function assertUploaded(store: ObjectStore, ids: readonly string[]): Promise<void> {
  const found = await Promise.all(ids.map((id) => store.metadata(id)));
  const missing = ids.find((_, i) => !found[i]);
  if (missing !== undefined) throw new InvalidInputError(REFUSALS.unknownImage);
}

/**
 * The stored image `id`, for serving to anyone. Only images are public: other files in the store (resumes) are served
 * by their own routes, to the people allowed to read them (docs/decisions.md, Applications, "Resumes").
 * @throws NotFoundError "File not found" when unknown, not completely written, or not an image.
 */
export async function readFile(store: ObjectStore, id: string) {
  const metadata = /^[0-9a-f-]{36}$/.test(id) ? await store.metadata(id) : null;
  const file = metadata && IMAGE_TYPES.includes(metadata.contentType) ? await store.get(id) : null;
  if (!file) throw new NotFoundError(REFUSALS.imageNotFound);
  return file;
}

/**
 * Deletes the images `ids` from the object store, each on its own (`Promise.allSettled`), after the write that stopped
 * naming them: one the store fails to delete is logged with `log` as `message` (e.g. "post image not deleted"), with
 * the other `fields` (e.g. `{postId}`) and its `imageId`, and stays stored. Never throws.
 */
export async function deleteImages(
  { files, log }: { files: ObjectStore; log: Logger },
  ids: readonly string[],
  { message, ...fields }: { message: string } & Record<string, string>,
): Promise<void> {
  const deleted = await Promise.allSettled(ids.map((id) => files.delete(id)));
  deleted.forEach((result, i) => {
    if (result.status === "rejected") log.error(message, { ...fields, imageId: ids[i], error: String(result.reason) });
  });
}
