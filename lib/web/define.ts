/**
 * `createDefine<State>()`, as Fresh 2's: typed identity functions that bind route handlers, pages,
 * layouts and middleware to one state type, so a route module spells neither the state nor the
 * context types (`export const handler = define.handlers<Data>({ GET(req, ctx) { ... } })`).
 */
import type { ComponentChild } from "preact";
import type { AppProps, Handler, Handlers, MiddlewareHandler, PageProps } from "./types.ts";

/** The definers bound to state `S`; each returns what it is given. */
export interface Define<S> {
  /** A route's `handler` export: one function for every method, or one per method. */
  handlers<Data = unknown>(handlers: Handlers<Data, S>): Handlers<Data, S>;
  /** A route's `handler` export that answers every method with one function. */
  handlers<Data = unknown>(handler: Handler<Data, S>): Handler<Data, S>;
  /** A route's default export: the page that `ctx.render(data)` renders. */
  page<Data = unknown>(
    page: (props: PageProps<Data, S>) => ComponentChild,
  ): (props: PageProps<Data, S>) => ComponentChild;
  /** The default export of `_app.tsx` or a `_layout.tsx`. */
  layout(layout: (props: AppProps<S>) => ComponentChild): (props: AppProps<S>) => ComponentChild;
  /** A `_middleware.ts` file's `handler` export: one middleware or a chain of them. */
  middleware(
    middleware: MiddlewareHandler<S> | MiddlewareHandler<S>[],
  ): MiddlewareHandler<S> | MiddlewareHandler<S>[];
}

/** The definers for state `S` (no runtime cost: every definer returns its argument). */
export function createDefine<S>(): Define<S> {
  return {
    handlers: <T>(handlers: T) => handlers,
    page: (page) => page,
    layout: (layout) => layout,
    middleware: (middleware) => middleware,
  };
}
