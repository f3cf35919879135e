/** What a rendered page holds, for tests of pages served over `app.fetch`. */

/**
 * The scripts of `html` other than the module that registers the service worker (every page has it): the islands'
 * props and boot module, or anything else. Empty for a page that ships no JavaScript of its own.
 */
export function scriptsOf(html: string): string[] {
  return [...html.matchAll(/<script\b[^>]*>/g)].map((m) => m[0]).filter((tag) => !/\/register-sw-\w+\.js"/.test(tag));
}
