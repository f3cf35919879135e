/**
 * The sitemap (docs/decisions.md, Search engines and sharing): the home page, the list pages, the legal pages, every
 * internship open today (IST), every published opportunity, every active toolkit and every live post a guest can read
 * (the head of the feed and of each tag's feed: the others send a guest to sign in), each with
 * `lastmod` where it has one, and each in both languages: its English URL followed by its Hindi URL (the same with
 * `lang=hi`; docs/decisions.md, Languages, "Search engines"). Up to `SITEMAP_PAGE_SIZE` URLs it is one `<urlset>` at `/sitemap.xml`; past that
 * `/sitemap.xml` is a `<sitemapindex>` of `/sitemap/1.xml`, `/sitemap/2.xml`, ...
 *
 * Built from the read models' columns and the KV indexes (no listing record is read), and kept per KV while the
 * version of every source is unchanged: the internships' and opportunities' read-model versions, the catalog's and
 * the posts' change markers, and today's IST date; a build also ends when the next scheduled post goes live. So a
 * request reads two version markers and answers from memory; only the first request after a change builds again.
 */
import { istToday } from "@/lib/dates.ts";
import { internshipsVersion, openInternshipStamps } from "@/lib/internships/internships.ts";
import { LEGAL_PAGES } from "@/lib/legal/pages.ts";
import { opportunitiesVersion, publishedOpportunityStamps } from "@/lib/opportunities/opportunities.ts";
import { catalogVersion, listActiveToolkits } from "@/lib/toolkits/catalog.ts";
import { guestReadablePosts, postsVersion } from "@/lib/ungatekeep/posts.ts";
import { withLang } from "@/lib/i18n/languages.ts";
import { absoluteUrl } from "./json_ld.ts";
import { escapeXml } from "./xml.ts";

/** The headers of every sitemap document. */
const SITEMAP_HEADERS = {
  "content-type": "application/xml; charset=utf-8",
  "cache-control": "public, max-age=300",
};

/** Most URLs in one sitemap file (the sitemaps.org limit). */
export const SITEMAP_PAGE_SIZE = 50_000;

/** One URL of the sitemap: a path on the site and its last change (ms), if known. */
interface SitemapUrl {
  path: string;
  lastmod?: number;
}

/**
 * One document of the sitemap as it is served: its UTF-8 bytes, encoded once per build, and the same gzip-compressed,
 * made on the first request that accepts gzip and then kept (a file of 50,000 URLs is ~5 MB: compressing it per request
 * would cost more than all else a request does).
 */
export class SitemapFile {
  readonly bytes: Uint8Array<ArrayBuffer>;
  private gzip?: Promise<Uint8Array<ArrayBuffer>>;

  constructor(text: string) {
    this.bytes = new TextEncoder().encode(text);
  }

  /** The document as text. */
  get text(): string {
    return new TextDecoder().decode(this.bytes);
  }

  /** The bytes gzip-compressed (computed once). */
  gzipped(): Promise<Uint8Array<ArrayBuffer>> {
    this.gzip ??= new Response(new Blob([this.bytes]).stream().pipeThrough(new CompressionStream("gzip"))).bytes();
    return this.gzip;
  }

  /** The response to `req`: gzip-compressed when it accepts gzip, else plain; with `SITEMAP_HEADERS`. */
  async response(req: Request): Promise<Response> {
    const headers = new Headers({ ...SITEMAP_HEADERS, vary: "accept-encoding" });
    if (!/\bgzip\b/i.test(req.headers.get("accept-encoding") ?? "")) return new Response(this.bytes, { headers });
    headers.set("content-encoding", "gzip");
    return new Response(await this.gzipped(), { headers });
  }
}

/** The sitemap's documents as built for one set of versions. */
export interface Sitemap {
  /** What `/sitemap.xml` answers: the only `<urlset>`, or the `<sitemapindex>`. */
  root: SitemapFile;
  /** The `<urlset>` of `/sitemap/{n}.xml` at index n − 1; empty when `root` is the only one. */
  pages: SitemapFile[];
  /** How many URLs it lists. */
  urlCount: number;
}

interface Built {
  key: string;
  /** When the build ends regardless of versions (the next scheduled post), in ms; Infinity for never. */
  validUntil: number;
  sitemap: Promise<Sitemap>;
}

const builds = new WeakMap<Deno.Kv, Built>();

const XML_HEAD = '<?xml version="1.0" encoding="UTF-8"?>\n';
const NAMESPACE = "http://www.sitemaps.org/schemas/sitemap/0.9";

function lastmodOf(ms: number | undefined): string {
  return ms === undefined || Number.isNaN(ms) ? "" : `<lastmod>${new Date(ms).toISOString()}</lastmod>`;
}

function urlset(origin: string, urls: SitemapUrl[]): string {
  const parts = [XML_HEAD, `<urlset xmlns="${NAMESPACE}">\n`];
  for (const url of urls) {
    parts.push(`<url><loc>${escapeXml(absoluteUrl(origin, url.path))}</loc>${lastmodOf(url.lastmod)}</url>\n`);
  }
  parts.push("</urlset>\n");
  return parts.join("");
}

function sitemapIndex(origin: string, pages: { lastmod?: number }[]): string {
  const parts = [XML_HEAD, `<sitemapindex xmlns="${NAMESPACE}">\n`];
  pages.forEach((page, i) => {
    parts.push(`<sitemap><loc>${escapeXml(absoluteUrl(origin, `/sitemap/${i + 1}.xml`))}</loc>`);
    parts.push(`${lastmodOf(page.lastmod)}</sitemap>\n`);
  });
  parts.push("</sitemapindex>\n");
  return parts.join("");
}

/** The latest of `times`, or undefined when there is none. */
function latest(times: number[]): number | undefined {
  let max: number | undefined;
  for (const time of times) if (max === undefined || time > max) max = time;
  return max;
}

/** Every URL of the sitemap as of `today` and `now`, and when the next scheduled post goes live. */
async function collect(kv: Deno.Kv, today: string, now: Date): Promise<{ urls: SitemapUrl[]; validUntil: number }> {
  const [internships, opportunities, toolkits, posts] = await Promise.all([
    openInternshipStamps(kv, today),
    publishedOpportunityStamps(kv),
    listActiveToolkits(kv),
    guestReadablePosts(kv, now),
  ]);
  const internshipUrls = internships.map((i) => ({ path: `/internships/${i.id}`, lastmod: i.updatedMs }));
  const opportunityUrls = opportunities.map((o) => ({ path: `/opportunities/${o.id}`, lastmod: o.updatedMs }));
  const toolkitUrls = toolkits.map((t) => ({ path: `/toolkits/${t.id}`, lastmod: Date.parse(t.updatedAt) }));
  const postUrls = posts.posts.map((p) => ({ path: `/ungatekeep/${p.id}`, lastmod: Date.parse(p.publishedAt) }));
  const newest = (urls: SitemapUrl[]) => latest(urls.flatMap((url) => url.lastmod ?? []));
  const lists = [
    { path: "/internships", lastmod: newest(internshipUrls) },
    { path: "/opportunities", lastmod: newest(opportunityUrls) },
    { path: "/toolkits", lastmod: newest(toolkitUrls) },
    { path: "/ungatekeep", lastmod: newest(postUrls) },
  ];
  const english: SitemapUrl[] = [
    { path: "/", lastmod: newest(lists) },
    ...lists,
    ...LEGAL_PAGES.map((page) => ({ path: `/${page}` })),
    ...internshipUrls,
    ...opportunityUrls,
    ...toolkitUrls,
    ...postUrls,
  ];
  const urls = english.flatMap((url) => [url, { ...url, path: withLang(url.path, "hi") }]);
  return { urls, validUntil: posts.nextScheduled ? Date.parse(posts.nextScheduled) : Infinity };
}

/** The documents of `urls`: one `<urlset>`, or an index and `<urlset>`s of at most `pageSize` URLs. */
function documents(origin: string, urls: SitemapUrl[], pageSize: number): Sitemap {
  if (urls.length <= pageSize) return { root: new SitemapFile(urlset(origin, urls)), pages: [], urlCount: urls.length };
  const chunks: SitemapUrl[][] = [];
  for (let i = 0; i < urls.length; i += pageSize) chunks.push(urls.slice(i, i + pageSize));
  const pages = chunks.map((chunk) => new SitemapFile(urlset(origin, chunk)));
  const root = new SitemapFile(sitemapIndex(
    origin,
    chunks.map((chunk) => ({ lastmod: latest(chunk.flatMap((u) => u.lastmod ?? [])) })),
  ));
  return { root, pages, urlCount: urls.length };
}

/** Options of `sitemap`: the public origin (`APP_URL`), and the URLs per file (tests make it small). */
export interface SitemapOptions {
  origin: string;
  pageSize?: number;
  now?: Date;
}

/**
 * The sitemap of `kv`'s data: the kept build while every version is unchanged, else a new build (one at a time:
 * concurrent requests share it).
 */
export async function sitemap(kv: Deno.Kv, options: SitemapOptions): Promise<Sitemap> {
  const now = options.now ?? new Date();
  const pageSize = options.pageSize ?? SITEMAP_PAGE_SIZE;
  const today = istToday(now);
  const versions = await Promise.all([
    internshipsVersion(kv, today),
    opportunitiesVersion(kv, today),
    catalogVersion(kv),
    postsVersion(kv),
  ]);
  const key = [...versions, today, options.origin, pageSize].join("|");
  const kept = builds.get(kv);
  if (kept && kept.key === key && now.getTime() < kept.validUntil) return await kept.sitemap;
  const built: Built = { key, validUntil: Infinity, sitemap: Promise.resolve(null!) };
  built.sitemap = collect(kv, today, now).then(({ urls, validUntil }) => {
    built.validUntil = validUntil;
    return documents(options.origin, urls, pageSize);
  });
  built.sitemap.catch(() => builds.get(kv) === built && builds.delete(kv));
  builds.set(kv, built);
  return await built.sitemap;
}
