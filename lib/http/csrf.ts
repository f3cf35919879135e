/**
 * Every CSRF rule of the platform (docs/decisions.md, Security), as the middleware that applies them to every route
 * (`originCheck`, `routes/_middleware.ts`). Reads (GET, HEAD, OPTIONS) always pass.
 *
 * - A write marked `Sec-Fetch-Site: cross-site` is refused.
 * - A write that carries the session cookie must name the platform's origin in `Origin`, or,
 *   lacking `Origin`, in `Referer`; `Origin: null` (a sandboxed or privacy-redirected page) is
 *   refused, never replaced by `Referer`.
 * - An auth write (a route whose options say `originCheck: "login"`: the `/api/auth/*` endpoints that take a POST,
 *   the pages' sign-in, sign-up and password forms, and the language switch) that names any other origin is refused
 *   even without a session cookie, so another site cannot sign a browser in to an account of its choosing (login CSRF)
 *   or set a guest's language; clients that send no `Origin` (non-browser clients) pass.
 * - A route whose options say `originCheck: false` (the payment webhook, which verifies its own
 *   signature) is exempt.
 * - Where `APP_URL` is a loopback address (development), `localhost`, `127.0.0.1` and `[::1]` on
 *   its port are one origin, so the demo works whichever of them the browser opened.
 *
 * A refusal is 403 `{error: "Invalid origin"}` (`CrossSiteError`). `originCheck` throws it before the session step,
 * the body limits and any handler, the login-CSRF rule included: no handler runs, no body is read, no session is
 * renewed, no cookie is set. A page's form refused gets a page saying so (docs/decisions.md, Errors and limits, "Plain
 * forms refused"), written to the person their session names (read, never renewed) in their language.
 */
import { CrossSiteError } from "@/lib/errors.ts";
import { peekSession } from "@/lib/auth/sessions.ts";
import { translatorFor } from "@/lib/i18n/catalogue.ts";
import { readSessionCookie } from "@/lib/http/cookies.ts";
import { isPageFormPost } from "@/lib/http/form_posts.ts";
import { requestLanguage } from "@/lib/http/language.ts";
import { readRouteOptions } from "@/lib/platform/route_options.ts";
import type { AppState } from "@/lib/platform/state.ts";
import type { MiddlewareHandler } from "@/lib/web/types.ts";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);
const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);

/** The origin of a header's URL, or null for a missing, `null` or unparsable value. */
function originOf(value: string | null): string | null {
  if (!value || value === "null") return null;
  try {
    return new URL(value).origin;
  } catch {
    return null;
  }
}

/** Whether `origin` is the platform's own (`appUrl`'s, or a loopback alias of a loopback `appUrl`). */
export function isAppOrigin(origin: string | null, appUrl: string): boolean {
  if (origin === null) return false;
  const app = new URL(appUrl);
  if (origin === app.origin) return true;
  if (!LOOPBACK_HOSTS.has(app.hostname)) return false;
  const other = new URL(origin);
  return other.protocol === app.protocol && other.port === app.port && LOOPBACK_HOSTS.has(other.hostname);
}

/**
 * True when a request may proceed under the rules above; `hasSessionCookie` says whether it
 * carries the session cookie, `login` whether the login-CSRF rule applies (an auth write).
 */
export function passesOriginCheck(
  req: Request,
  appUrl: string,
  hasSessionCookie: boolean,
  { login = false }: { login?: boolean } = {},
): boolean {
  if (SAFE_METHODS.has(req.method)) return true;
  if (req.headers.get("sec-fetch-site") === "cross-site") return false;
  if (login && req.headers.get("origin") !== null && !isAppOrigin(originOf(req.headers.get("origin")), appUrl)) {
    return false;
  }
  if (!hasSessionCookie) return true;
  const origin = req.headers.get("origin");
  if (origin !== null) return isAppOrigin(originOf(origin), appUrl);
  return isAppOrigin(originOf(req.headers.get("referer")), appUrl);
}

/**
 * The origin check of every route's writes (unless its options exempt it).
 * @throws CrossSiteError when the rules above refuse the write; for a page's form, with the reader (`user`, `session`,
 *   never renewed) and their language (`lang`, `t`) put on the state first, for the refusal's page.
 */
export const originCheck: MiddlewareHandler<AppState> = async (req, ctx) => {
  const { config, kv } = ctx.state.services;
  const options = readRouteOptions(ctx);
  if (!options.originCheck) return ctx.next();
  const token = readSessionCookie(req, config.secure);
  if (passesOriginCheck(req, config.appUrl, token !== undefined, { login: options.loginOrigin })) return ctx.next();
  if (isPageFormPost(req, ctx.url)) {
    const found = token ? await peekSession(kv, token) : null;
    if (found) {
      ctx.state.user = found.user;
      ctx.state.session = found.session;
    }
    const { lang } = requestLanguage(req, ctx.url, found?.user);
    ctx.state.lang = lang;
    ctx.state.t = translatorFor(lang);
  }
  throw new CrossSiteError();
};
