/**
 * Fixed-window rate limits kept in Deno KV (docs/decisions.md, Auth): sign-in 5 per 10 s per e-mail
 * and client IP and 60 per minute per IP; sign-up 10 per minute per IP; password-reset and
 * verification e-mails 3 per minute per e-mail; requests for either also 10 per minute per IP
 * (docs/decisions.md, Auth). `RATE_LIMITS=off` (`config.rateLimits` false) turns them off.
 *
 * Keys (owned by this module only): `["rate_limits", rule, sha256Hex(subject), windowStartMs]` → count, with
 * `expireIn` until the window ends. The subject is kept only as its SHA-256, so no e-mail address or IP is stored in
 * clear and no key outgrows KV's limit whatever the subject (a forged `X-Forwarded-For`, say). A window's start is in
 * its key, so an expired window is never read again even before KV removes it.
 */
import { RateLimitedError } from "@/lib/errors.ts";
import { sha256Hex } from "@/lib/ids.ts";

/** A limit: at most `limit` hits per window of `windowMs` milliseconds. */
export interface RateLimitRule {
  name: string;
  limit: number;
  windowMs: number;
}

/** The platform's auth limits. */
export const RATE_LIMITS = {
  signInPerEmailAndIp: { name: "sign_in_email_ip", limit: 5, windowMs: 10_000 },
  signInPerIp: { name: "sign_in_ip", limit: 60, windowMs: 60_000 },
  signUpPerIp: { name: "sign_up_ip", limit: 10, windowMs: 60_000 },
  passwordResetPerEmail: { name: "password_reset_email", limit: 3, windowMs: 60_000 },
  passwordResetPerIp: { name: "password_reset_ip", limit: 10, windowMs: 60_000 },
  verificationPerEmail: { name: "verification_email", limit: 3, windowMs: 60_000 },
  verificationPerIp: { name: "verification_ip", limit: 10, windowMs: 60_000 },
  /** Password tries of account deletion, per session (docs/decisions.md, Data rights). */
  deleteAccountPerSession: { name: "delete_account_session", limit: 5, windowMs: 10 * 60_000 },
} as const satisfies Record<string, RateLimitRule>;

/**
 * Counts one hit of `subject` (an IP, an e-mail, or both joined) against `rule`.
 * Does nothing when `enabled` is false.
 * @throws RateLimitedError (429, `Retry-After` = seconds left in the window) when the
 *   window already holds `rule.limit` hits; a refused hit is not counted.
 */
export async function hitRateLimit(
  kv: Deno.Kv,
  { rule, subject, enabled = true }: { rule: RateLimitRule; subject: string; enabled?: boolean },
): Promise<void> {
  if (!enabled) return;
  const keyPart = await sha256Hex(subject);
  for (;;) {
    const now = Date.now();
    const windowStart = now - (now % rule.windowMs);
    const resetsInMs = windowStart + rule.windowMs - now;
    const key = ["rate_limits", rule.name, keyPart, windowStart];
    const entry = await kv.get<number>(key);
    const count = entry.value ?? 0;
    if (count >= rule.limit) throw new RateLimitedError(resetsInMs / 1000);
    const result = await kv.atomic().check(entry).set(key, count + 1, { expireIn: resetsInMs }).commit();
    if (result.ok) return;
  }
}
