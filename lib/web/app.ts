/**
 * Joins a manifest of Fresh 1.x route modules to a Hono app: middleware by folder, pages and
 * handlers by file, 405 with `Allow` for a known path and an unhandled method, `_404` for an
 * unknown path, `_500` (or the caller's `onError`) for a thrown error, plus built assets.
 * Generic: it knows nothing of the platform that uses it.
 *
 * - `_middleware` applies to every URL under its folder's path, as in Fresh 1.x: a `[param]`
 *   folder's middleware also runs for a static sibling (`items/[id]/` for `/items/new`), and
 *   a `(group)` folder adds no path, so its middleware applies to its parent's whole path.
 *   Outer folders run first.
 * - `_app` wraps every page; `_layout` wraps the pages of its folder and the folders below it
 *   (by file tree, so a `(group)` layout wraps only that group's pages). `_404` and `_500`
 *   get the layouts of their own folder.
 * - `HEAD` runs the `HEAD` handler, else `GET` (the body is dropped).
 */
import type { Context, Hono, MiddlewareHandler as HonoMiddleware } from "hono";
import type { ComponentType } from "preact";
import { type Assets, serveAsset } from "./assets.ts";
import { islandName, registerIsland } from "./islands.ts";
import { renderDocument } from "./render.ts";
import { compareRoutes, fileStem, folderMatcher, folderPrefix, type RoutePattern, routePattern } from "./routes.ts";
import {
  type AppProps,
  type Handler,
  type HandlerContext,
  type Handlers,
  type Manifest,
  METHODS,
  type MiddlewareHandler,
  type MiddlewareHandlerContext,
  type PageProps,
  type RenderOptions,
  type State,
  WRITE_METHODS,
} from "./types.ts";

/** Pages `onError` may answer with: `_500`, or any component inside `_app` with a status. */
export interface ErrorPages {
  /** Renders `_500` (or a plain 500). */
  renderErrorPage(): Response;
  /** Renders `_404` (or a plain 404) with status 404. */
  renderNotFound(): Response;
  /** Renders `component` inside `_app` (without layouts) with `status`. */
  render(component: ComponentType, status: number): Response;
}

/** How a `WebContext` renders pages: `registerRoutes`' renderers, shared by every request. */
interface PageRenderer {
  render(
    c: Context<Env>,
    route: string,
    page: PageEntry,
    data: unknown,
    extra?: Record<string, unknown>,
    opts?: RenderOptions,
  ): Response;
  renderNotFound(c: Context<Env>, route: string): Response;
}

/**
 * The context a handler or middleware gets (`HandlerContext`, plus `next` for middleware): one
 * small object per call, its methods on the prototype, and `url`, `params` and `remoteAddr`
 * worked out only when read (each request's allocations are most of its garbage-collection cost).
 */
class WebContext implements HandlerContext {
  constructor(
    protected readonly c: Context<Env>,
    readonly route: string,
    private readonly page: PageEntry | undefined,
    protected readonly pages: PageRenderer,
  ) {}
  get params(): Record<string, string> {
    return this.c.req.param() as Record<string, string>;
  }
  get state(): State {
    return stateOf(this.c);
  }
  get url(): URL {
    return urlOf(this.c);
  }
  get remoteAddr(): { hostname: string; port: number } {
    return remoteAddrOf(this.c);
  }
  render(data?: unknown, opts?: RenderOptions): Response {
    if (!this.page) throw new Error(`Route ${this.route} has no page component to render`);
    return this.pages.render(this.c, this.route, this.page, data, {}, opts);
  }
  renderNotFound(): Response {
    return this.pages.renderNotFound(this.c, this.route);
  }
}

/** One folder middleware of a request's chain, with the folder's pattern (`ctx.route`). */
interface MiddlewareStep {
  route: string;
  handler: MiddlewareHandler;
}

/** What answers a request once its folder middleware has run: a write's guard and the route. */
type Responder = (c: Context<Env>) => Response | Promise<Response>;

/**
 * The context of the `index`th step of a request's folder middleware chain (outer folders
 * first): `next()` runs the next step, or after the last one `rest` (write middleware and
 * handler), and answers its response.
 */
class MiddlewareContext extends WebContext implements MiddlewareHandlerContext {
  constructor(
    c: Context<Env>,
    pages: PageRenderer,
    private readonly steps: MiddlewareStep[],
    private readonly index: number,
    private readonly rest: Responder,
  ) {
    super(c, steps[index].route, undefined, pages);
  }
  next(): Promise<Response> {
    // Not an async function: wrapping the next step's promise in another one cost every request.
    const { c, steps, index, rest } = this;
    try {
      if (index + 1 === steps.length) return Promise.resolve(rest(c));
      const ctx = new MiddlewareContext(c, this.pages, steps, index + 1, rest);
      return Promise.resolve(steps[index + 1].handler(c.req.raw, ctx));
    } catch (error) {
      return Promise.reject(error);
    }
  }
}

/** Options of `registerRoutes`. */
export interface WebOptions {
  assets: Assets;
  /** The answer for a known path and a method it does not handle; `allow` lists the methods it does. */
  methodNotAllowed?: (req: Request, allow: string[]) => Response;
  /** Maps an error thrown by a middleware or handler to a response. */
  onError?: (error: unknown, req: Request, state: State, pages: ErrorPages) => Response;
  /**
   * Hono middleware around everything the web layer answers (routes, 405, 404, built assets and
   * the responses `onError` maps errors to): it runs first, and its `next()` answers the request.
   * It does what an `app.use` before `registerRoutes` would, but a request then meets one Hono
   * handler, which Hono runs without composing a chain for it.
   */
  around?: HonoMiddleware<Env>;
  /**
   * Hono middleware to run for one route's writes (`WRITE_METHODS`), after the folder middleware
   * and before its handler, made once at registration from the route module's `routeOptions` export
   * (undefined when it has none); it answers undefined for none. Reads never meet it.
   */
  writeMiddleware?: (config: unknown, route: string) => HonoMiddleware<Env> | undefined;
}

type AnyComponent = ComponentType<never>;
type Layout = ComponentType<AppProps>;
type Env = { Variables: { state: State } };

/** A page component with the layouts that wrap it, outermost first. */
interface PageEntry {
  component: AnyComponent;
  layouts: Layout[];
}

interface RouteEntry {
  pattern: RoutePattern;
  handler: Handler | Handlers | undefined;
  page?: PageEntry;
  config: unknown;
}

function stateOf(c: Context<Env>): State {
  let state = c.get("state");
  if (!state) {
    state = {};
    c.set("state", state);
  }
  return state;
}

const parsedUrls = new WeakMap<Request, URL>();

/** The request's URL, parsed once per request however many contexts read it. */
function urlOf(c: Context<Env>): URL {
  let url = parsedUrls.get(c.req.raw);
  if (!url) {
    url = new URL(c.req.url);
    parsedUrls.set(c.req.raw, url);
  }
  return url;
}

function remoteAddrOf(c: Context<Env>): { hostname: string; port: number } {
  const info = c.env as { remoteAddr?: { hostname: string; port: number } } | undefined;
  return info?.remoteAddr ?? { hostname: "127.0.0.1", port: 0 };
}

function htmlResponse(html: string, options: RenderOptions = {}): Response {
  const headers = new Headers(options.headers);
  headers.set("content-type", "text/html; charset=utf-8");
  return new Response(html, { status: options.status ?? 200, headers });
}

/** Sets `c.res` unless it already holds `res` (setting it again makes Hono copy it into a stream). */
function setResponse(c: Context<Env>, res: Response): void {
  if (!c.finalized || c.res !== res) c.res = res;
}

/** Runs Hono middleware `middleware` with `respond` as its `next()`, and answers its response. */
async function runMiddleware(c: Context<Env>, middleware: HonoMiddleware<Env>, respond: Responder): Promise<Response> {
  const res = await middleware(c, async () => setResponse(c, await respond(c)));
  return res ?? c.res;
}

const writeMethods: ReadonlySet<string> = new Set(WRITE_METHODS);

/** The folder of a routes file, e.g. `./routes/(g)/a` for `./routes/(g)/a/b.tsx`. */
function folderOf(file: string): string {
  return file.slice(0, file.lastIndexOf("/"));
}

/** How deep a routes file is: outer folders have smaller depths. */
function depthOf(file: string): number {
  return file.split("/").length;
}

/** The method handlers of a route module; a page without a `GET` handler gets one that renders it. */
function methodHandlers(handler: Handlers | undefined, hasPage: boolean): Handlers {
  const handlers = { ...handler };
  if (hasPage && !handlers.GET) handlers.GET = (_req, ctx) => ctx.render();
  return handlers;
}

/**
 * Registers every route, middleware, island and asset of `manifest` on `app`.
 * Middleware added to `app` before this call runs first and may fill `c.var.state`.
 * @throws Error for an invalid route file name.
 */
export function registerRoutes(app: Hono<Env>, manifest: Manifest, options: WebOptions): void {
  const { assets } = options;
  for (const [file, module] of Object.entries(manifest.islands)) registerIsland(islandName(file), module.default);

  const files = Object.entries(manifest.routes).sort(([a], [b]) => depthOf(a) - depthOf(b));
  const special = (stem: string) => files.filter(([file]) => fileStem(file) === stem);
  const appComponent = special("_app")[0]?.[1].default as Layout | undefined;
  const layouts = special("_layout").map(([file, module]) => ({ folder: folderOf(file), component: module.default }));
  const layoutsOf = (file: string) =>
    layouts.filter((l) => file.startsWith(l.folder + "/")).map((l) => l.component as Layout);
  const pageOf = (file: string, component: AnyComponent | undefined): PageEntry | undefined =>
    component && { component, layouts: layoutsOf(file) };
  const [notFoundPage, errorPage] = ["_404", "_500"].map((stem) => {
    const found = special(stem)[0];
    return found && pageOf(found[0], found[1].default);
  });
  const folders = special("_middleware").map(([file, module]) => {
    const route = folderPrefix(file);
    const steps = ([module.handler].flat() as MiddlewareHandler[]).map((handler) => ({ route, handler }));
    return { matches: folderMatcher(file), steps };
  });
  if (folders.length > 30) throw new Error("At most 30 _middleware files are supported");
  const routes: RouteEntry[] = files
    .filter(([file]) => !fileStem(file).startsWith("_"))
    .map(([file, module]) => ({
      pattern: routePattern(file),
      handler: module.handler as Handler | Handlers | undefined,
      page: pageOf(file, module.default),
      config: module.routeOptions,
    }))
    .sort((a, b) => compareRoutes(a.pattern, b.pattern));

  const renderPage = (
    c: Context<Env>,
    route: string,
    page: PageEntry,
    data: unknown,
    extra: Record<string, unknown> = {},
    opts?: RenderOptions,
  ) => {
    const props = {
      url: urlOf(c),
      route,
      params: c.req.param() as Record<string, string>,
      data,
      state: stateOf(c),
      ...extra,
    };
    const tree = { app: appComponent, layouts: page.layouts, page: page.component as ComponentType<PageProps> };
    return htmlResponse(renderDocument(tree, props, assets), opts);
  };
  const renderNotFound = (c: Context<Env>, route: string) =>
    notFoundPage
      ? renderPage(c, route, notFoundPage, undefined, {}, { status: 404 })
      : new Response("Not found", { status: 404 });
  const renderErrorPage = (c: Context<Env>, error: unknown) =>
    errorPage
      ? renderPage(c, c.req.path, errorPage, undefined, { error }, { status: 500 })
      : new Response("Internal server error", { status: 500 });

  const pages: PageRenderer = { render: renderPage, renderNotFound };
  const makeContext = (c: Context<Env>, route: string, page?: PageEntry): WebContext =>
    new WebContext(c, route, page, pages);

  // The folder middleware chains met so far, by the bit set of the folders whose path matched.
  const chains = new Map<number, MiddlewareStep[]>();
  const chainOf = (path: string): MiddlewareStep[] => {
    let matched = 0;
    for (let i = 0; i < folders.length; i++) if (folders[i].matches(path)) matched |= 1 << i;
    let chain = chains.get(matched);
    if (!chain) {
      chain = folders.filter((_, i) => (matched & (1 << i)) !== 0).flatMap((folder) => folder.steps);
      chains.set(matched, chain);
    }
    return chain;
  };

  const answerError = (error: unknown, c: Context<Env>): Response => {
    const pages: ErrorPages = {
      renderErrorPage: () => renderErrorPage(c, error),
      renderNotFound: () => renderNotFound(c, c.req.path),
      render: (component, status) =>
        renderPage(c, c.req.path, { component: component as AnyComponent, layouts: [] }, undefined, {}, { status }),
    };
    return options.onError?.(error, c.req.raw, stateOf(c), pages) ?? pages.renderErrorPage();
  };

  /**
   * `run(c)`'s response, or `onError`'s response to what it threw or rejected with. Not an async
   * function: a response `run` gives at once is answered at once, with no promise around it.
   */
  const answerOrError = (c: Context<Env>, run: Responder): Response | Promise<Response> => {
    try {
      const res = run(c);
      return res instanceof Promise ? res.catch((error) => answerError(error, c)) : res;
    } catch (error) {
      return answerError(error, c);
    }
  };

  /**
   * What answers a request after its folder middleware: `guard` for a write, then `respond`; a
   * thrown error is answered by `onError` here, so the folder middleware gets that response.
   */
  const responder = (respond: Responder, guard?: HonoMiddleware<Env>): Responder => {
    const guarded: Responder | undefined = guard && ((c) => runMiddleware(c, guard, respond));
    return (c) => answerOrError(c, guarded && writeMethods.has(c.req.method) ? guarded : respond);
  };

  /** Built assets, else the folder middleware of the path, then `rest`. */
  const answer = (c: Context<Env>, rest: Responder): Response | Promise<Response> => {
    stateOf(c);
    const { method, path } = c.req;
    if (method === "GET" || method === "HEAD") {
      const asset = serveAsset(assets, c.req.raw, path);
      if (asset) return asset;
    }
    const chain = chainOf(path);
    if (chain.length === 0) return rest(c);
    return chain[0].handler(c.req.raw, new MiddlewareContext(c, pages, chain, 0, rest));
  };

  // Each route is one Hono handler (and not-found another), which runs `around`, assets, folder
  // middleware, write middleware and the route: Hono composes a chain for every request that
  // more than one of its handlers matches, so none of these is a Hono layer of its own.
  // With `around`, what `around` gets is `answer`'s response or `onError`'s response to what it threw.
  const { around } = options;
  const serve = (rest: Responder): Responder => {
    const answerRest: Responder = (c) => answer(c, rest);
    if (!around) return answerRest;
    const answerRestOrError: Responder = (c) => answerOrError(c, answerRest);
    return (c) => runMiddleware(c, around, answerRestOrError);
  };

  for (const { pattern: { pattern }, handler, page, config } of routes) {
    let respond: Responder;
    if (typeof handler === "function") {
      respond = (c) => handler(c.req.raw, makeContext(c, pattern, page));
    } else {
      const handlers = methodHandlers(handler, page !== undefined);
      const allow = METHODS.filter((m) => handlers[m] || (m === "HEAD" && handlers.GET));
      respond = (c) => {
        const method = c.req.method as keyof Handlers;
        const fn = handlers[method] ?? (method === "HEAD" ? handlers.GET : undefined);
        if (fn) return fn(c.req.raw, makeContext(c, pattern, page));
        return options.methodNotAllowed?.(c.req.raw, allow) ??
          new Response("Method not allowed", { status: 405, headers: { allow: allow.join(", ") } });
      };
    }
    app.all(pattern, serve(responder(respond, options.writeMiddleware?.(config, pattern))));
  }

  app.notFound(serve(responder((c) => renderNotFound(c, c.req.path))));
  app.onError((error, c) => answerError(error, c));
}
