/**
 * The module every page runs (a build with a service worker adds it): registers the build's service worker (`/sw.js`,
 * scope `/`) once the page has loaded, so that neither its script nor what it precaches competes with the page's first
 * paint, then tells the active worker the page's language (`{type: "language", lang}`, its `<html lang>`;
 * `lib/offline/messages.ts`): a worker installed after signing out controls no page until the next one, so it would not
 * know which offline page to show. Browsers without service workers skip that. It also lets Escape close an open menu
 * made of a `<details data-menu>` (which opens without JavaScript but has no key to close it): the one holding the
 * focus, or with nothing focused (a tap) the open one, and puts the focus on its `<summary>`; a key another handler
 * took is left.
 */
if ("serviceWorker" in navigator) {
  const register = () =>
    void navigator.serviceWorker.register("/sw.js", { scope: "/" })
      .then(() => navigator.serviceWorker.ready)
      .then(({ active }) => active?.postMessage({ type: "language", lang: document.documentElement.lang }))
      .catch(() => {});
  if (document.readyState === "complete") register();
  else addEventListener("load", register, { once: true });
}

addEventListener("keydown", (event) => {
  if (event.key !== "Escape" || event.defaultPrevented) return;
  const open = "details[data-menu][open]";
  const focused = document.activeElement;
  const menu = !focused || focused === document.body
    ? document.querySelector<HTMLDetailsElement>(open)
    : focused.closest<HTMLDetailsElement>(open);
  if (!menu) return;
  menu.open = false;
  menu.querySelector("summary")?.focus();
});
