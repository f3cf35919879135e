/**
 * `/sitemap/{n}.xml`: the n-th file of a sitemap past 50,000 URLs, which `/sitemap.xml` then indexes; any other
 * name, or a number past the last file, is 404.
 */
import { define } from "@/lib/platform/define.ts";
import { sitemap } from "@/lib/seo/sitemap.ts";

export const handler = define.handlers({
  async GET(req, ctx) {
    const n = /^([1-9]\d{0,5})\.xml$/.exec(ctx.params.file)?.[1];
    const { kv, config } = ctx.state.services;
    const page = n === undefined ? undefined : (await sitemap(kv, { origin: config.appUrl })).pages[Number(n) - 1];
    return page === undefined ? ctx.renderNotFound() : await page.response(req);
  },
});
