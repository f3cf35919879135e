/**
 * A password sign-in from a browser's request, shared by `POST /api/auth/sign-in/email` and the sign-in page
 * (docs/decisions.md, Auth, "Sign-in limits"): the limits that need the e-mail, the sign-in, and the browser kept as a
 * known device of the account.
 */
import type { z } from "zod";
import type { Services } from "@/lib/platform/state.ts";
import type { User } from "@/lib/users/users.ts";
import type { Lang } from "@/lib/i18n/languages.ts";
import { normalizeEmail } from "@/lib/users/users.ts";
import { RATE_LIMITS } from "@/lib/platform/rate_limits.ts";
import { type SignInFields, signInSubject, signInWithPassword } from "@/lib/auth/password_flows.ts";
import { isKnownDevice, rememberDevice } from "@/lib/auth/known_devices.ts";
import {
  readKnownDeviceCookie,
  readSessionCookie,
  readVerifyBindingCookie,
  sessionCookie,
  signedInDevice,
} from "./cookies.ts";

/**
 * Signs `input` in from `req` (the caller has counted the try per client address `clientIp`): counts it per e-mail and
 * address, then per known device when the browser is one of the account's, else per e-mail; signs in, ending the
 * browser's previous session (`persistent`: "Keep me signed in"), and saves `language` (the page's) as the person's
 * setting when they have none (unless English, `createSession`); marks the browser a known device. An unverified
 * e-mail gets a fresh verification link to `verifyTarget`.
 * @returns the user and the two `Set-Cookie` headers (the session, the known device).
 * @throws RateLimitedError (429); AuthError `INVALID_EMAIL_OR_PASSWORD` (401), `ACCOUNT_SUSPENDED` or
 *   `EMAIL_NOT_VERIFIED` (403).
 */
export async function passwordSignIn(
  services: Services,
  req: Request,
  { clientIp, input, verifyTarget, persistent, language }: {
    clientIp: string;
    input: z.infer<typeof SignInFields>;
    verifyTarget: string;
    persistent: boolean;
    language: Lang;
  },
): Promise<{ user: User; cookies: [string, string][] }> {
  const { kv, config, rateLimits } = services;
  await rateLimits.hit(RATE_LIMITS.signInPerEmailAndIp, signInSubject(input.email, clientIp));
  const device = readKnownDeviceCookie(req, config.secure);
  if (await isKnownDevice(kv, input.email, device)) await rateLimits.hit(RATE_LIMITS.signInPerKnownDevice, device!);
  else await rateLimits.hit(RATE_LIMITS.signInPerEmail, normalizeEmail(input.email));
  const { user, token } = await signInWithPassword(services, {
    input,
    verifyTarget,
    previousCookie: readSessionCookie(req, config.secure),
    binding: readVerifyBindingCookie(req, config.secure),
    persistent,
    language,
  });
  const { deviceId, setCookie } = signedInDevice(req, config.secure);
  await rememberDevice(kv, { userId: user.id, email: user.email, deviceId });
  return {
    user,
    cookies: [["set-cookie", sessionCookie(config.secure, token, persistent)], ["set-cookie", setCookie]],
  };
}
