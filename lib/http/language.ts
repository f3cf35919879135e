/**
 * The language step of `routes/_middleware.ts` (docs/decisions.md, Languages, "Which language"): decides once per
 * request which language the answer is written in and puts it on the request state (`lang`, and `t`, its translator).
 * In order: `?lang=en|hi` on the URL (which also sets the `lang` cookie for a year), the signed-in person's `language`
 * setting (or a suspended session's person's, whom the sign-in page tells), the `lang` cookie, `Accept-Language` (Hindi
 * when `hi` is preferred over `en`), else English. Pages answer with `Vary: Accept-Language, Cookie`, since the same
 * URL reads differently by those, and name their language in `Content-Language` (the service worker's offline page
 * follows it): the one they were written in, which a page about another person may have changed (the unsubscribe page
 * is in its token's person's language). API answers keep their English.
 */
import { serialize } from "hono/utils/cookie";
import { translatorFor } from "@/lib/i18n/catalogue.ts";
import { DEFAULT_LANG, isLang, type Lang, LANG_PARAM } from "@/lib/i18n/languages.ts";
import { readCookie } from "@/lib/http/cookies.ts";
import type { AppState } from "@/lib/platform/state.ts";
import type { MiddlewareHandler } from "@/lib/web/types.ts";

/** The cookie that keeps a browser's language. */
export const LANG_COOKIE = "lang";

/** How long the cookie lasts, in seconds: a year. */
export const LANG_COOKIE_MAX_AGE_S = 365 * 24 * 60 * 60;

/** A `Set-Cookie` value keeping `lang` for a year (readable by scripts: it holds nothing secret). */
export function langCookie(lang: Lang, secure: boolean): string {
  return serialize(LANG_COOKIE, lang, { path: "/", sameSite: "Lax", secure, maxAge: LANG_COOKIE_MAX_AGE_S });
}

/**
 * The language an `Accept-Language` header prefers between ours: `hi` when a Hindi range (`hi`, `hi-IN`) has a
 * higher quality than every English one (`en`, `en-GB`, …), or comes first at the same quality; `en` when English wins;
 * null when it names neither (or the header is absent).
 */
export function preferredLanguage(header: string | null): Lang | null {
  if (!header) return null;
  const best: Partial<Record<Lang, { q: number; at: number }>> = {};
  header.split(",").forEach((part, at) => {
    const [range, ...params] = part.trim().split(";");
    const lang = range.trim().toLowerCase().split("-")[0];
    if (!isLang(lang)) return;
    const qParam = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
    const q = qParam ? Number(qParam.slice(2)) : 1;
    if (!Number.isFinite(q) || q <= 0) return;
    const found = best[lang];
    if (!found || q > found.q) best[lang] = { q, at: found?.at ?? at };
  });
  const { hi, en } = best;
  if (hi && (!en || hi.q > en.q || (hi.q === en.q && hi.at < en.at))) return "hi";
  return en ? "en" : null;
}

/** The language of `req` for `user` (see the module docstring), and the one its URL asked for, if any. */
export function requestLanguage(
  req: Request,
  url: URL,
  user: { language?: Lang } | undefined,
): { lang: Lang; asked: Lang | null; cookie: Lang | null } {
  const param = url.searchParams.get(LANG_PARAM);
  const asked = isLang(param) ? param : null;
  const stored = readCookie(req, LANG_COOKIE);
  const cookie = isLang(stored) ? stored : null;
  const lang = asked ?? user?.language ?? cookie ?? preferredLanguage(req.headers.get("accept-language")) ??
    DEFAULT_LANG;
  return { lang, asked, cookie };
}

/** Sets `ctx.state.lang` and `ctx.state.t`; keeps a language asked for on the URL in the cookie; marks pages `Vary`. */
export const language: MiddlewareHandler<AppState> = async (req, ctx) => {
  const { lang, asked, cookie } = requestLanguage(req, ctx.url, ctx.state.user ?? ctx.state.suspended);
  ctx.state.lang = lang;
  ctx.state.t = translatorFor(lang);
  const res = await ctx.next();
  if (asked && asked !== cookie) res.headers.append("set-cookie", langCookie(asked, ctx.state.services.config.secure));
  if (res.headers.get("content-type")?.startsWith("text/html")) {
    res.headers.append("vary", "Accept-Language, Cookie");
    res.headers.set("content-language", ctx.state.lang);
  }
  return res;
};
