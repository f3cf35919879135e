/**
 * A `Content-Type` header's media type, its parameters (charset, multipart boundary) aside, in lower case (media types
 * are case-insensitive); "" when the header is absent. The one reading of a body's type for the JSON reader
 * (`lib/http/json.ts`) and the pages' form posts (`lib/http/form_posts.ts`).
 */
export function mediaTypeOf(contentType: string | null): string {
  return (contentType ?? "").split(";", 1)[0].trim().toLowerCase();
}
