/**
 * Security headers of every response (Hono's `secureHeaders`), in `routes/_middleware.ts`:
 * documents (the API reference page among them) get the full set with the document CSP (`lib/platform/csp.ts`); JSON
 * answers under `/api/` only what matters for an API (OWASP REST Security): nosniff, a deny-all CSP with
 * frame-ancestors, Referrer-Policy and, on https, HSTS.
 */
import { secureHeaders } from "hono/secure-headers";
import { DOCUMENT_CSP } from "@/lib/platform/csp.ts";
import type { AppState } from "@/lib/platform/state.ts";
import { fromHonoMiddleware } from "@/lib/web/app.ts";
import type { MiddlewareHandler } from "@/lib/web/types.ts";

const HSTS = "max-age=63072000; includeSubDomains";

function documentHeaders(hsts: string | false) {
  return secureHeaders({
    contentSecurityPolicy: structuredClone(DOCUMENT_CSP),
    referrerPolicy: "strict-origin-when-cross-origin",
    strictTransportSecurity: hsts,
    crossOriginEmbedderPolicy: false,
    // A page that needs another host (Checkout.js on the toolkit page) sends its own CSP.
    overwrite: false,
  });
}

function apiHeaders(hsts: string | false) {
  return secureHeaders({
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
  });
}

/** The four header sets, by whether the path is under `/api/` and whether the platform runs on https. */
const headerSets = {
  document: { secure: fromHonoMiddleware(documentHeaders(HSTS)), plain: fromHonoMiddleware(documentHeaders(false)) },
  api: { secure: fromHonoMiddleware(apiHeaders(HSTS)), plain: fromHonoMiddleware(apiHeaders(false)) },
};

/** The pages under `/api/`, documents for people: the API reference (`routes/api/docs.tsx`). */
const API_PAGES = new Set(["/api/docs"]);

/** Adds the security headers of a document or of an API answer. */
export const securityHeaders: MiddlewareHandler<AppState> = (req, ctx) => {
  const { pathname } = ctx.url;
  const set = pathname.startsWith("/api/") && !API_PAGES.has(pathname) ? headerSets.api : headerSets.document;
  return (ctx.state.services.config.secure ? set.secure : set.plain)(req, ctx);
};
