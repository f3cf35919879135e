/**
 * How an API route describes itself, once (docs/decisions.md, Search engines and sharing, "API description"): every
 * file under `routes/api/` exports `apiDocs = describeRoute({...})` beside its `handler`: the `section` of
 * `docs/api.md` it belongs to, and per method it handles its summary, the rules a caller must know, who may call it, the
 * very zod schemas the handler validates its query and body with, and every response with its schema. The OpenAPI
 * document (`document.ts`, served at `/api/openapi.json`) and the endpoint entries of `docs/api.md` (`reference.ts`,
 * written by `deno task docs`) are generated from these, so a description is written here and nowhere else. Limits in
 * descriptions interpolate the constants the code enforces (`${COMMENT_MAX_LENGTH}`, `perWindow(rule)`).
 *
 * Errors need only a description: their body is the shared error schema of the status (`resources.ts`). Errors
 * every operation of a kind can answer are added by the generator where the route does not name them: 400 for input,
 * 401 and 403 for access, 403 for a write from another origin, 404 and 414 for a path parameter, 408/413/415 for a
 * body, 429 for the route's per-person limit (`routeOptions.personLimit`),
 * and `default` for an unexpected error (5xx).
 */
import type { z } from "zod";
import type { Method } from "@/lib/web/types.ts";
import { RETRY_BUDGET_MS } from "@/lib/kv/retry.ts";

/**
 * The sections of `docs/api.md` an endpoint can belong to, with the one-line description its OpenAPI tag carries. A
 * new section also needs its heading and endpoint markers in `docs/api.md` (`deno task docs` says so).
 */
export const API_SECTIONS = {
  "Authentication": "Accounts with e-mail and password or a social provider, sessions, verification and reset",
  "Profile and onboarding": "The signed-in person's profile and onboarding answers",
  "Internships": "Internship listings: search, read, post (members, admins, ingest keys), change and delete",
  "Opportunities": "Opportunities (hackathons, events, fellowships, ...): search, read and submit for review",
  "Toolkits": "Toolkits (paid lesson packs): the catalogue, lessons, checkout and progress",
  "Money operations": "Purchases, receipts, refunds, certificates and the admin's figures",
  "Ungatekeep": "The Ungatekeep feed: posts, banners, images, comments and reactions",
  "Admin": "The admin area: users, API keys, the review queue, toolkits, coupons, posts and banners",
  "Trust": "Organizations, verification by domain, and the moderation of held listings",
  "Applications": "A student's resume and applications",
  "Student space": "The signed-in student's saved listings and application tracker",
  "Recommendations": "Listings ranked for the signed-in person",
  "Alerts": "Saved searches that e-mail new listings",
  "Notifications": "In-app notifications",
  "Settings": "The signed-in person's notification settings: e-mail and push per notification type",
  "Push": "Web Push: the key to subscribe with, and the browsers subscribed",
  "Data rights": "Export of everything kept about a person, and account deletion",
  "Background work": "Scheduled jobs and the e-mail outbox",
  "API description": "This document, as JSON and as a web page",
  "Health": "Whether the service is up",
} as const;

/** A section of `docs/api.md` (see `API_SECTIONS`). */
export type ApiSection = keyof typeof API_SECTIONS;

/**
 * Who may call an operation: anyone (`public`), a signed-in `session`, an `admin` session, an `apiKey` (an
 * admin-issued ingest key as `Authorization: Bearer`), or a caller proving a `signature` (the gateway's webhook).
 */
export type Access = "public" | "session" | "admin" | "apiKey" | "signature";

/**
 * One response: what it means, and the zod schema of its JSON body, or another media type. A success (2xx) needs a
 * `schema` or a `mediaType` (the generator refuses it otherwise); an error (4xx, 5xx) given as a plain description gets
 * the shared error schema of its status; a redirect or 304 has no body.
 */
export interface ResponseDoc {
  description: string;
  schema?: z.ZodType;
  /** The body's media type when it is not JSON, e.g. `image/*` or `text/html`. */
  mediaType?: string;
}

/** One operation (a method of a route). */
export interface OperationDoc {
  /** One line: what the operation does, no final period. */
  summary: string;
  /** The rules a caller must know beyond the summary (markdown): who may, what happens, limits, error cases. */
  description?: string;
  /** Who may call it; anyone when absent. Several: any one of them. */
  access?: Access[];
  /** The query parameters: the zod object the handler validates `queryOf(ctx.url)` with. */
  query?: z.ZodType;
  /** The JSON request body: the zod schema the handler validates it with. */
  body?: z.ZodType;
  /** A request body that is not JSON: its media type and description (uploads, the webhook's raw body). */
  rawBody?: { mediaType: string; description: string };
  /**
   * Responses by status; a string is the description of an error (shared error schema) or of a bodiless answer;
   * `false` says the route never answers a status the generator would add (e.g. a callback that redirects every error).
   */
  responses: Record<number, ResponseDoc | string | false>;
}

/** The methods an `apiDocs` export documents. */
export type DocumentedMethod = Exclude<Method, "HEAD" | "OPTIONS">;

/** A route's description: its section of `docs/api.md` and its operations by method. */
export type RouteDocs = { section: ApiSection } & { [M in DocumentedMethod]?: OperationDoc };

/** A route module's `apiDocs` export (identity: it only types the value). */
export function describeRoute(docs: RouteDocs): RouteDocs {
  return docs;
}

/** The operations of a route's description, in the order GET, POST, PUT, PATCH, DELETE. */
export function operationsOf(docs: RouteDocs): [DocumentedMethod, OperationDoc][] {
  const order: DocumentedMethod[] = ["GET", "POST", "PUT", "PATCH", "DELETE"];
  return order.filter((method) => docs[method]).map((method) => [method, docs[method]!]);
}

/**
 * `schema` with limits the handler checks itself, after zod (with an error code of its own, e.g. the password length's
 * `PASSWORD_TOO_SHORT`), stated as JSON Schema keywords so that the document is as strict as the service.
 */
export function checkedLater<S extends z.ZodType>(schema: S, limits: Record<string, number | string>): S {
  return schema.meta(limits) as S;
}

const NUMBER = new Intl.NumberFormat("en-IN");

/** A count as the docs write it: `2,000`. */
export function count(n: number): string {
  return NUMBER.format(n);
}

/** A rate-limit rule as words, e.g. `60 per minute` or `5 per 10 seconds` (`{limit, windowMs}`). */
export function perWindow(rule: { limit: number; windowMs: number }): string {
  const window = duration(rule.windowMs);
  return `${count(rule.limit)} per ${window.startsWith("1 ") ? window.slice(2) : window}`;
}

/** A duration in ms as words, e.g. `90 days`, `24 hours`, `10 minutes`, `30 seconds`. */
export function duration(ms: number): string {
  const units: [number, string][] = [[86_400_000, "day"], [3_600_000, "hour"], [60_000, "minute"], [1000, "second"]];
  // Days from two on: "24 hours" reads better than "1 day".
  const [size, unit] = units.find(([size]) => ms % size === 0 && ms >= size * (size === 86_400_000 ? 2 : 1)) ??
    [1, "millisecond"];
  const n = ms / size;
  return `${count(n)} ${unit}${n === 1 ? "" : "s"}`;
}

/**
 * The 503 of a write that kept losing races to other writers (`BusyError`; docs/decisions.md, Open and closed
 * listings, "Concurrent writers"): nothing was written, and the same request may be sent again after `Retry-After`.
 */
export const BUSY = `Busy: the write kept losing races to other writers for ${
  duration(RETRY_BUDGET_MS)
}; nothing was written, try again after \`Retry-After\``;
