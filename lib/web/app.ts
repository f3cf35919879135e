/**
 * Joins a manifest of Fresh 1.x route modules to a Hono app: middleware by folder, pages and
 * handlers by file, 405 with `Allow` for a known path and an unhandled method, `_404` for an
 * unknown path, `_500` (or the caller's `onError`) for a thrown error, plus built assets.
 * Generic: it knows nothing of the platform that uses it.
 *
 * A request goes through one async pipeline (`handle`): a built asset is answered at once;
 * otherwise the `_middleware` files whose folder holds the path (the path the router matched,
 * percent-escapes decoded) run, outer folders first, and the last one's `next()` runs the route
 * (or the 405 or the 404). An error thrown anywhere is answered by `onError` right where it was
 * thrown, so the middleware around it gets that response.
 *
 * - `_middleware` applies to every URL under its folder's path, as in Fresh 1.x: a `[param]`
 *   folder's middleware also runs for a static sibling (`items/[id]/` for `/items/new`), and
 *   a `(group)` folder adds no path, so its middleware applies to its parent's whole path.
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
import { compareRoutes, fileStem, folderMatcher, routePattern } from "./routes.ts";
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
} from "./types.ts";

/** The request an error was thrown in: the request, its state and the pages to answer with. */
export interface ErrorRequest {
  req: Request;
  state: State;
  pages: ErrorPages;
}

/** Pages `onError` may answer with: `_500`, `_404`, or any component inside `_app` with a status. */
export interface ErrorPages {
  /** Renders `_500` (or a plain 500). */
  renderErrorPage(): Response;
  /** Renders `_404` (or a plain 404) with status 404. */
  renderNotFound(): Response;
  /** Renders `component` inside `_app` (without layouts) with `status`. */
  render(component: ComponentType, status: number): Response;
}

/** Options of `registerRoutes`. */
export interface WebOptions {
  assets: Assets;
  /** The `ctx.state` a request starts with (default `{}`); middleware fills in the rest. */
  initialState?: (req: Request) => State;
  /**
   * Reads a route module's `routeOptions` export (undefined when it has none, and for unknown
   * paths) once at registration; what it returns is `ctx.routeOptions` of that route's requests.
   * It may throw to fail the start on an invalid value.
   */
  routeOptions?: (exported: unknown, route: string) => unknown;
  /** The answer for an unknown path (default: `pages.renderNotFound()`), after its middleware. */
  notFound?: (req: Request, pages: ErrorPages) => Response;
  /** The answer for a known path and a method it does not handle; `allow` lists the methods it does. */
  methodNotAllowed?: (req: Request, allow: string[]) => Response;
  /** Maps an error thrown by a middleware or handler to a response. */
  onError?: (error: unknown, request: ErrorRequest) => Response;
}

type AnyComponent = ComponentType<never>;
type Layout = ComponentType<AppProps>;
type Env = { Variables: { state: State } };

/** A page component with the layouts that wrap it, outermost first. */
interface PageEntry {
  component: AnyComponent;
  layouts: Layout[];
}

/** What a request's pipeline ends in: a route, or the not-found answer (`pattern` null). */
interface Endpoint {
  pattern: string | null;
  /** Answers the request once every middleware has run. */
  respond(req: Request, ctx: HandlerContext): Response | Promise<Response>;
  page?: PageEntry;
  routeOptions: unknown;
}

/** The folder middleware of one `_middleware` file and the paths it applies to. */
interface Folder {
  matches(path: string): boolean;
  handlers: MiddlewareHandler[];
}

/** One page render: the page at `route` for `url`, with its data, response options and, on `_500`, the error. */
interface RenderRequest {
  url: URL;
  route: string;
  page: PageEntry;
  data?: unknown;
  opts?: RenderOptions;
  error?: unknown;
}

/** How the contexts of one registration render pages. */
interface Renderer {
  render(c: Context<Env>, what: RenderRequest): Response;
  /** Renders `_404` (or a plain 404) with status 404. */
  renderNotFound(c: Context<Env>, url: URL): Response;
  errorPages(c: Context<Env>, url: URL, error: unknown): ErrorPages;
}

/** Where a context keeps its Hono context, for `fromHonoMiddleware` only. */
const HONO_CONTEXT = Symbol("hono context");

/**
 * The context of one request, shared by its middleware and its handler, as Fresh 2's is: `next()`
 * runs the step after the one now running. `route` is the pattern of the route the request ends
 * in (the path itself for an unknown path).
 */
class WebContext implements MiddlewareHandlerContext {
  readonly [HONO_CONTEXT]: Context<Env>;
  readonly state: State;
  readonly route: string;
  readonly routeOptions: unknown;
  readonly url: URL;
  private readonly endpoint: Endpoint;
  private readonly renderer: Renderer;
  next: () => Promise<Response> = () => Promise.reject(new Error("next() called outside middleware"));
  constructor(c: Context<Env>, { url, endpoint, renderer }: { url: URL; endpoint: Endpoint; renderer: Renderer }) {
    this[HONO_CONTEXT] = c;
    this.url = url;
    this.endpoint = endpoint;
    this.renderer = renderer;
    this.state = c.get("state");
    this.route = endpoint.pattern ?? url.pathname;
    this.routeOptions = endpoint.routeOptions;
  }
  get params(): Record<string, string> {
    return this[HONO_CONTEXT].req.param() as Record<string, string>;
  }
  get remoteAddr(): { hostname: string; port: number } {
    const info = this[HONO_CONTEXT].env as { remoteAddr?: { hostname: string; port: number } } | undefined;
    return info?.remoteAddr ?? { hostname: "127.0.0.1", port: 0 };
  }
  render(data?: unknown, opts?: RenderOptions): Response {
    const { page } = this.endpoint;
    if (!page) throw new Error(`Route ${this.route} has no page component to render`);
    return this.renderer.render(this[HONO_CONTEXT], { url: this.url, route: this.route, page, data, opts });
  }
  renderNotFound(): Response {
    return this.renderer.renderNotFound(this[HONO_CONTEXT], this.url);
  }
}

/**
 * Runs Hono middleware (Hono's `secureHeaders`, `bodyLimit`, ...) as a folder middleware: its
 * `next()` is the chain's, and what it sets on the response or the request carries on.
 */
export function fromHonoMiddleware<S>(middleware: HonoMiddleware): MiddlewareHandler<S> {
  return async (_req, ctx) => {
    const c = (ctx as unknown as Partial<WebContext>)[HONO_CONTEXT];
    if (!c) throw new Error("fromHonoMiddleware: not a web layer context");
    const res = await middleware(c, async () => {
      c.res = await ctx.next();
    });
    return res ?? c.res;
  };
}

function htmlResponse(html: string, options: RenderOptions = {}): Response {
  const headers = new Headers(options.headers);
  headers.set("content-type", "text/html; charset=utf-8");
  return new Response(html, { status: options.status ?? 200, headers });
}

/** The folder of a routes file, e.g. `./routes/(g)/a` for `./routes/(g)/a/b.tsx`. */
function folderOf(file: string): string {
  return file.slice(0, file.lastIndexOf("/"));
}

/** How deep a routes file is: outer folders have smaller depths. */
function depthOf(file: string): number {
  return file.split("/").length;
}

/**
 * How a route module answers once its middleware has run: its one handler function; or the
 * handler of the request's method (a page without `GET` renders itself, `HEAD` falls back to
 * `GET`), else 405 with `Allow`.
 */
function routeResponder(
  handler: Handler | Handlers | undefined,
  hasPage: boolean,
  methodNotAllowed: WebOptions["methodNotAllowed"],
): Endpoint["respond"] {
  if (typeof handler === "function") return handler;
  const handlers: Handlers = { ...handler };
  if (hasPage && !handlers.GET) handlers.GET = (_req, ctx) => ctx.render();
  const allow = METHODS.filter((m) => handlers[m] || (m === "HEAD" && handlers.GET));
  return (req, ctx) => {
    const method = req.method as keyof Handlers;
    const fn = handlers[method] ?? (method === "HEAD" ? handlers.GET : undefined);
    if (fn) return fn(req, ctx);
    return methodNotAllowed?.(req, allow) ??
      new Response("Method not allowed", { status: 405, headers: { allow: allow.join(", ") } });
  };
}

/**
 * Registers every route, middleware, island and asset of `manifest` on `app`.
 * @throws Error for an invalid route file name, or what `options.routeOptions` throws.
 */
export function registerRoutes(app: Hono<Env>, manifest: Manifest, options: WebOptions): void {
  const { assets } = options;
  for (const [file, module] of Object.entries(manifest.islands)) registerIsland(islandName(file), module.default);

  const files = Object.entries(manifest.routes).sort(([a], [b]) => depthOf(a) - depthOf(b));
  const special = (stem: string) => files.filter(([file]) => fileStem(file) === stem);
  const appComponent = special("_app")[0]?.[1].default as Layout | undefined;
  const layouts = special("_layout").map(([file, module]) => ({ folder: folderOf(file), component: module.default }));
  const pageOf = (file: string, component: AnyComponent | undefined): PageEntry | undefined =>
    component && {
      component,
      layouts: layouts.filter((l) => file.startsWith(l.folder + "/")).map((l) => l.component as Layout),
    };
  const [notFoundPage, errorPage] = ["_404", "_500"].map((stem) => {
    const found = special(stem)[0];
    return found && pageOf(found[0], found[1].default);
  });
  const folders: Folder[] = special("_middleware").map(([file, module]) => ({
    matches: folderMatcher(file),
    handlers: [module.handler].flat() as MiddlewareHandler[],
  }));
  const readRouteOptions = (exported: unknown, route: string) => options.routeOptions?.(exported, route) ?? exported;

  const render = (c: Context<Env>, { url, route, page, data, opts, error }: RenderRequest) => {
    const props = {
      url,
      route,
      params: c.req.param() as Record<string, string>,
      data,
      state: c.get("state"),
      ...(error === undefined ? {} : { error }),
    };
    const tree = { app: appComponent, layouts: page.layouts, page: page.component as ComponentType<PageProps> };
    return htmlResponse(renderDocument(tree, props, assets), opts);
  };
  const renderer: Renderer = {
    render,
    renderNotFound: (c, url) =>
      notFoundPage
        ? render(c, { url, route: url.pathname, page: notFoundPage, opts: { status: 404 } })
        : new Response("Not found", { status: 404 }),
    errorPages: (c, url, error) => ({
      renderErrorPage: () =>
        errorPage
          ? render(c, { url, route: url.pathname, page: errorPage, opts: { status: 500 }, error })
          : new Response("Internal server error", { status: 500 }),
      renderNotFound: () => renderer.renderNotFound(c, url),
      render: (component, status) =>
        render(c, {
          url,
          route: url.pathname,
          page: { component: component as AnyComponent, layouts: [] },
          opts: { status },
        }),
    }),
  };

  /** Built assets at once; else the folder middleware of the path, outer first, then `endpoint`. */
  const handle = (c: Context<Env>, endpoint: Endpoint): Promise<Response> | Response => {
    const req = c.req.raw;
    if (req.method === "GET" || req.method === "HEAD") {
      const asset = serveAsset(assets, req, c.req.path);
      if (asset) return asset;
    }
    c.set("state", options.initialState?.(req) ?? {});
    const url = new URL(req.url);
    // The folders of the path the router matched (decoded: `/%61dmin` is `/admin`), never of the path as sent, so a
    // route is never reached around its folder's middleware.
    const chain = folders.filter((folder) => folder.matches(c.req.path)).flatMap((folder) => folder.handlers);
    const ctx = new WebContext(c, { url, endpoint, renderer });
    // Each step gets the request as it is now: a middleware may have replaced it (a body limit).
    const run = (step: number): Promise<Response> => {
      ctx.next = () => run(step + 1);
      try {
        const answer = step < chain.length ? chain[step](c.req.raw, ctx) : endpoint.respond(c.req.raw, ctx);
        return Promise.resolve(answer).catch((error) => answerError(c, url, error));
      } catch (error) {
        return Promise.resolve(answerError(c, url, error));
      }
    };
    return run(0);
  };
  const answerError = (c: Context<Env>, url: URL, error: unknown): Response => {
    const pages = renderer.errorPages(c, url, error);
    return options.onError?.(error, { req: c.req.raw, state: c.get("state") ?? {}, pages }) ?? pages.renderErrorPage();
  };

  const routes = files
    .filter(([file]) => !fileStem(file).startsWith("_"))
    .map(([file, module]) => ({ file, module, pattern: routePattern(file) }))
    .sort((a, b) => compareRoutes(a.pattern, b.pattern));
  for (const { file, module, pattern: { pattern } } of routes) {
    const page = pageOf(file, module.default);
    const endpoint: Endpoint = {
      pattern,
      page,
      respond: routeResponder(
        module.handler as Handler | Handlers | undefined,
        page !== undefined,
        options.methodNotAllowed,
      ),
      routeOptions: readRouteOptions(module.routeOptions, pattern),
    };
    app.all(pattern, (c) => handle(c, endpoint));
  }
  const notFound: Endpoint = {
    pattern: null,
    respond: (req, ctx) => {
      const pages = renderer.errorPages((ctx as WebContext)[HONO_CONTEXT], ctx.url, undefined);
      return options.notFound?.(req, pages) ?? pages.renderNotFound();
    },
    routeOptions: readRouteOptions(undefined, "(not found)"),
  };
  app.notFound((c) => handle(c, notFound));
  app.onError((error, c) => answerError(c, new URL(c.req.url), error));
}
