/**
 * The object store seam (docs/decisions.md, Ungatekeep and banners, "Images"): files of at most a few megabytes, kept
 * by id with their content type, size and `ETag`. `KvObjectStore` (Deno KV, chunked values) is the default; an
 * S3-compatible store implements the same interface.
 */

/** What is known of a stored file. `etag` is a quoted strong validator; `size` is in bytes. */
export interface FileMetadata {
  id: string;
  contentType: string;
  size: number;
  etag: string;
  createdAt: string;
}

/** A stored file: its metadata and its bytes as a stream, read on demand. */
export interface StoredObject {
  metadata: FileMetadata;
  body: ReadableStream<Uint8Array>;
}

/** Where uploaded files live. A file is readable only once `put` has resolved. */
export interface ObjectStore {
  /** Stores `data` under a new id and resolves to its metadata. A failed or interrupted put stores nothing readable. */
  put(data: Uint8Array | ReadableStream<Uint8Array>, contentType: string): Promise<FileMetadata>;
  /** The file with its bytes, or null when unknown (or not completely written). */
  get(id: string): Promise<StoredObject | null>;
  /** The file's metadata, or null when unknown (or not completely written). */
  metadata(id: string): Promise<FileMetadata | null>;
  /** Deletes the file; deleting an unknown id does nothing. */
  delete(id: string): Promise<void>;
}
