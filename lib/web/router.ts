/**
 * The web layer's Hono router: Hono's `TrieRouter`, with the match of each path that is a route's
 * exact static pattern (`/api/internships`, `/`) worked out once, as Hono's `RegExpRouter` keeps
 * static paths in a map. `RegExpRouter` itself refuses a parameter beside a static sibling
 * (`items/[id]` beside `items/new`), which file routes have everywhere; searching the trie was
 * ~0.6 µs of every request to a static path. A match is Hono's own result, shared by the requests
 * to its path, which only read it.
 */
import type { Result, Router } from "hono/router";
import { TrieRouter } from "hono/router/trie-router";
import { METHODS } from "./types.ts";

const knownMethods: ReadonlySet<string> = new Set(METHODS);

/** A `TrieRouter` that keeps the matches of static route paths, for the methods of `METHODS`. */
export class StaticPathRouter<T> implements Router<T> {
  readonly name = "StaticPathRouter";
  readonly #trie = new TrieRouter<T>();
  readonly #staticPaths = new Set<string>();
  /** Matches kept, by method and then path; only known methods, so that their number is bounded. */
  readonly #kept = new Map<string, Map<string, Result<T>>>();

  /** Adds `handler` for `method` and `path` (Hono's pattern syntax); kept matches start over. */
  add(method: string, path: string, handler: T): void {
    this.#trie.add(method, path, handler);
    if (!/[:*?{]/.test(path)) this.#staticPaths.add(path);
    this.#kept.clear();
  }

  /** The handlers (and parameters) that match `method` and `path`, in the order they were added. */
  match(method: string, path: string): Result<T> {
    if (!this.#staticPaths.has(path) || !knownMethods.has(method)) return this.#trie.match(method, path);
    let byPath = this.#kept.get(method);
    if (!byPath) {
      byPath = new Map();
      this.#kept.set(method, byPath);
    }
    let result = byPath.get(path);
    if (!result) {
      result = this.#trie.match(method, path);
      byPath.set(path, result);
    }
    return result;
  }
}
