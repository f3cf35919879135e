/**
 * Browser-safe: an admin's image upload (`POST /api/admin/uploads`, multipart, the file in `file`; docs/decisions.md,
 * Ungatekeep and banners, "Images"), for the forms that take an image: a banner's, a toolkit's cover.
 */
import type { ApiResult } from "@/lib/browser/fetch_json.ts";

/** An uploaded image: its id and the path it is served at (`/api/files/{id}`). */
export interface UploadedImage {
  id: string;
  url: string;
}

/**
 * Uploads `file`. Never throws: a refusal comes back as an `ApiFailure` with the server's `{error}` (an image over
 * 5 MB, not an image) for `failureMessage` to word; a network failure as status 0.
 */
export async function uploadImage(file: File): Promise<ApiResult<UploadedImage>> {
  const data = new FormData();
  data.set("file", file);
  let res: Response;
  try {
    res = await fetch("/api/admin/uploads", { method: "POST", body: data, headers: { accept: "application/json" } });
  } catch {
    return { ok: false, status: 0, apiError: "", fields: [] };
  }
  const body = await res.json().catch(() => null);
  if (res.status === 201) return { ok: true, status: 201, data: body as UploadedImage };
  return { ok: false, status: res.status, apiError: typeof body?.error === "string" ? body.error : "", fields: [] };
}
