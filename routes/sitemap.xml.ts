/**
 * `/sitemap.xml`: the sitemap, or past 50,000 URLs the sitemap index of `/sitemap/{n}.xml`
 * (`lib/seo/sitemap.ts`; docs/decisions.md, Search engines and sharing).
 */
import { define } from "@/lib/platform/define.ts";
import { sitemap } from "@/lib/seo/sitemap.ts";

export const handler = define.handlers({
  async GET(req, ctx) {
    const { kv, config } = ctx.state.services;
    const { root } = await sitemap(kv, { origin: config.appUrl });
    return await root.response(req);
  },
});
