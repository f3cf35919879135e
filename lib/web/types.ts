/**
 * Types of the Fresh-shaped web layer: route modules in the Fresh 1.x format
 * (`handler` plus an optional default page component), middleware, `_app`,
 * `_layout` and error pages, and the generated manifest that lists them.
 */
import type { ComponentType, JSX } from "preact";

/** HTTP methods a route module's `handler` object may define. */
export const METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"] as const;
export type Method = typeof METHODS[number];

/** Per-request state shared by middleware, handlers and pages. */
export type State = Record<string, unknown>;

/** Options of `ctx.render`: status and extra headers of the HTML response. */
export interface RenderOptions {
  status?: number;
  headers?: HeadersInit;
}

/** The context every handler and middleware receives. */
export interface HandlerContext<Data = unknown, S = State> {
  /** Route parameters, e.g. `{ id }` for `routes/items/[id].tsx`. */
  params: Record<string, string>;
  state: S;
  url: URL;
  /** The pattern of the route the request ends in, e.g. `/items/:id` (the path for an unknown path). */
  route: string;
  /** The route's options: its `routeOptions` export as `WebOptions.routeOptions` read it at start. */
  routeOptions: unknown;
  remoteAddr: { hostname: string; port: number };
  /** Renders the route's page component with `data` as `PageProps.data`. */
  render(data?: Data, options?: RenderOptions): Response;
  /** Renders `_404` (or a plain 404) with status 404. */
  renderNotFound(): Response;
}

/** A handler of one method. */
export type Handler<Data = unknown, S = State> = (
  req: Request,
  ctx: HandlerContext<Data, S>,
) => Response | Promise<Response>;

/** A route module's `handler` export: one function for every method, or one per method. */
export type Handlers<Data = unknown, S = State> = {
  [K in Method]?: Handler<Data, S>;
};

/** Context of a middleware: a handler context plus `next()`. */
export interface MiddlewareHandlerContext<S = State> extends HandlerContext<unknown, S> {
  next(): Promise<Response>;
}

/** A `_middleware.ts` handler; it runs for every path under its folder. */
export type MiddlewareHandler<S = State> = (
  req: Request,
  ctx: MiddlewareHandlerContext<S>,
) => Response | Promise<Response>;

/** Props of a page component. */
export interface PageProps<Data = unknown, S = State> {
  url: URL;
  route: string;
  params: Record<string, string>;
  data: Data;
  state: S;
}

/** Props of `_app.tsx` and `_layout.tsx`: `Component` renders what they wrap. */
export interface AppProps<S = State> extends PageProps<unknown, S> {
  Component: ComponentType<Record<string, never>>;
}

/** Props of `_500.tsx`. */
export interface ErrorPageProps<S = State> extends PageProps<unknown, S> {
  error: unknown;
}

/**
 * What a file under `routes/` may export. `routeOptions` is the route's own options (not named
 * `config`, which Fresh reads with another meaning), read by `WebOptions.routeOptions`.
 */
export interface RouteModule {
  routeOptions?: unknown;
  handler?: Handler<never, never> | Handlers<never, never> | MiddlewareHandler<never> | MiddlewareHandler<never>[];
  default?: ComponentType<never> | ((props: never) => JSX.Element | null);
}

/** What a file under `islands/` exports: the island component as `default`. */
export interface IslandModule {
  default: ComponentType<never>;
}

/** The generated `routes.gen.ts`: route and island modules keyed by their path from the project root. */
export interface Manifest {
  routes: Record<string, RouteModule>;
  islands: Record<string, IslandModule>;
  baseUrl: string;
}
