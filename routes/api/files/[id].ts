/**
 * `GET /api/files/{id}`: an uploaded image; its `apiDocs` below are its description (docs/api.md, Ungatekeep;
 * docs/decisions.md, Ungatekeep and banners, "Images").
 */
import { define } from "@/lib/platform/define.ts";
import { readFile } from "@/lib/files/images.ts";
import { describeRoute } from "@/lib/openapi/describe.ts";

const CACHE_CONTROL = "public, max-age=31536000, immutable";

function matches(ifNoneMatch: string | null, etag: string): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch.trim() === "*" ||
    ifNoneMatch.split(",").some((tag) => tag.trim().replace(/^W\//, "") === etag);
}

export const apiDocs = describeRoute({
  section: "Ungatekeep",
  GET: {
    summary: "An uploaded file",
    description: "With its content type, `ETag` and a year of immutable caching (an id never changes content; an " +
      "answer that also renews the session cookie is `private, no-store`); `If-None-Match` with the current tag is " +
      "304. A file whose upload never finished is 404.",
    responses: {
      200: { description: "The file", mediaType: "image/*" },
      304: "Not modified",
      404: "File not found",
    },
  },
});

export const handler = define.handlers({
  async GET(req, ctx) {
    const { metadata, body } = await readFile(ctx.state.services.files, ctx.params.id);
    const headers = { etag: metadata.etag, "cache-control": CACHE_CONTROL };
    if (matches(req.headers.get("if-none-match"), metadata.etag)) {
      await body.cancel();
      return new Response(null, { status: 304, headers });
    }
    return new Response(body, {
      headers: { ...headers, "content-type": metadata.contentType, "content-length": String(metadata.size) },
    });
  },
});
