/**
 * The module every page runs (a build with a service worker adds it): registers the build's service worker (`/sw.js`,
 * scope `/`) once the page has loaded, so that neither its script nor what it precaches competes with the page's first
 * paint, then tells the active worker the page's language (`{type: "language", lang}`, its `<html lang>`;
 * `lib/offline/messages.ts`): a worker installed after signing out controls no page until the next one, so it would not
 * know which offline page to show. Browsers without service workers skip that. It also brings the menus' Escape key
 * (`menus.ts`), the busy state of posted forms (`busy_forms.ts`) and the question before leaving typed words behind
 * (`leave_guard.ts`), so that they cost pages no request of their own.
 */
import "./menus.ts";
import "./busy_forms.ts";
import "./leave_guard.ts";

if ("serviceWorker" in navigator) {
  const register = () =>
    void navigator.serviceWorker.register("/sw.js", { scope: "/" })
      .then(() => navigator.serviceWorker.ready)
      .then(({ active }) => active?.postMessage({ type: "language", lang: document.documentElement.lang }))
      .catch(() => {});
  if (document.readyState === "complete") register();
  else addEventListener("load", register, { once: true });
}
