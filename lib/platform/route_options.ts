/**
 * Per-route options a route module declares with `export const routeOptions: RouteOptions = {...}`
 * (its own name: Fresh reads `config` with another meaning), read once when the routes are registered:
 *
 * - `bodyLimitBytes`: the largest request body the route accepts (default 1 MB, docs/decisions.md,
 *   Errors and limits; uploads declare 5 MB plus multipart overhead). A larger body is 413 `{error}`
 *   before the handler runs (`lib/http/limits.ts`).
 * - `bodyLimitRefusal`: the sentence a body over `bodyLimitBytes` is refused with, instead of the body's size in MB
 *   (an upload route says its file's limit, as its form states it: `REFUSALS.imageTooLarge`).
 * - `originCheck: false`: the route is exempt from the CSRF origin check (`lib/http/csrf.ts`). Only a
 *   route that authenticates every request by its own signature (a payment gateway's webhook,
 *   which verifies the HMAC of the raw body before it reads anything), or by a secret token in its path (the
 *   one-click unsubscribe link, which a mail client posts from no origin at all), may declare it.
 * - `originCheck: "login"`: the login-CSRF rule too, in the same check: a write naming another origin is refused even
 *   without a session cookie (the `/api/auth/*` endpoints that take a POST, the sign-in, sign-up and password pages, and
 *   the language switch, which keeps a guest's cookie; `tests/api/auth/csrf_test.ts` holds every one to it).
 * - `personLimit`: the per-person limit the route's writes fall under (`PERSON_LIMITS`, `lib/http/person_limits.ts`).
 * - `apiKey: true`: the route's writes take an admin-issued ingest key (`Authorization: Bearer <key>`, which wins over
 *   the session: `ingestUser`), so a write carrying that header has its key, not its session, checked again once its
 *   body has arrived (`bodyLimits`); every route whose `apiDocs` admit `apiKey` declares it, and only those.
 */
import { z } from "zod";

/** Largest request body by default, in bytes (1 MB). */
export const DEFAULT_BODY_LIMIT_BYTES = 1024 * 1024;

/** Largest request body of a route that takes an upload, in bytes: 5 MB of file plus 64 KB of multipart framing. */
export const UPLOAD_BODY_LIMIT_BYTES = 5 * 1024 * 1024 + 64 * 1024;

/** The names of `PERSON_LIMITS` (`lib/platform/rate_limits.ts`, whose type holds the two lists together). */
export const PERSON_LIMIT_NAMES = [
  "reactions",
  "saved",
  "alerts",
  "settings",
  "notifications",
  "push",
  "profile",
  "comments",
  "progress",
  "export",
  "data",
  "unsubscribe",
  "submissions",
  "checkout",
  "resume",
  "applications",
  "pipeline",
] as const;

const RouteOptionsSchema = z.strictObject({
  bodyLimitBytes: z.int().positive().optional(),
  bodyLimitRefusal: z.string().min(1).optional(),
  originCheck: z.union([z.literal(false), z.literal("login")]).optional(),
  personLimit: z.enum(PERSON_LIMIT_NAMES).optional(),
  apiKey: z.literal(true).optional(),
});

/** A route's options; see the module docstring. */
export type RouteOptions = z.infer<typeof RouteOptionsSchema>;

/** A route's options with defaults applied, as middleware reads them (`readRouteOptions`). */
export interface ResolvedRouteOptions {
  bodyLimitBytes: number;
  /** The 413's sentence, when the route names one (`bodyLimitRefusal`). */
  bodyLimitRefusal: string | undefined;
  originCheck: boolean;
  /** Whether the login-CSRF rule applies as well (`originCheck: "login"`). */
  loginOrigin: boolean;
  personLimit: typeof PERSON_LIMIT_NAMES[number] | undefined;
  /** Whether the route's writes take an ingest API key (`apiKey: true`). */
  apiKey: boolean;
}

/**
 * The route's options with defaults applied; the platform app hands it to the web layer, which
 * calls it once per route at start (`WebOptions.routeOptions`).
 * @throws Error naming the route when its `routeOptions` export is not a `RouteOptions` (a typo such as
 *   `originCheck: "off"` fails the start instead of silently keeping or dropping a protection).
 */
export function resolveRouteOptions(options: unknown, route: string): ResolvedRouteOptions {
  const result = RouteOptionsSchema.safeParse(options ?? {});
  if (!result.success) throw new Error(`Invalid route options of ${route}: ${z.prettifyError(result.error)}`);
  return {
    bodyLimitBytes: result.data.bodyLimitBytes ?? DEFAULT_BODY_LIMIT_BYTES,
    bodyLimitRefusal: result.data.bodyLimitRefusal,
    originCheck: result.data.originCheck !== false,
    loginOrigin: result.data.originCheck === "login",
    personLimit: result.data.personLimit,
    apiKey: result.data.apiKey === true,
  };
}

/** The options of the route a request ends in, as `resolveRouteOptions` made them at start. */
export function readRouteOptions(ctx: { routeOptions: unknown }): ResolvedRouteOptions {
  return ctx.routeOptions as ResolvedRouteOptions;
}
