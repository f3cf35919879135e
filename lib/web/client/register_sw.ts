/**
 * Registers the build's service worker (`/sw.js`, scope `/`) once the page has loaded, so that neither its script nor
 * what it precaches competes with the page's first paint. Browsers without service workers skip it.
 */
if ("serviceWorker" in navigator) {
  const register = () => void navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(() => {});
  if (document.readyState === "complete") register();
  else addEventListener("load", register, { once: true });
}
