/** The HTML document around every page: head, skip link, header, main landmark, footer. */
import { define } from "@/lib/platform/define.ts";
import { SiteHeader } from "@/components/SiteHeader.tsx";
import { SiteFooter } from "@/components/SiteFooter.tsx";
import { SiteContext } from "@/components/PageHead.tsx";
import { OfflineNotice } from "@/components/OfflineNotice.tsx";

export default define.layout(function App({ Component, state, url }) {
  const { config } = state.services;
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>Career Community</title>
        <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
        <link rel="manifest" href="/manifest.webmanifest" />
        <link rel="apple-touch-icon" href="/icons/apple-touch-icon.png" />
        <meta name="theme-color" content="#4338ca" />
      </head>
      <body class="min-h-screen bg-slate-50 text-slate-900 antialiased flex flex-col">
        <a
          href="#main"
          class="sr-only focus:not-sr-only focus:absolute focus:m-2 focus:rounded focus:bg-white focus:p-2"
        >
          Skip to content
        </a>
        <SiteContext.Provider value={{ origin: config.appUrl, path: url.pathname }}>
          <SiteHeader user={state.user} path={url.pathname} />
          <main id="main" class="flex-1 w-full max-w-6xl mx-auto px-4 py-8">
            <OfflineNotice />
            <Component />
          </main>
          <SiteFooter grievanceEmail={config.grievanceEmail} />
        </SiteContext.Provider>
      </body>
    </html>
  );
});
