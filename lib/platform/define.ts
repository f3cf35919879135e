/**
 * The platform's `define`: route handlers, pages, layouts and middleware typed with `AppState`
 * (see `lib/web/define.ts`). Every route module imports it as `@/lib/platform/define.ts`.
 */
import { createDefine } from "../web/define.ts";
import type { AppState } from "./state.ts";

export const define = createDefine<AppState>();
