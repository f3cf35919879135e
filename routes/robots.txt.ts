/**
 * `/robots.txt` (docs/decisions.md, Search engines and sharing): every crawler may read the public pages and
 * uploaded files; the admin area, the API and the account pages are disallowed; the sitemap is named.
 */
import { define } from "@/lib/platform/define.ts";
import { DISALLOWED } from "@/lib/seo/public_paths.ts";

export const handler = define.handlers({
  GET(_req, ctx) {
    const origin = ctx.state.services.config.appUrl;
    const lines = [
      "User-agent: *",
      "Allow: /api/files/",
      ...DISALLOWED.map((path) => `Disallow: ${path}`),
      "",
      `Sitemap: ${origin}/sitemap.xml`,
      "",
    ];
    return new Response(lines.join("\n"), {
      headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "public, max-age=3600" },
    });
  },
});
