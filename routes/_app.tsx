/**
 * The HTML document around every page: head, skip link, header, main landmark, footer. The document is in the
 * request's language (`<html lang>`), whose translator every page and component reads through `useT()`
 * (docs/decisions.md, Languages).
 */
import { define } from "@/lib/platform/define.ts";
import { TextContext } from "@/lib/i18n/context.ts";
import { SiteHeader } from "@/components/SiteHeader.tsx";
import { SiteFooter } from "@/components/SiteFooter.tsx";
import { SiteContext } from "@/components/PageHead.tsx";
import { OfflineNotice, OfflineUnsentNotice } from "@/components/OfflineNotice.tsx";
import { selfLink } from "@/lib/auth/redirects.ts";
import { webManifestPath } from "@/lib/offline/web_manifest.ts";

export default define.layout(function App({ Component, state, url }) {
  const { config } = state.services;
  const { t, lang } = state;
  return (
    <html lang={lang}>
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{t("layout.siteName")}</title>
        <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
        <link rel="manifest" href={webManifestPath(lang)} />
        <link rel="apple-touch-icon" href="/icons/apple-touch-icon.png" />
        <meta name="theme-color" content="#4338ca" />
      </head>
      <body class="min-h-screen bg-slate-50 text-slate-900 antialiased flex flex-col">
        <TextContext.Provider value={t}>
          <a
            href="#main"
            class="sr-only focus:not-sr-only focus:absolute focus:m-2 focus:rounded focus:bg-white focus:p-2"
          >
            {t("layout.skipToContent")}
          </a>
          <SiteContext.Provider value={{ origin: config.appUrl, path: url.pathname, lang }}>
            <SiteHeader
              user={state.user}
              unreadCount={state.unreadCount}
              path={url.pathname}
              pageUrl={selfLink(url, config.appUrl)}
            />
            <main id="main" class="flex-1 w-full max-w-6xl mx-auto px-4 py-8">
              <OfflineNotice />
              <OfflineUnsentNotice />
              <Component />
            </main>
            <SiteFooter grievanceEmail={config.grievanceEmail} />
          </SiteContext.Provider>
        </TextContext.Provider>
      </body>
    </html>
  );
});
