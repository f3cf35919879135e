/**
 * The session cookie (docs/decisions.md, Sessions): HTTP-only, `SameSite=Lax`, `Path=/`; `Secure` and
 * the `__Host-` prefix when the public origin is https. Works on plain `Request` and `Headers`, as
 * route handlers see them.
 */
import { parse, serialize } from "hono/utils/cookie";
import { SESSION_TTL_MS } from "@/lib/auth/sessions.ts";
import { TOKEN_TTL_MS } from "@/lib/auth/verification.ts";
import { KNOWN_DEVICE_TTL_MS } from "@/lib/auth/known_devices.ts";
import { randomToken } from "@/lib/ids.ts";

/** The cookie's name for an origin. */
export function sessionCookieName(secure: boolean): string {
  return secure ? "__Host-session" : "session";
}

/** The value of cookie `name` in a request, or undefined. */
export function readCookie(req: Request, name: string): string | undefined {
  const header = req.headers.get("cookie");
  return header ? parse(header, name)[name] : undefined;
}

/** The session token of a request, or undefined. */
export function readSessionCookie(req: Request, secure: boolean): string | undefined {
  return readCookie(req, sessionCookieName(secure));
}

/** A `Set-Cookie` value carrying the session token; `persistent: false` makes a browser-session cookie. */
export function sessionCookie(secure: boolean, token: string, persistent = true): string {
  return serialize(sessionCookieName(secure), token, {
    httpOnly: true,
    sameSite: "Lax",
    path: "/",
    secure,
    ...(persistent ? { maxAge: SESSION_TTL_MS / 1000 } : {}),
  });
}

/** A `Set-Cookie` value that clears the session cookie. */
export function clearedSessionCookie(secure: boolean): string {
  return serialize(sessionCookieName(secure), "", { httpOnly: true, sameSite: "Lax", path: "/", secure, maxAge: 0 });
}

/**
 * The headers of every answer that ends a session in this browser (signing out, deleting the account): the cleared
 * cookie, and `Clear-Site-Data` for the cache and storage, which also removes the service worker and what it kept,
 * so nothing of one person is shown to the next on a shared phone (docs/decisions.md, Installable and offline,
 * "Signing out").
 */
export function signedOutHeaders(secure: boolean): Record<string, string> {
  return { "set-cookie": clearedSessionCookie(secure), "clear-site-data": '"cache", "storage"' };
}

/**
 * The name of the cookie that binds a started social sign-in to the browser (docs/decisions.md, Social sign-in):
 * `__Host-` prefixed on https like the session cookie.
 */
export function oauthBindingCookieName(secure: boolean): string {
  return secure ? "__Host-oauth_binding" : "oauth_binding";
}

/** The browser binding value of a request, when it is a well-formed token; else undefined. */
export function readOAuthBindingCookie(req: Request, secure: boolean): string | undefined {
  return readToken(req, oauthBindingCookieName(secure));
}

/**
 * A `Set-Cookie` value carrying the browser binding for `maxAgeMs`: HTTP-only, `SameSite=Lax`
 * (the provider's redirect back is a top-level navigation, so the cookie comes along).
 */
export function oauthBindingCookie(secure: boolean, value: string, maxAgeMs: number): string {
  return bindingCookie(oauthBindingCookieName(secure), secure, value, maxAgeMs);
}

/**
 * The name of the cookie that binds e-mail verification links to the browser that asked for them, at sign-up or a
 * resend (docs/decisions.md, Auth): only that browser is signed in by the link. `__Host-` prefixed on https.
 */
export function verifyBindingCookieName(secure: boolean): string {
  return secure ? "__Host-verify_binding" : "verify_binding";
}

/** The verification binding value of a request, when it is a well-formed token; else undefined. */
export function readVerifyBindingCookie(req: Request, secure: boolean): string | undefined {
  return readToken(req, verifyBindingCookieName(secure));
}

/**
 * The verification binding of a browser asking for a link (sign-up, a resend): its cookie's value when it has one,
 * else a new random token; and the `Set-Cookie` value that keeps it while a link lives (`TOKEN_TTL_MS`): HTTP-only,
 * `SameSite=Lax` (following the link from a mail is a top-level navigation, so the cookie comes along).
 */
export function askingBrowserBinding(req: Request, secure: boolean): { binding: string; setCookie: string } {
  const binding = readVerifyBindingCookie(req, secure) ?? randomToken();
  return { binding, setCookie: bindingCookie(verifyBindingCookieName(secure), secure, binding, TOKEN_TTL_MS) };
}

/**
 * The name of the cookie that marks a browser as a known device of the accounts that signed in on it with a password
 * (docs/decisions.md, Auth, "Sign-in limits"). `__Host-` prefixed on https.
 */
export function knownDeviceCookieName(secure: boolean): string {
  return secure ? "__Host-known_device" : "known_device";
}

/** The known-device id of a request, when it is a well-formed token; else undefined. */
export function readKnownDeviceCookie(req: Request, secure: boolean): string | undefined {
  return readToken(req, knownDeviceCookieName(secure));
}

/**
 * The device id of a browser that just signed in with a password: its cookie's value when it has one, else a new
 * random token; and the `Set-Cookie` value that keeps it for `KNOWN_DEVICE_TTL_MS` (HTTP-only, `SameSite=Lax`).
 * Signing out leaves it: it names the browser, not a session.
 */
export function signedInDevice(req: Request, secure: boolean): { deviceId: string; setCookie: string } {
  const deviceId = readKnownDeviceCookie(req, secure) ?? randomToken();
  return {
    deviceId,
    setCookie: bindingCookie(knownDeviceCookieName(secure), secure, deviceId, KNOWN_DEVICE_TTL_MS),
  };
}

/** The value of cookie `name` in a request when it is a well-formed random token (`randomToken`); else undefined. */
function readToken(req: Request, name: string): string | undefined {
  const value = readCookie(req, name);
  return value && /^[A-Za-z0-9_-]{43}$/.test(value) ? value : undefined;
}

/** A `Set-Cookie` value of a binding cookie `name`: HTTP-only, `SameSite=Lax`, `Path=/`, for `maxAgeMs`. */
function bindingCookie(name: string, secure: boolean, value: string, maxAgeMs: number): string {
  return serialize(name, value, {
    httpOnly: true,
    sameSite: "Lax",
    path: "/",
    secure,
    maxAge: Math.floor(maxAgeMs / 1000),
  });
}
