/**
 * The web app manifest in each language (docs/decisions.md, Installable and offline, "Manifest"): the app's name,
 * scope, colours and icons, with `lang`, the short name, the description and the shortcuts' names in that language, so an app
 * installed from a Hindi page has Hindi shortcuts. `_app` links the page's language's (`webManifestPath`).
 */
import { type Lang, LANG_PARAM } from "@/lib/i18n/languages.ts";
import { translatorFor } from "@/lib/i18n/catalogue.ts";

/** The manifest in `lang` (`/manifest.webmanifest?lang=hi`), as pages link it and the service worker precaches it. */
export function webManifestPath(lang: Lang): string {
  return `/manifest.webmanifest?${LANG_PARAM}=${lang}`;
}

const SHORTCUT_ICONS = [{ src: "/icons/icon-192.png", sizes: "192x192" }];

/** The manifest's JSON in `lang`. */
export function webManifest(lang: Lang): Record<string, unknown> {
  const t = translatorFor(lang);
  return {
    id: "/",
    name: t("layout.siteName"),
    short_name: t("layout.shortName"),
    description: t("layout.description"),
    start_url: "/",
    scope: "/",
    display: "standalone",
    theme_color: "#4338ca",
    background_color: "#f8fafc",
    lang,
    dir: "ltr",
    categories: ["education", "business"],
    icons: [
      { src: "/icons/icon-192.png", sizes: "192x192", type: "image/png", purpose: "any" },
      { src: "/icons/icon-512.png", sizes: "512x512", type: "image/png", purpose: "any" },
      { src: "/icons/icon-maskable-512.png", sizes: "512x512", type: "image/png", purpose: "maskable" },
    ],
    shortcuts: [
      { name: t("layout.nav.internships"), url: "/internships", icons: SHORTCUT_ICONS },
      { name: t("layout.own.tracker"), url: "/me/tracker", icons: SHORTCUT_ICONS },
    ],
  };
}
