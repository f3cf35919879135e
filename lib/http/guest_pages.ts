/**
 * A cache of pages as a guest sees them: the pages guests open most, served without loading data or rendering
 * again (docs/decisions.md, Guest pages). An entry is the status, headers and HTML of one GET, keyed by the
 * language it is written in, path and query (docs/decisions.md, Languages), and valid while the version of the data it was rendered from is unchanged (e.g. the internship
 * read model's version, which every write moves on).
 *
 * Only for requests without a signed-in user, and only for pages that show nothing of the
 * visitor (no user data, no CSRF-bound form): the caller decides that, through `servePage`.
 * At most `maxEntries` pages are kept (then the cache starts over); a key longer than
 * `maxKeyLength` characters (a made-up query) is rendered but not kept.
 */

interface CachedPage {
  version: string;
  status: number;
  headers: [string, string][];
  body: string;
}

/** The guest page cache of one platform instance. */
export class GuestPageCache {
  #pages = new Map<string, CachedPage>();

  constructor(readonly maxEntries = 1000, readonly maxKeyLength = 512) {}

  /**
   * The page for `url` in language `lang` rendered from data at `version`: the kept copy when there is one for
   * this version, else `render()`'s answer, kept when it is a 200.
   */
  async serve(
    url: URL,
    lang: string,
    version: string,
    render: () => Response | Promise<Response>,
  ): Promise<Response> {
    const key = `${lang}:${url.pathname}${url.search}`;
    const kept = this.#pages.get(key);
    if (kept && kept.version === version) {
      return new Response(kept.body, { status: kept.status, headers: kept.headers });
    }
    const res = await render();
    if (res.status !== 200 || key.length > this.maxKeyLength || res.headers.has("set-cookie")) return res;
    const body = await res.text();
    if (this.#pages.size >= this.maxEntries) this.#pages.clear();
    const headers = [...res.headers];
    this.#pages.set(key, { version, status: res.status, headers, body });
    return new Response(body, { status: res.status, headers });
  }

  /** How many pages are kept (for tests). */
  get size(): number {
    return this.#pages.size;
  }
}
