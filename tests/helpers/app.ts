/**
 * Test harness: the real platform app over a fresh in-memory KV, with a mailer that keeps
 * what it sends, plus factories for users with sessions. Requests go through `app.fetch`
 * in process, and every `/api` answer is checked against the OpenAPI document (`openapi_answers.ts`); `listen()` serves
 * the same app on a random port for tests that need a socket, and checks every `/api` answer that server sends
 * (to Chromium, `fetch` or a raw socket): `close()` throws the mismatches.
 */
import { loadConfig } from "@/app.config.ts";
import { KvObjectStore } from "@/lib/files/kv_store.ts";
import { createApp } from "@/lib/platform/app.ts";
import { createOAuthService } from "@/lib/auth/oauth/providers.ts";
import { createSession } from "@/lib/auth/sessions.ts";
import { createLogger } from "@/lib/log.ts";
import { createMailer, type Mail, type Mailer } from "@/lib/mail/mailer.ts";
import type { Services } from "@/lib/platform/state.ts";
import { createRazorpayGateway } from "@/lib/payments/razorpay.ts";
import { PushSender } from "@/lib/push/web_push.ts";
import { createUser, type Role, type User } from "@/lib/users/users.ts";
import { loadAssets } from "@/lib/web/assets.ts";
import { GuestPageCache } from "@/lib/http/guest_pages.ts";
import { BackgroundWork } from "@/lib/platform/background.ts";
import { InFlightRequests } from "@/lib/platform/in_flight.ts";
import type { RouteModule } from "@/lib/web/types.ts";
import manifest from "@/routes.gen.ts";
import { Forbidden } from "@/components/Forbidden.tsx";
import { RefusalPage } from "@/components/RefusalPage.tsx";
import { RateLimits } from "@/lib/platform/rate_limits.ts";
import { withLatency } from "./kv_latency.ts";
import { type KvReads, recordingReads } from "./kv_reads.ts";
import { checkAnswer, mismatchOf } from "@/tests/helpers/openapi_answers.ts";

const root = new URL("../..", import.meta.url).pathname;
const assetsPromise = loadAssets(`${root}_build`, `${root}static`);

/** The public origin tests run under. */
export const ORIGIN = "http://localhost:8000";

/** A running test app. */
export interface TestApp extends AsyncDisposable {
  /** The app's public origin: `ORIGIN`, or the server's URL with `listen`. */
  origin: string;
  services: Services;
  kv: Deno.Kv;
  /**
   * Mails sent through the capturing mailer (empty when `SMTP_URL` was given). A request only queues its mail and
   * starts the delivery: `await t.settled()` before reading this.
   */
  mails: Mail[];
  /** Waits until the work requests started without waiting for it (mail delivery tries) has settled. */
  settled(): Promise<void>;
  /** Calls the app in process; a path is resolved against `ORIGIN`. */
  fetch(path: string, init?: RequestInit): Promise<Response>;
  /** Sends `body` as JSON (none when absent) with the same-origin `Origin` header a browser would add. */
  json(method: string, path: string, options?: { body?: unknown; headers?: HeadersInit }): Promise<Response>;
  /**
   * Stops the HTTP server of `listen`: its port then refuses connections, as a server out of reach does to a phone
   * whose connection reaches nothing; `fetch` still calls the app in process.
   */
  stopServing(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Options of `createTestApp`: environment overrides (e.g. `SMTP_URL`, `ADMIN_EMAILS`, or the
 * `RAZORPAY_*` keys and `RAZORPAY_API_URL` of `tests/fakes/razorpay.ts`).
 */
export interface TestAppOptions {
  env?: Record<string, string>;
  /** Timeout of gateway order requests in ms (default the platform's). */
  gatewayTimeoutMs?: number;
  /** Extra route modules served beside the platform's, keyed like `routes.gen.ts` (`./routes/...`). */
  routes?: Record<string, RouteModule>;
  /** Also serve the app over HTTP on a free port; `origin` is then that server's URL. */
  listen?: boolean;
  /** Options of the social sign-in service, e.g. a short provider timeout. */
  oauth?: { timeoutMs?: number };
  /** Collects the app's log lines (JSON, at `LOG_LEVEL`) instead of dropping them. */
  logLines?: string[];
  /** Every KV read and commit of the app takes this many ms, as far from KV's primary (`withLatency`). */
  kvLatencyMs?: number;
  /** Records the app's KV reads here (`tests/helpers/kv_reads.ts`), after `kvLatencyMs`. */
  kvReads?: KvReads;
  /** The rate limits' clock in ms since the epoch (default `Date.now`): a still clock keeps every hit in one window. */
  rateLimitClock?: () => number;
  /** The guest page cache's bound in bytes (default the platform's, `GUEST_PAGE_BYTES`). */
  guestPageBytes?: number;
}

function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const { port } = listener.addr as Deno.NetAddr;
  listener.close();
  return port;
}

/** Starts the platform app over an in-memory KV. */
export async function createTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const port = options.listen ? freePort() : 8000;
  const origin = options.listen ? `http://localhost:${port}` : ORIGIN;
  const config = loadConfig({ APP_URL: origin, KV_PATH: ":memory:", LOG_LEVEL: "error", ...options.env });
  const memory = await Deno.openKv(":memory:");
  const far = options.kvLatencyMs ? withLatency(memory, options.kvLatencyMs) : memory;
  const kv = options.kvReads ? recordingReads(far, options.kvReads) : far;
  const log = createLogger(config.logLevel, (line) => options.logLines?.push(line));
  const mails: Mail[] = [];
  const mailer: Mailer = config.smtpUrl ? createMailer(config.smtpUrl, config.mailFrom, log) : {
    send(mail) {
      mails.push(mail);
      return Promise.resolve();
    },
    close() {},
  };
  const services: Services = {
    config,
    kv,
    log,
    mailer,
    oauth: createOAuthService(config, options.oauth),
    guestPages: new GuestPageCache(options.guestPageBytes),
    payments: createRazorpayGateway(config.razorpay, log, options.gatewayTimeoutMs),
    push: config.push.vapid ? new PushSender(config.push.vapid) : null,
    files: new KvObjectStore(kv),
    background: new BackgroundWork(),
    requests: new InFlightRequests(),
    rateLimits: new RateLimits(kv, config.rateLimits, options.rateLimitClock),
  };
  const routes = { ...manifest.routes, ...options.routes };
  const app = createApp(services, {
    manifest: { ...manifest, routes },
    assets: await assetsPromise,
    forbiddenPage: Forbidden,
    refusalPage: RefusalPage,
  });
  const fetch = async (path: string, init?: RequestInit) => {
    const url = new URL(path, origin);
    return await checkAnswer(init?.method ?? "GET", url, await app.request(url.href, init));
  };
  // Every `/api` answer the server sends is checked too, beside the sending; the mismatches fail `close`.
  const checks: Promise<string | undefined>[] = [];
  const serve = async (req: Request, info: Deno.ServeHandlerInfo<Deno.NetAddr>) => {
    const res = await app.fetch(req, info);
    const url = new URL(req.url);
    if (url.pathname.startsWith("/api/")) {
      checks.push(
        mismatchOf(req.method, url, res, "served").catch((error) => `${req.method} ${url.pathname}: ${error}`),
      );
    }
    return res;
  };
  const server = options.listen
    ? Deno.serve({ hostname: "127.0.0.1", port, automaticCompression: true, onListen: () => {} }, serve)
    : undefined;
  let serving = server !== undefined;
  const stopServing = async () => {
    if (!serving) return;
    serving = false;
    await server!.shutdown();
  };
  const close = async () => {
    await stopServing();
    await services.background.settled();
    services.mailer.close();
    services.push?.close();
    kv.close();
    const mismatches = (await Promise.all(checks)).filter((mismatch) => mismatch !== undefined);
    if (mismatches.length > 0) {
      throw new Error(
        `${mismatches.length} answers over HTTP do not match /api/openapi.json:\n${mismatches.join("\n")}`,
      );
    }
  };
  return {
    origin,
    services,
    kv,
    mails,
    settled: () => services.background.settled(),
    fetch,
    json(method, path, { body, headers } = {}) {
      const h = new Headers(headers);
      h.set("origin", origin);
      if (body !== undefined) h.set("content-type", "application/json");
      return fetch(path, { method, headers: h, body: body === undefined ? undefined : JSON.stringify(body) });
    },
    stopServing,
    close,
    [Symbol.asyncDispose]: close,
  };
}

let counter = 0;

/** A user created directly in KV, verified, with a live session cookie. */
export interface TestUser {
  user: User;
  /** The `Cookie` header value carrying the session. */
  cookie: string;
  /** Headers for a same-origin request as this user. */
  headers: Record<string, string>;
}

/** Creates a verified user of `role` with a session (signed up at `fields.createdAt`, default now). */
export async function createTestUser(
  t: TestApp,
  role: Role = "user",
  fields: { name?: string; email?: string; createdAt?: string } = {},
): Promise<TestUser> {
  const n = ++counter;
  const user = await createUser(t.kv, {
    name: fields.name ?? `Test ${role} ${n}`,
    email: fields.email ?? `${role}${n}-${crypto.randomUUID().slice(0, 8)}@example.com`,
    emailVerified: true,
    role,
    createdAt: fields.createdAt,
  });
  const { token } = await createSession(t.kv, user.id);
  const cookie = `session=${token}`;
  return { user, cookie, headers: { cookie, origin: t.origin } };
}

/** Posts `fields` (a list as repeated fields) to `path` as a urlencoded form, as `who`. */
export function postForm(
  t: TestApp,
  who: TestUser,
  path: string,
  fields: Record<string, string | string[]>,
  headers: Record<string, string> = {},
) {
  const body = new URLSearchParams();
  for (const [name, value] of Object.entries(fields)) {
    for (const one of [value].flat()) body.append(name, one);
  }
  return t.fetch(path, {
    method: "POST",
    headers: { ...who.headers, "content-type": "application/x-www-form-urlencoded", ...headers },
    body,
    redirect: "manual",
  });
}
