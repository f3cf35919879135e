/**
 * The platform's `define`: route handlers, pages, layouts and middleware typed with `AppState`
 * (see `lib/web/define.ts`). Every route module imports it as `@/lib/platform/define.ts`, and a
 * route's own function that takes the handler's context types it as `RouteContext`, so no route
 * spells the state type.
 */
import { createDefine } from "../web/define.ts";
import type { HandlerContext } from "../web/types.ts";
import type { AppState } from "./state.ts";

export const define = createDefine<AppState>();

/** The context a route's handler receives (`Data` is what `ctx.render` takes). */
export type RouteContext<Data = unknown> = HandlerContext<Data, AppState>;
