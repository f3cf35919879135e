/**
 * Builds the platform's Hono app: the cross-cutting middleware of CONTRACT.md §9 and §2
 * (request id, access log, security headers, body limits, CSRF origin check), then the file
 * routes of `routes.gen.ts` through the web layer, with one error mapping for every route.
 */
import { Hono, type MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import { secureHeaders } from "hono/secure-headers";
import { registerRoutes } from "@/lib/web/app.ts";
import { StaticPathRouter } from "@/lib/web/router.ts";
import type { Assets } from "@/lib/web/assets.ts";
import type { Manifest, State } from "@/lib/web/types.ts";
import { Forbidden } from "@/components/Forbidden.tsx";
import { ForbiddenError, NotFoundError, UnauthenticatedError } from "@/lib/errors.ts";
import { errorResponse } from "@/lib/http/errors.ts";
import { signInRedirect } from "@/lib/http/redirects.ts";
import { routeOptionsOf } from "./route_options.ts";
import { DOCUMENT_CSP } from "./csp.ts";
import { readSessionCookie } from "@/lib/http/cookies.ts";
import { checkOrigin } from "@/lib/http/csrf.ts";
import type { AppState, Services } from "./state.ts";

/** Longest URL path in characters; longer ones get 414 (ids must stay within KV's key size). */
export const PATH_LIMIT = 1024;

type Env = { Variables: { state: State } };

/**
 * `ctx.state` of one request. A class, not an object literal with a getter: a literal with an
 * accessor property held the whole request (context, request, response) in V8's old space, so
 * every request's garbage survived the cheap young-generation collections (3× the GC time).
 */
class RequestState implements AppState {
  [key: string]: unknown;
  readonly requestId = crypto.randomUUID();
  user?: AppState["user"];
  session?: AppState["session"];
  constructor(readonly services: Services, private readonly req: Request, private readonly env: unknown) {}
  /** The client's address: the first `X-Forwarded-For` hop behind a trusted proxy, else the peer's. */
  get clientIp(): string {
    if (this.services.config.trustProxy) {
      const first = this.req.headers.get("x-forwarded-for")?.split(",")[0]?.trim();
      if (first) return first;
    }
    return (this.env as { remoteAddr?: { hostname: string } } | undefined)?.remoteAddr?.hostname ?? "127.0.0.1";
  }
}

/** The platform app for `services`, serving `manifest`'s routes and `assets`. */
export function createApp(services: Services, manifest: Manifest, assets: Assets): Hono<Env> {
  const { config, log } = services;
  const app = new Hono<Env>({ router: new StaticPathRouter() });

  // Each response header costs throughput in Deno's server (11 headers halve it), so JSON
  // responses carry only what matters for an API (OWASP REST Security): nosniff, a deny-all
  // CSP with frame-ancestors, Referrer-Policy and HSTS; documents get the full set.
  const hsts = config.secure ? "max-age=63072000; includeSubDomains" : false;
  const documentHeaders = secureHeaders({
    contentSecurityPolicy: structuredClone(DOCUMENT_CSP),
    referrerPolicy: "strict-origin-when-cross-origin",
    strictTransportSecurity: hsts,
    crossOriginEmbedderPolicy: false,
    // A page that needs another host (Checkout.js on the toolkit page) sends its own `documentCsp`.
    overwrite: false,
    // Nothing here sets X-Powered-By; deleting it from every response cost a header operation.
    removePoweredBy: false,
  });
  const apiHeaders = secureHeaders({
    contentSecurityPolicy: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] },
    referrerPolicy: "strict-origin-when-cross-origin",
    strictTransportSecurity: hsts,
    crossOriginEmbedderPolicy: false,
    crossOriginResourcePolicy: false,
    crossOriginOpenerPolicy: false,
    originAgentCluster: false,
    xDnsPrefetchControl: false,
    xDownloadOptions: false,
    xFrameOptions: false,
    xPermittedCrossDomainPolicies: false,
    xXssProtection: false,
    removePoweredBy: false,
  });
  const logRequests = log.enabled("debug");
  // What every request needs, around everything the web layer answers: the request's state and
  // id, its security headers, the path length limit and the access log.
  const around: MiddlewareHandler<Env> = async (c, next) => {
    const started = logRequests ? performance.now() : 0;
    const state = new RequestState(services, c.req.raw, c.env);
    c.set("state", state);
    const path = c.req.path;
    const headers = path.startsWith("/api/") ? apiHeaders : documentHeaders;
    await headers(
      c,
      path.length <= PATH_LIMIT ? next : () => {
        c.res = c.json({ error: "URL path is too long" }, 414);
        return Promise.resolve();
      },
    );
    c.res.headers.append("X-Request-Id", state.requestId);
    if (logRequests) {
      log.debug("request", {
        requestId: state.requestId,
        method: c.req.method,
        path,
        status: c.res.status,
        ms: Math.round((performance.now() - started) * 10) / 10,
      });
    }
  };
  /** The origin check and body limit of a route's writes (the web layer runs it for writes only). */
  const writeGuard = (bytes: number, originChecked: boolean): MiddlewareHandler<Env> => {
    const megabytes = Math.round(bytes / 1024 / 1024 * 10) / 10;
    const limit = bodyLimit({
      maxSize: bytes,
      onError: (c) => c.json({ error: `Request body is larger than ${megabytes} MB` }, 413),
    });
    return async (c, next) => {
      if (originChecked) {
        const hasSession = readSessionCookie(c.req.raw, config.secure) !== undefined;
        if (!checkOrigin(c.req.raw, config.appUrl, hasSession)) return c.json({ error: "Invalid origin" }, 403);
      }
      return await limit(c, next);
    };
  };

  registerRoutes(app, manifest, {
    assets,
    around,
    writeMiddleware(routeConfig, route) {
      const options = routeOptionsOf(routeConfig, route);
      return writeGuard(options.bodyLimitBytes, options.originCheck);
    },
    methodNotAllowed: (_req, allow) =>
      Response.json({ error: "Method not allowed" }, { status: 405, headers: { allow: allow.join(", ") } }),
    onError(error, req, state, pages) {
      const url = new URL(req.url);
      const isPageRead = !url.pathname.startsWith("/api/") && (req.method === "GET" || req.method === "HEAD");
      if (isPageRead && error instanceof UnauthenticatedError) return signInRedirect(url);
      if (isPageRead && error instanceof ForbiddenError) return pages.render(() => Forbidden({}), 403);
      if (isPageRead && error instanceof NotFoundError) return pages.renderNotFound();
      const known = errorResponse(error);
      if (known) return known;
      log.error("unhandled error", {
        requestId: state.requestId,
        method: req.method,
        url: req.url,
        error: error instanceof Error ? `${error.name}: ${error.message}\n${error.stack}` : String(error),
      });
      return url.pathname.startsWith("/api/")
        ? Response.json({ error: "Internal server error" }, { status: 500 })
        : pages.renderErrorPage();
    },
  });
  return app;
}
