/**
 * Per-route options a route module declares with `export const routeOptions: RouteOptions = {...}`
 * (its own name: Fresh reads `config` with another meaning), read once when the routes are registered:
 *
 * - `bodyLimitBytes`: the largest request body the route accepts (default 1 MB, CONTRACT.md §9;
 *   uploads declare 5 MB plus multipart overhead). A larger body is 413 `{error}` before the handler runs.
 * - `originCheck: false`: the route is exempt from the CSRF origin check (CONTRACT.md §2). Only a
 *   route that authenticates every request by its own signature (a payment gateway's webhook,
 *   which verifies the HMAC of the raw body before it reads anything) may declare it.
 */
import { z } from "zod";

/** Largest request body by default, in bytes (CONTRACT.md §9: 1 MB). */
export const DEFAULT_BODY_LIMIT_BYTES = 1024 * 1024;

const RouteOptionsSchema = z.strictObject({
  bodyLimitBytes: z.int().positive().optional(),
  originCheck: z.literal(false).optional(),
});

/** A route's options; see the module docstring. */
export type RouteOptions = z.infer<typeof RouteOptionsSchema>;

/**
 * The route's options with defaults applied.
 * @throws Error naming the route when its `routeOptions` export is not a `RouteOptions` (a typo such as
 *   `originCheck: "off"` fails the start instead of silently keeping or dropping a protection).
 */
export function routeOptionsOf(options: unknown, route: string): Required<Pick<RouteOptions, "bodyLimitBytes">> & {
  originCheck: boolean;
} {
  const result = RouteOptionsSchema.safeParse(options ?? {});
  if (!result.success) throw new Error(`Invalid route options of ${route}: ${z.prettifyError(result.error)}`);
  return {
    bodyLimitBytes: result.data.bodyLimitBytes ?? DEFAULT_BODY_LIMIT_BYTES,
    originCheck: result.data.originCheck !== false,
  };
}
