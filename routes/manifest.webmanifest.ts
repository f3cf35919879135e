/**
 * `/manifest.webmanifest` (docs/decisions.md, Installable and offline, "Manifest"): the web app manifest in the
 * request's language (`?lang=hi`, as pages link it, else as the language step decides), made once per language and
 * revalidated by ETag like a file of `static/`.
 */
import { define } from "@/lib/platform/define.ts";
import type { Lang } from "@/lib/i18n/languages.ts";
import { webManifest } from "@/lib/offline/web_manifest.ts";

interface Kept {
  body: Uint8Array<ArrayBuffer>;
  etag: string;
}

/** Each language's manifest, made at its first request. */
const kept = new Map<Lang, Promise<Kept>>();

async function make(lang: Lang): Promise<Kept> {
  const body = new TextEncoder().encode(JSON.stringify(webManifest(lang), null, 2));
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-1", body));
  return {
    body,
    etag: `"${lang}-${Array.from(digest.slice(0, 10), (b) => b.toString(16).padStart(2, "0")).join("")}"`,
  };
}

export const handler = define.handlers({
  async GET(req, ctx) {
    const lang = ctx.state.lang;
    if (!kept.has(lang)) kept.set(lang, make(lang));
    const { body, etag } = await kept.get(lang)!;
    const headers = new Headers({
      "content-type": "application/manifest+json",
      "content-language": lang,
      "cache-control": "public, max-age=0, must-revalidate",
      vary: "Accept-Language, Cookie",
      etag,
    });
    const ifNoneMatch = req.headers.get("if-none-match")?.split(",").map((tag) => tag.trim().replace(/^W\//, ""));
    if (ifNoneMatch?.includes(etag)) return new Response(null, { status: 304, headers });
    return new Response(body, { headers });
  },
});
