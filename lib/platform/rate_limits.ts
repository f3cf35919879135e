/**
 * The rate-limit service (`services.rateLimits`): every rule in one table (`RATE_LIMITS`), fixed windows kept in Deno
 * KV (docs/decisions.md, Auth): sign-in 5 per 10 s per e-mail and client IP and 60 per minute per IP; sign-up 10 per
 * minute per IP; password-reset and verification e-mails 3 per minute per e-mail; requests for either also 10 per
 * minute per IP. `RATE_LIMITS=off` (`config.rateLimits` false) turns them off. The routes apply the rules (they know
 * the client's address, session and input); the domain modules never do.
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
  /** Claims of an organization, per person (docs/decisions.md, Trust, "Verification by domain"). */
  organizationClaimsPerPerson: { name: "organization_claims", limit: 5, windowMs: 24 * 60 * 60_000 },
  /** Password tries of account deletion, per session (docs/decisions.md, Data rights). */
  deleteAccountPerSession: { name: "delete_account_session", limit: 5, windowMs: 10 * 60_000 },
} as const satisfies Record<string, RateLimitRule>;

/** Counts hits against the rules of `RATE_LIMITS`; one per process, in `Services`. */
export class RateLimits {
  #kv: Deno.Kv;
  #enabled: boolean;

  /** Limits kept in `kv`; with `enabled` false (`RATE_LIMITS=off`) every hit passes uncounted. */
  constructor(kv: Deno.Kv, enabled: boolean) {
    this.#kv = kv;
    this.#enabled = enabled;
  }

  /**
   * Counts one hit of `subject` (an IP, an e-mail, a session, or several joined) against `rule`.
   * @throws RateLimitedError (429, `Retry-After` = seconds left in the window) when the window already holds
   *   `rule.limit` hits; a refused hit is not counted.
   */
  async hit(rule: RateLimitRule, subject: string): Promise<void> {
    if (!this.#enabled) return;
    const keyPart = await sha256Hex(subject);
    for (;;) {
      const now = Date.now();
      const windowStart = now - (now % rule.windowMs);
      const resetsInMs = windowStart + rule.windowMs - now;
      const key = ["rate_limits", rule.name, keyPart, windowStart];
      const entry = await this.#kv.get<number>(key);
      const count = entry.value ?? 0;
      if (count >= rule.limit) throw new RateLimitedError(resetsInMs / 1000);
      const result = await this.#kv.atomic().check(entry).set(key, count + 1, { expireIn: resetsInMs }).commit();
      if (result.ok) return;
    }
  }
}
