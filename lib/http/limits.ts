/**
 * Request limits of `routes/_middleware.ts` (docs/decisions.md, Errors and limits):
 * - `pathLimit`: a URL path longer than `PATH_LIMIT` characters is refused (`PathTooLongError`: 414 `{error}`, for a
 *   page path its page in the reader's language; ids must stay within KV's key size);
 * - `bodyLimits`: a write's body larger than the route's `bodyLimitBytes` (1 MB unless the route
 *   declares more) fails with `TooLargeError` (413 `{error}`; Hono's `bodyLimit`), and one that stalls, no bytes for
 *   `config.bodyIdleMs` (`BODY_IDLE_MS` by default), fails its read with `RequestTimeoutError` (408). Headers, and bodies
 *   that trickle a few bytes at a time without stalling, are bounded before the app, by the header gate of a
 *   self-hosted server (`lib/platform/header_gate.ts`);
 * - `unreadFormDrain`: a page's form post answered without reading its body has it read and dropped, so a browser
 *   still sending it sees the answer.
 */
import { bodyLimit as honoBodyLimit } from "hono/body-limit";
import { userOfAuthorization } from "@/lib/api_keys/api_keys.ts";
import { sessionHolds } from "@/lib/auth/sessions.ts";
import {
  ClientAbortError,
  PathTooLongError,
  RequestTimeoutError,
  TooLargeError,
  UnauthenticatedError,
} from "@/lib/errors.ts";
import { isPageFormPost } from "@/lib/http/form_posts.ts";
import { readRouteOptions } from "@/lib/platform/route_options.ts";
import type { AppState } from "@/lib/platform/state.ts";
import { fromHonoMiddleware } from "@/lib/web/app.ts";
import type { MiddlewareHandler } from "@/lib/web/types.ts";

/** Longest URL path in characters. */
export const PATH_LIMIT = 1024;

/** Longest wait for the next bytes of a request body, in ms, unless the `BODY_IDLE_MS` setting says otherwise. */
export const BODY_IDLE_MS = 15_000;

const WRITE_METHODS = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/**
 * Refuses a path over `PATH_LIMIT` characters.
 * @throws PathTooLongError (414)
 */
export const pathLimit: MiddlewareHandler<AppState> = (_req, ctx) => {
  if (ctx.url.pathname.length > PATH_LIMIT) throw new PathTooLongError();
  return ctx.next();
};

/**
 * `body` that fails with `RequestTimeoutError` when no chunk arrives for `idleMs`, and with
 * `ClientAbortError` when `body` itself fails (the client closed its connection mid-body); with `beforeEnd`, its end
 * waits for `beforeEnd()` and fails with the error that throws (the session or key check of `bodyLimits`);
 * cancelling it cancels `body`. `body` is locked only once this is first read, so whether anything read the request's
 * body shows on `body` itself (`unreadFormDrain`).
 */
export function withIdleTimeout(
  body: ReadableStream<Uint8Array>,
  idleMs: number,
  beforeEnd?: () => Promise<void>,
): ReadableStream<Uint8Array> {
  let reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      reader ??= body.getReader();
      let timer: ReturnType<typeof setTimeout> | undefined;
      const stalled = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new RequestTimeoutError()), idleMs);
      });
      try {
        const { done, value } = await Promise.race([reader.read(), stalled]);
        if (!done) return controller.enqueue(value);
      } catch (error) {
        const reason = error instanceof RequestTimeoutError ? error : new ClientAbortError();
        reader!.cancel(reason).catch(() => {});
        return controller.error(reason);
      } finally {
        clearTimeout(timer);
      }
      try {
        await beforeEnd?.();
        controller.close();
      } catch (error) {
        controller.error(error);
      }
    },
    cancel: (reason) => reader ? reader.cancel(reason) : body.cancel(reason),
    // No chunk is fetched ahead of a read, so `body` stays unread (and unlocked) until something reads this.
  }, { highWaterMark: 0 });
}

/** A body refused for its declared size is still read, and dropped, when it is at most this many times the limit. */
const DRAIN_FACTOR = 4;

/**
 * Reads and drops the body of `req` when its `Content-Length` declares at most `maxBytes` and nothing has read it yet:
 * a browser still sending a form's file does not read the answer until it has sent all of it, so a refusal answered
 * before the body has arrived waits for the connection to give up (tens of seconds) before the person sees it. A larger
 * body is left unread: the answer goes out and the connection closes. With `idleMs`, a body that sends nothing for that
 * long ends the draining (`withIdleTimeout`).
 */
async function drainDeclared(req: Request, maxBytes: number, idleMs?: number): Promise<void> {
  const declared = Number(req.headers.get("content-length"));
  if (!req.body || req.bodyUsed || req.body.locked || !(declared <= maxBytes)) return;
  const reader = (idleMs === undefined ? req.body : withIdleTimeout(req.body, idleMs)).getReader();
  try {
    for (let read = 0; read <= maxBytes;) {
      const { done, value } = await reader.read();
      if (done) return;
      read += value.byteLength;
    }
    await reader.cancel();
  } catch {
    // A stalled or closed body ends the draining; the refusal is answered all the same.
  }
}

/** Hono's size limit of one size and refusal, made once per size the routes declare. */
const sizeLimits = new Map<string, ReturnType<typeof honoBodyLimit>>();
function sizeLimitFor(bytes: number, refusal: string | undefined): ReturnType<typeof honoBodyLimit> {
  const key = `${bytes}:${refusal ?? ""}`;
  let sizeLimit = sizeLimits.get(key);
  if (!sizeLimit) {
    const megabytes = Math.round(bytes / 1024 / 1024 * 10) / 10;
    sizeLimit = honoBodyLimit({
      maxSize: bytes,
      onError: async (c) => {
        await drainDeclared(c.req.raw, bytes * DRAIN_FACTOR);
        throw new TooLargeError(refusal ?? `Request body is larger than ${megabytes} MB`, bytes);
      },
    });
    sizeLimits.set(key, sizeLimit);
  }
  return sizeLimit;
}

/**
 * After the answer to a page's form post (`isPageFormPost`): a body nobody read, because the post was refused or
 * redirected before its body was needed (the origin check, sign-in for a guest, the per-person limit, a page that
 * refuses at once, such as applying where one cannot), is read and dropped as one refused for its size is
 * (`drainDeclared`, up to 4 times the route's `bodyLimitBytes`), so a browser still sending its file gets the answer
 * page instead of a reset connection.
 */
export const unreadFormDrain: MiddlewareHandler<AppState> = async (req, ctx) => {
  const res = await ctx.next();
  if (WRITE_METHODS.has(req.method) && isPageFormPost(req, ctx.url)) {
    const { bodyLimitBytes } = readRouteOptions(ctx);
    await drainDeclared(req, bodyLimitBytes * DRAIN_FACTOR, ctx.state.services.config.bodyIdleMs);
  }
  return res;
};

/**
 * A write's body is read through `withIdleTimeout` (a stalled body fails with 408) and may be at
 * most the route's `bodyLimitBytes` (413 `{error}`, its `bodyLimitRefusal` when it names one); reads pass untouched.
 * A signed-in write's body, once it has all arrived, reads the session and its user again (one `getMany`) and fails
 * with `UnauthenticatedError` (401) when the session was signed out of, replaced or expired, the user is gone or the
 * session void (`sessionHolds`): a body sent slowly must not land after its person signed out, nor after the account's
 * deletion and its sweep (docs/decisions.md, Data rights, "Writes in flight during a deletion"). On a route that takes API keys (`apiKey: true`) a write with an `Authorization` header acts by its key,
 * not its session, so its key is checked again instead (`userOfAuthorization`: 401 "Invalid API key" when the key was
 * revoked or its owner deleted, demoted or suspended meanwhile).
 */
export const bodyLimits: MiddlewareHandler<AppState> = (req, ctx) => {
  if (!WRITE_METHODS.has(req.method)) return ctx.next();
  const { bodyLimitBytes, bodyLimitRefusal, apiKey } = readRouteOptions(ctx);
  const { kv, config } = ctx.state.services;
  const { session, sessionHash } = ctx.state;
  const authorization = apiKey ? req.headers.get("authorization") : null;
  const stillAllowed = authorization !== null
    ? async () => {
      await userOfAuthorization(kv, authorization);
    }
    : session && sessionHash
    ? async () => {
      if (!await sessionHolds(kv, session, sessionHash)) throw new UnauthenticatedError();
    }
    : undefined;
  const sizeLimit = sizeLimitFor(bodyLimitBytes, bodyLimitRefusal);
  return fromHonoMiddleware<AppState>(async (c, next) => {
    const { raw } = c.req;
    if (raw.body) {
      const body = withIdleTimeout(raw.body, config.bodyIdleMs, stillAllowed);
      c.req.raw = new Request(raw, { body, duplex: "half" } as RequestInit);
    }
    return await sizeLimit(c, next);
  })(req, ctx);
};
