/**
 * A cache of pages as a guest sees them: the pages guests open most, served without loading data or rendering
 * again (docs/decisions.md, Guest pages), and the public list of `GET /api/internships`, the same for every reader
 * who sees only public listings. An entry is the status, headers and body of one GET, keyed by the language it is
 * written in (`api` for the list), path and query (docs/decisions.md, Languages), and valid while the version of the
 * data it was rendered from is unchanged (e.g. the internship read model's version, which every write moves on).
 *
 * Only for answers that show nothing of the visitor (no user data, no CSRF-bound form): the caller decides that,
 * through `servePublicPage` or the list's route. The kept answers' bytes (bodies, their compressed copies, headers and
 * keys) stay within `maxBytes`, 32 MB by default: past it the least recently used answers are dropped, one by one
 * (docs/decisions.md, Guest pages). Answers to a place with a query (`?` in it) have a quarter of the bytes to
 * themselves and pages without one the rest, so a flood of made-up queries pushes out only other queried answers; a
 * key longer than `maxKeyLength` characters (a made-up query) is rendered but not kept.
 */

import { LRUCache } from "lru-cache";
import { onFirstUse } from "@/lib/lazy.ts";

/** `node:zlib`, imported by the first page compressed (not at start). */
const zlib = onFirstUse(() => import("node:zlib"));

/** A content encoding a kept page is compressed to. */
type Encoding = "br" | "gzip";

/**
 * The encoding `Deno.serve` picks for a request's `Accept-Encoding`, for the values browsers and Deno's `fetch` send
 * (which it reads without parsing); null for any other value, whose answer `Deno.serve` then compresses as it does
 * every answer.
 */
export function encodingFor(acceptEncoding: string | null | undefined): Encoding | null {
  switch (acceptEncoding) {
    case "gzip, deflate, br":
    case "gzip, deflate, br, zstd":
    case "gzip,br": // Deno's fetch
    case "br":
      return "br";
    case "gzip":
      return "gzip";
  }
  return null;
}

/** Answers shorter than this many bytes are not compressed (as `Deno.serve` does). */
const COMPRESS_FROM = 64;

/** A kept page compressed to one encoding: its bytes and headers. */
interface EncodedPage {
  body: Uint8Array<ArrayBuffer>;
  headers: [string, string][];
}

interface CachedPage {
  version: string;
  status: number;
  headers: [string, string][];
  /** The page's bytes (UTF-8), encoded once. */
  body: Uint8Array<ArrayBuffer>;
  /** Whether the page is compressed here (HTML or JSON): once per encoding, when a request first accepts it. */
  compressible: boolean;
  encoded: Partial<Record<Encoding, EncodedPage>>;
}

/**
 * `page` compressed to `encoding` as `Deno.serve` compresses an answer (brotli at quality 6 with a 4 MB window, or
 * gzip), with the headers it would send: `Content-Encoding`, and `Accept-Encoding` first in `Vary`.
 */
async function encode(page: CachedPage, encoding: Encoding): Promise<EncodedPage> {
  const { brotliCompressSync, constants, gzipSync } = await zlib();
  const body = encoding === "br"
    ? brotliCompressSync(page.body, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: 6,
        [constants.BROTLI_PARAM_LGWIN]: 22,
        [constants.BROTLI_PARAM_SIZE_HINT]: page.body.length,
      },
    })
    : gzipSync(page.body);
  const headers = page.headers.filter(([name]) => name !== "content-length");
  const vary = headers.findIndex(([name]) => name === "vary");
  if (vary === -1) headers.push(["vary", "Accept-Encoding"]);
  else if (!/accept-encoding/i.test(headers[vary][1])) {
    headers[vary] = ["vary", `Accept-Encoding, ${headers[vary][1]}`];
  }
  headers.push(["content-encoding", encoding]);
  return { body: new Uint8Array(body.buffer as ArrayBuffer, body.byteOffset, body.byteLength), headers };
}

/** The bytes `page` holds under `key`: its key, headers, body and compressed copies. */
function bytesOf(page: CachedPage, key: string): number {
  let bytes = key.length + page.body.byteLength;
  for (const [name, value] of page.headers) bytes += name.length + value.length;
  for (const encoded of Object.values(page.encoded)) bytes += encoded.body.byteLength;
  return bytes;
}

/** The default bound of a cache's kept bytes: 32 MB (docs/decisions.md, Guest pages). */
export const GUEST_PAGE_BYTES = 32 * 1024 * 1024;

/** The guest page cache of one platform instance. */
export class GuestPageCache {
  /** Answers to places without a query: three quarters of `maxBytes`. */
  #plain: LRUCache<string, CachedPage>;
  /** Answers to places with a query (any string a client can vary at will): the other quarter. */
  #queried: LRUCache<string, CachedPage>;

  constructor(readonly maxBytes = GUEST_PAGE_BYTES, readonly maxKeyLength = 512) {
    const queryBytes = Math.floor(maxBytes / 4);
    this.#plain = new LRUCache({ maxSize: maxBytes - queryBytes, sizeCalculation: bytesOf });
    this.#queried = new LRUCache({ maxSize: queryBytes, sizeCalculation: bytesOf });
  }

  /** The part of the cache that keeps the answers to `place`. */
  #part(place: string): LRUCache<string, CachedPage> {
    return place.includes("?") ? this.#queried : this.#plain;
  }

  /**
   * The page at `place` (its path and query, or another string that names the answer, such as the API list's
   * validated query) in language `lang` rendered from data at `version`: the kept copy when there is one for this
   * version, else `render()`'s answer, kept when it is a 200. A kept HTML or JSON answer is sent compressed for a
   * request that accepts `acceptEncoding` (its `Accept-Encoding`), compressed once per page and encoding (`#answer`).
   */
  async serve(
    place: string,
    lang: string,
    version: string,
    render: () => Response | Promise<Response>,
    acceptEncoding?: string | null,
  ): Promise<Response> {
    const key = `${lang}:${place}`;
    const pages = this.#part(place);
    const kept = pages.get(key);
    if (kept && kept.version === version) return await this.#answer(pages, key, kept, acceptEncoding, false);
    const res = await render();
    if (res.status !== 200 || key.length > this.maxKeyLength || res.headers.has("set-cookie")) return res;
    const body = new Uint8Array(await res.arrayBuffer());
    const headers = [...res.headers];
    const compressible = body.length >= COMPRESS_FROM && !res.headers.has("content-encoding") &&
      /^(text\/html|application\/json)\b/.test(res.headers.get("content-type") ?? "") &&
      !/no-transform/i.test(res.headers.get("cache-control") ?? "");
    const page: CachedPage = { version, status: res.status, headers, body, compressible, encoded: {} };
    pages.set(key, page);
    return await this.#answer(pages, key, page, acceptEncoding, true);
  }

  /**
   * The answer of `page`, kept in `pages` under `key`, to a request that accepts `acceptEncoding`. The page's first answer is left
   * to `Deno.serve` to compress (its compression costs less than `node:zlib`'s, and most pages are never asked for
   * again before the data changes); a page asked for again is compressed here, once per encoding, and kept with its
   * compressed copy (which counts toward `maxBytes`) while it is still the kept page.
   */
  async #answer(
    pages: LRUCache<string, CachedPage>,
    key: string,
    page: CachedPage,
    acceptEncoding: string | null | undefined,
    first: boolean,
  ): Promise<Response> {
    const encoding = page.compressible ? encodingFor(acceptEncoding) : null;
    if (!encoding || (first && !page.encoded[encoding])) {
      return new Response(page.body, { status: page.status, headers: page.headers });
    }
    let encoded = page.encoded[encoding];
    if (!encoded) {
      encoded = await encode(page, encoding);
      const current = pages.peek(key);
      if (current?.body === page.body) {
        pages.set(key, { ...current, encoded: { ...current.encoded, [encoding]: encoded } });
      }
    }
    return new Response(encoded.body, { status: page.status, headers: encoded.headers });
  }

  /** How many pages are kept (for tests). */
  get size(): number {
    return this.#plain.size + this.#queried.size;
  }

  /** How many bytes the kept pages hold, as counted against `maxBytes` (for tests). */
  get bytes(): number {
    return this.#plain.calculatedSize + this.#queried.calculatedSize;
  }
}
