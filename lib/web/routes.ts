/**
 * File routes: maps the paths of `routes/` files to URL patterns and orders them the way
 * Fresh does (static segments before parameters before catch-alls).
 *
 * `routes/index.tsx` → `/`, `routes/a/[id].ts` → `/a/:id`, `routes/a/[...rest].ts` →
 * `/a/:rest{.+}`, `(group)` folders add no segment. Files starting with `_` are special
 * (`_app`, `_layout`, `_middleware`, `_404`, `_500`) and have no pattern of their own.
 */

/** Kinds of route segments, in matching priority. */
const enum SegmentRank {
  Static = 0,
  Param = 1,
  CatchAll = 2,
}

/** A route file's URL pattern (Hono syntax) and its segments' ranks, for ordering. */
export interface RoutePattern {
  pattern: string;
  ranks: SegmentRank[];
}

/** The folder segments of a routes file path, without groups, e.g. `./routes/api/(x)/a.ts` → `["api"]`. */
export function folderSegments(file: string): string[] {
  const parts = file.replace(/^\.\/routes\//, "").split("/");
  parts.pop();
  return parts.filter((part) => !/^\(.*\)$/.test(part));
}

/** The base name of a routes file without extension, e.g. `[id]` or `_middleware`. */
export function fileStem(file: string): string {
  return file.slice(file.lastIndexOf("/") + 1).replace(/\.(tsx?|jsx?)$/, "");
}

function segmentPattern(segment: string): { text: string; rank: SegmentRank } {
  const catchAll = segment.match(/^\[\.\.\.(\w+)\]$/);
  if (catchAll) return { text: `:${catchAll[1]}{.+}`, rank: SegmentRank.CatchAll };
  const param = segment.match(/^\[(\w+)\]$/);
  if (param) return { text: `:${param[1]}`, rank: SegmentRank.Param };
  return { text: segment, rank: SegmentRank.Static };
}

/**
 * The URL pattern of a route file such as `./routes/api/items/[id].ts`.
 * @throws Error for a file name that is not a valid route segment.
 */
export function routePattern(file: string): RoutePattern {
  const stem = fileStem(file);
  const segments = [...folderSegments(file), ...(stem === "index" ? [] : [stem])];
  const parts = segments.map((segment) => {
    if (!/^(\[(\.\.\.)?\w+\]|[\w.-]+)$/.test(segment)) throw new Error(`Invalid route segment "${segment}" in ${file}`);
    return segmentPattern(segment);
  });
  return { pattern: "/" + parts.map((p) => p.text).join("/"), ranks: parts.map((p) => p.rank) };
}

/**
 * Whether a URL path lies under the folder of a `_middleware` file: the folder's path
 * itself or anything below it, a `[param]` folder standing for any one segment
 * and a `[...rest]` folder for one or more (what Hono's `${prefix}/*` matches). "/" is every path.
 */
export function folderMatcher(file: string): (path: string) => boolean {
  const segments = folderSegments(file);
  if (segments.length === 0) return () => true;
  if (segments.every((segment) => segmentPattern(segment).rank === SegmentRank.Static)) {
    const prefix = "/" + segments.join("/");
    const below = prefix + "/";
    return (path) => path === prefix || path.startsWith(below);
  }
  const body = segments.map((segment) => {
    const { rank } = segmentPattern(segment);
    if (rank === SegmentRank.CatchAll) return ".+";
    if (rank === SegmentRank.Param) return "[^/]+";
    return segment.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  }).join("/");
  const pattern = new RegExp(`^/${body}(?:/.*)?$`);
  return (path) => pattern.test(path);
}

/** Orders patterns so that a more specific route is tried first. */
export function compareRoutes(a: RoutePattern, b: RoutePattern): number {
  const length = Math.min(a.ranks.length, b.ranks.length);
  for (let i = 0; i < length; i++) {
    if (a.ranks[i] !== b.ranks[i]) return a.ranks[i] - b.ranks[i];
  }
  const aEndsCatchAll = a.ranks.at(-1) === SegmentRank.CatchAll;
  const bEndsCatchAll = b.ranks.at(-1) === SegmentRank.CatchAll;
  if (aEndsCatchAll !== bEndsCatchAll) return aEndsCatchAll ? 1 : -1;
  return b.ranks.length - a.ranks.length;
}
