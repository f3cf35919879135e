/**
 * Builds the platform's Hono app: the file routes of the manifest through the web layer, each
 * request starting with `{services}` as its state (`routes/_middleware.ts` does the rest), the
 * routes' options read once, and one mapping of errors to answers for every route. Every request is counted while it
 * is answered (`services.requests`).
 */
import { Hono } from "hono";
import { GrowthCollection, type GrowthOptions } from "./heap.ts";
import { type ComponentType, h } from "preact";
import { registerRoutes } from "@/lib/web/app.ts";
import type { Assets } from "@/lib/web/assets.ts";
import type { Manifest, State } from "@/lib/web/types.ts";
import {
  ClientAbortError,
  CrossSiteError,
  DomainError,
  ForbiddenError,
  MethodNotAllowedError,
  NotFoundError,
  PathTooLongError,
  UnauthenticatedError,
} from "@/lib/errors.ts";
import { errorResponse } from "@/lib/http/errors.ts";
import { isPageFormPost, isPlainFormPost } from "@/lib/http/form_posts.ts";
import { formPage, type PlainFormRefusal, plainFormRefusal } from "@/lib/http/refusal_page.ts";
import { signInRedirect } from "@/lib/auth/redirects.ts";
import { refusalKey } from "@/lib/refusals.ts";
import { translatorFor } from "@/lib/i18n/catalogue.ts";
import { DEFAULT_LANG } from "@/lib/i18n/languages.ts";
import { requestLanguage } from "@/lib/http/language.ts";
import { resolveRouteOptions } from "./route_options.ts";
import type { AppState, Services } from "./state.ts";

type Env = { Variables: { state: State } };

/** What the composition root (`main.ts`, the tests) hands the app besides its services. */
export interface AppParts {
  manifest: Manifest;
  assets: Assets;
  /**
   * The page a signed-in reader without the right gets, with status 403; `refusal` is the refusal's sentence when it is
   * one of `REFUSALS` (`lib/refusals.ts`), for the page to word in the reader's language.
   */
  forbiddenPage: ComponentType<{ refusal?: string }>;
  /** The page a refused plain form gets, with the refusal's status (docs/decisions.md, Errors and limits). */
  refusalPage: ComponentType<{ refusal: PlainFormRefusal }>;
}

const isApi = (url: URL) => url.pathname.startsWith("/api/");
/**
 * A full collection once the heap and buffers in use grew by 48 MB since the last one and no request came for 1 s,
 * looked at no more than every 250 ms and run no more than every 5 s (docs/performance.md, Scale, "Collection on
 * growth").
 */
const GROWTH: GrowthOptions = { growthBytes: 48_000_000, lookEveryMs: 250, collectEveryMs: 5_000, quietMs: 1_000 };

/** The platform app for `services`, serving `parts.manifest`'s routes and `parts.assets`. */
export function createApp(services: Services, parts: AppParts): Hono<Env> {
  const { log } = services;
  const app = new Hono<Env>();
  const collection = new GrowthCollection(GROWTH);
  // Counted while answered, so long jobs in this process give way (`InFlightRequests`); once none is in flight, the
  // memory in use is looked at (`GrowthCollection`).
  app.use(async (_c, next) => {
    await services.requests.track(next);
    if (services.requests.count === 0) {
      collection.afterRequests(
        () => services.requests.count === 0,
        (work) => services.background.start(log, "collection on growth failed", work),
      );
    }
  });
  registerRoutes(app, parts.manifest, {
    assets: parts.assets,
    initialState: () => ({ services, lang: DEFAULT_LANG, t: translatorFor(DEFAULT_LANG) } as Partial<AppState>),
    routeOptions: resolveRouteOptions,
    notFound: (req, pages) => isApi(new URL(req.url)) ? errorResponse(new NotFoundError()) : pages.renderNotFound(),
    methodNotAllowed: (_req, allow) => {
      throw new MethodNotAllowedError(allow);
    },
    onError(error, { req, state, pages }) {
      const url = new URL(req.url);
      const isPageRead = !isApi(url) && (req.method === "GET" || req.method === "HEAD");
      // A page's plain form refused for want of a right or a thing gets that page in the reader's language, not JSON.
      const isPageForm = isPageFormPost(req, url);
      // Any other refusal of a form a browser posted without JavaScript gets a page, not JSON (sign-in for a guest).
      const isPlainForm = isPlainFormPost(req, url);
      // A page's form refused by the origin check gets that page too, whatever it accepts: it was not what it seemed.
      const isCrossSite = isPageForm && error instanceof CrossSiteError;
      const { appUrl } = services.config;
      // A page path too long to read, or sent a method it does not take (read when it only takes a form, a form sent
      // to a page that only reads), gets a page, not the API's JSON.
      if (!isApi(url) && (error instanceof PathTooLongError || error instanceof MethodNotAllowedError)) {
        const tooLong = error instanceof PathTooLongError;
        // Refused before the session and language steps (a long path; a form, which the router refuses before its
        // middleware): in the language the URL, cookie or Accept-Language asks.
        const lang = tooLong || !isPageRead ? requestLanguage(req, url, undefined).lang : undefined;
        if (lang) Object.assign(state, { lang, t: translatorFor(lang) });
        const refusal: PlainFormRefusal = {
          kind: tooLong ? "pathTooLong" : "methodNotAllowed",
          problems: [],
          sendsFiles: false,
          back: "/",
        };
        const page = pages.render(() => h(parts.refusalPage, { refusal }), tooLong ? 414 : 405);
        if (error instanceof MethodNotAllowedError) page.headers.set("allow", error.allow.join(", "));
        if (lang) page.headers.set("vary", "Accept-Language, Cookie");
        if (lang) page.headers.set("content-language", lang);
        return page;
      }
      if (isPageRead && error instanceof UnauthenticatedError) return signInRedirect(url);
      if (isPlainForm && error instanceof UnauthenticatedError) {
        return signInRedirect(new URL(formPage(req, appUrl), url));
      }
      if ((isPageRead || isPageForm) && error instanceof ForbiddenError && !isCrossSite) {
        const refusal = refusalKey(error.message) ? error.message : undefined;
        return pages.render(() => h(parts.forbiddenPage, { refusal }), 403);
      }
      if ((isPageRead || isPageForm) && error instanceof NotFoundError) return pages.renderNotFound();
      if (error instanceof ClientAbortError) {
        log.info("client went away", { requestId: state.requestId, method: req.method, path: url.pathname });
      }
      if ((isPlainForm || isCrossSite) && error instanceof DomainError) {
        const { status, headers } = errorResponse(error);
        const retryAfter = headers.get("retry-after");
        const refusal = plainFormRefusal({
          error,
          status,
          req,
          appUrl,
          ...(retryAfter ? { retryAfterSeconds: Number(retryAfter) } : {}),
        });
        const page = pages.render(() => h(parts.refusalPage, { refusal }), status);
        if (retryAfter) page.headers.set("retry-after", retryAfter);
        // The origin check refuses before the session step, which marks a person's answers so.
        if (state.user && !page.headers.has("cache-control")) page.headers.set("cache-control", "private, no-store");
        return page;
      }
      const known = errorResponse(error);
      if (known) return known;
      log.error("unhandled error", {
        requestId: state.requestId,
        method: req.method,
        url: req.url,
        error: error instanceof Error ? `${error.name}: ${error.message}\n${error.stack}` : String(error),
      });
      return isApi(url) ? Response.json({ error: "Internal server error" }, { status: 500 }) : pages.renderErrorPage();
    },
  });
  return app;
}
