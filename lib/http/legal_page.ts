/**
 * The route handler of the legal pages (`/privacy`, `/terms`, `/refunds`, `/contact`; docs/decisions.md, Data rights):
 * renders the deployer's Markdown of page `name` in the request's language (`lib/legal/pages.ts`) for
 * `components/LegalPage.tsx`, with the grievance contact when one is configured.
 */
import { legalPageHtml, type LegalPageName } from "@/lib/legal/pages.ts";
import { SITE_NAME } from "@/lib/seo/json_ld.ts";
import { define } from "@/lib/platform/define.ts";

/** What a legal page renders: which page, its HTML, and the grievance contact when one is configured. */
export interface LegalPageData {
  name: LegalPageName;
  html: string;
  grievanceEmail?: string;
}

/** The `handler` of the route of legal page `name`. */
export function legalPageHandler(name: LegalPageName) {
  return define.handlers<LegalPageData>({
    async GET(_req, ctx) {
      const { config } = ctx.state.services;
      const writeTo = ctx.state.t(config.grievanceEmail ? "legal.contact.writeTo" : "legal.contact.noAddress");
      const html = await legalPageHtml(name, ctx.state.lang, { siteName: SITE_NAME, siteUrl: config.appUrl, writeTo });
      return ctx.render({ name, html, grievanceEmail: config.grievanceEmail });
    },
  });
}
