/**
 * Answering a private file (docs/decisions.md, Applications, "Resumes"): a resume is shown in the browser's own PDF
 * viewer, never stored by a cache or a proxy, and never read as anything but a PDF.
 */
import type { StoredObject } from "@/lib/files/object_store.ts";

/** `filename` as an ASCII fallback for `Content-Disposition` (anything else becomes `_`). */
function asciiName(filename: string): string {
  return filename.replace(/[^\x20-\x7e]|["\\]/g, "_");
}

/**
 * The response of the PDF `file`, named `filename` for a download: `Content-Type: application/pdf`, `Cache-Control:
 * private, no-store`, `X-Content-Type-Options: nosniff` and `Content-Disposition: inline` with the name (RFC 6266).
 */
export function pdfResponse(file: StoredObject, filename: string): Response {
  return new Response(file.body, {
    headers: {
      "content-type": "application/pdf",
      "content-length": String(file.metadata.size),
      "cache-control": "private, no-store",
      "x-content-type-options": "nosniff",
      "content-disposition": `inline; filename="${asciiName(filename)}"; filename*=UTF-8''${
        encodeURIComponent(filename)
      }`,
    },
  });
}
