/**
 * Joins a manifest of Fresh 1.x route modules to a Hono app: middleware by folder, pages and
 * handlers by file, 405 with `Allow` for a known path and an unhandled method, `_404` for an
 * unknown path, `_500` (or the caller's `onError`) for a thrown error, plus built assets.
 * Generic: it knows nothing of the platform that uses it.
 */
import type { Context, Hono } from "hono";
import type { ComponentType } from "preact";
import { type Assets, serveAsset } from "./assets.ts";
import { registerIsland } from "./islands.ts";
import { renderDocument } from "./render.ts";
import { compareRoutes, fileStem, folderPrefix, routePattern } from "./routes.ts";
import {
  type AppProps,
  type Handler,
  type HandlerContext,
  type Handlers,
  type Manifest,
  type Method,
  METHODS,
  type MiddlewareHandler,
  type PageProps,
  type RenderOptions,
  type State,
} from "./types.ts";
import { islandName } from "./build.ts";

/** Options of `registerRoutes`. */
export interface WebOptions {
  assets: Assets;
  /** The answer for a known path and a method it does not handle. */
  methodNotAllowed?: (req: Request, allow: string[]) => Response;
  /** Maps an error thrown by a handler to a response; `renderErrorPage` renders `_500`. */
  onError?: (error: unknown, req: Request, state: State, renderErrorPage: () => Response) => Response;
}

type AnyComponent = ComponentType<never>;
type Env = { Variables: { state: State } };

interface Special {
  app?: ComponentType<AppProps>;
  layouts: { prefix: string; component: ComponentType<AppProps> }[];
  middlewares: { prefix: string; handlers: MiddlewareHandler[] }[];
  notFound?: AnyComponent;
  error?: AnyComponent;
}

function stateOf(c: Context<Env>): State {
  let state = c.get("state");
  if (!state) {
    state = {};
    c.set("state", state);
  }
  return state;
}

function remoteAddrOf(c: Context<Env>): { hostname: string; port: number } {
  const info = c.env as { remoteAddr?: { hostname: string; port: number } } | undefined;
  return info?.remoteAddr ?? { hostname: "127.0.0.1", port: 0 };
}

function underPrefix(pathname: string, prefix: string): boolean {
  return prefix === "/" || pathname === prefix || pathname.startsWith(prefix + "/");
}

function htmlResponse(html: string, options: RenderOptions = {}): Response {
  const headers = new Headers(options.headers);
  headers.set("content-type", "text/html; charset=utf-8");
  return new Response(html, { status: options.status ?? 200, headers });
}

/**
 * Registers every route, middleware, island and asset of `manifest` on `app`.
 * Middleware added to `app` before this call runs first and may fill `c.var.state`.
 * @throws Error for an invalid route file name.
 */
export function registerRoutes(app: Hono<Env>, manifest: Manifest, options: WebOptions): void {
  const { assets } = options;
  for (const [file, module] of Object.entries(manifest.islands)) registerIsland(islandName(file), module.default);

  const special: Special = { layouts: [], middlewares: [] };
  const routes: { file: string; pattern: ReturnType<typeof routePattern>; handler: unknown; page?: AnyComponent }[] =
    [];
  for (const [file, module] of Object.entries(manifest.routes)) {
    const stem = fileStem(file);
    const prefix = folderPrefix(file);
    if (stem === "_app") special.app = module.default as ComponentType<AppProps>;
    else if (stem === "_layout") special.layouts.push({ prefix, component: module.default as ComponentType<AppProps> });
    else if (stem === "_middleware") {
      const handlers = [module.handler].flat() as MiddlewareHandler[];
      special.middlewares.push({ prefix, handlers });
    } else if (stem === "_404") special.notFound = module.default;
    else if (stem === "_500") special.error = module.default;
    else if (!stem.startsWith("_")) {
      routes.push({ file, pattern: routePattern(file), handler: module.handler, page: module.default });
    }
  }
  special.layouts.sort((a, b) => a.prefix.length - b.prefix.length);
  special.middlewares.sort((a, b) => a.prefix.length - b.prefix.length);

  const renderPage = (
    c: Context<Env>,
    route: string,
    component: AnyComponent,
    data: unknown,
    extra: Record<string, unknown> = {},
    opts?: RenderOptions,
  ) => {
    const url = new URL(c.req.url);
    const layouts = special.layouts.filter((l) => underPrefix(url.pathname, l.prefix)).map((l) => l.component);
    const params = c.req.param() as Record<string, string>;
    const props = { url, route, params, data, state: stateOf(c), ...extra } as PageProps & Record<string, unknown>;
    const html = renderDocument(
      { app: special.app, layouts, page: component as ComponentType<PageProps> },
      props,
      assets,
    );
    return htmlResponse(html, opts);
  };
  const renderErrorPage = (c: Context<Env>, error: unknown) =>
    special.error
      ? renderPage(c, c.req.path, special.error, undefined, { error }, { status: 500 })
      : new Response("Internal server error", { status: 500 });

  const makeContext = (c: Context<Env>, route: string, page?: AnyComponent): HandlerContext => ({
    params: c.req.param() as Record<string, string>,
    state: stateOf(c),
    url: new URL(c.req.url),
    route,
    remoteAddr: remoteAddrOf(c),
    render(data, opts) {
      if (!page) throw new Error(`Route ${route} has no page component to render`);
      return renderPage(c, route, page, data, {}, opts);
    },
    renderNotFound() {
      return special.notFound
        ? renderPage(c, route, special.notFound, undefined, {}, { status: 404 })
        : new Response("Not found", { status: 404 });
    },
  });

  app.use("*", async (c, next) => {
    stateOf(c);
    if (c.req.method === "GET" || c.req.method === "HEAD") {
      const asset = serveAsset(assets, c.req.raw, c.req.path);
      if (asset) return asset;
    }
    await next();
  });

  for (const { prefix, handlers } of special.middlewares) {
    app.use(prefix === "/" ? "*" : `${prefix}/*`, async (c, next) => {
      const base = makeContext(c, prefix);
      const run = async (index: number): Promise<Response> => {
        if (index === handlers.length) {
          await next();
          return c.res;
        }
        return await handlers[index](c.req.raw, { ...base, next: () => run(index + 1) });
      };
      c.res = await run(0);
    });
  }

  routes.sort((a, b) => compareRoutes(a.pattern, b.pattern));
  for (const { pattern: { pattern }, handler, page } of routes) {
    const handlers: Partial<Record<Method, Handler>> = typeof handler === "function"
      ? Object.fromEntries(METHODS.filter((m) => m !== "HEAD").map((m) => [m, handler as Handler]))
      : { ...(handler as Handlers | undefined) };
    if (page && !handlers.GET) handlers.GET = (_req, ctx) => ctx.render();
    const allow = new Set<string>();
    for (const [method, fn] of Object.entries(handlers) as [Method, Handler][]) {
      allow.add(method);
      if (method === "GET") allow.add("HEAD");
      app.on(method, pattern, (c) => fn(c.req.raw, makeContext(c, pattern, page)));
    }
    if (typeof handler !== "function") {
      const allowed = [...allow];
      app.all(pattern, (c) =>
        options.methodNotAllowed?.(c.req.raw, allowed) ??
          new Response("Method not allowed", { status: 405, headers: { allow: allowed.join(", ") } }));
    }
  }

  app.notFound((c) => makeContext(c, c.req.path).renderNotFound());
  app.onError((error, c) => {
    const context = c as Context<Env>;
    const fallback = () => renderErrorPage(context, error);
    return options.onError?.(error, c.req.raw, stateOf(context), fallback) ?? fallback();
  });
}
