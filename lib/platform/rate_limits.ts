/**
 * The rate-limit service (`services.rateLimits`) and every rule it counts, in fixed windows kept in Deno KV:
 * - `RATE_LIMITS` (docs/decisions.md, Auth): sign-in 5 per 10 s per e-mail and client IP, 20 per 10 minutes per e-mail
 *   whatever the address (per device instead, from a device known to the account), and 60 per minute per IP;
 *   sign-up 10 per minute per IP; password-reset and verification e-mails 3 per minute per e-mail, requests for either
 *   also 10 per minute per IP; account deletion 5 password tries per session and 10 minutes; 5 organization claims
 *   per person and day; 20 new reports per person and day;
 * - `PERSON_LIMITS`, the per-person limits of the write routes (docs/decisions.md, Errors and limits, "Per-person
 *   limits").
 * `RATE_LIMITS=off` (`config.rateLimits` false) turns off the auth limits only; a rule marked `always` holds. The web
 * layer applies the rules: the routes (they know the client's address, the session and the input) and, for the
 * per-person limit a route declares, the `personLimits` step (`lib/http/person_limits.ts`); a domain module never does.
 *
 * Keys (owned by this module only): `["rate_limits", rule, sha256Hex(subject), windowStartMs]` → count, with
 * `expireIn` until the window ends. The subject is kept only as its SHA-256, so no e-mail address or IP is stored in
 * clear and no key outgrows KV's limit whatever the subject (a forged `X-Forwarded-For`, say). A window's start is in
 * its key, so an expired window is never read again even before KV removes it.
 */
import { RateLimitedError } from "@/lib/errors.ts";
import { sha256Hex } from "@/lib/ids.ts";
import type { PERSON_LIMIT_NAMES } from "./route_options.ts";

/** A limit: at most `limit` hits per window of `windowMs` milliseconds; `always`: it holds with `RATE_LIMITS=off`. */
export interface RateLimitRule {
  name: string;
  limit: number;
  windowMs: number;
  always?: boolean;
}

/** The limits the routes apply themselves. */
export const RATE_LIMITS = {
  signInPerEmailAndIp: { name: "sign_in_email_ip", limit: 5, windowMs: 10_000 },
  /** Sign-in tries per e-mail from any address: bounds guessing one password from many addresses. */
  signInPerEmail: { name: "sign_in_email", limit: 20, windowMs: 10 * 60_000 },
  /** In place of `signInPerEmail` for a browser that signed in to the account before (`lib/auth/known_devices.ts`). */
  signInPerKnownDevice: { name: "sign_in_device", limit: 20, windowMs: 10 * 60_000 },
  signInPerIp: { name: "sign_in_ip", limit: 60, windowMs: 60_000 },
  signUpPerIp: { name: "sign_up_ip", limit: 10, windowMs: 60_000 },
  passwordResetPerEmail: { name: "password_reset_email", limit: 3, windowMs: 60_000 },
  passwordResetPerIp: { name: "password_reset_ip", limit: 10, windowMs: 60_000 },
  verificationPerEmail: { name: "verification_email", limit: 3, windowMs: 60_000 },
  verificationPerIp: { name: "verification_ip", limit: 10, windowMs: 60_000 },
  /** Claims of an organization, per person (docs/decisions.md, Trust, "Verification by domain"). */
  organizationClaimsPerPerson: { name: "organization_claims", limit: 5, windowMs: 24 * 60 * 60_000, always: true },
  /** New reports, per person (docs/decisions.md, Trust, "Reports"). */
  reportsPerPerson: { name: "reports", limit: 20, windowMs: 24 * 60 * 60_000, always: true },
  /** Password tries of account deletion, per session (docs/decisions.md, Data rights). */
  deleteAccountPerSession: { name: "delete_account_session", limit: 5, windowMs: 10 * 60_000 },
} as const satisfies Record<string, RateLimitRule>;

const TEN_MINUTES = 10 * 60_000;

/** A per-person limit a route may declare (`routeOptions.personLimit`). */
export type PersonLimitName = typeof PERSON_LIMIT_NAMES[number];

/**
 * The per-person limits, per 10 minutes: far above what a person does by hand, low enough that a script cannot turn a
 * route into a write flood. `reads` marks a limit that counts reads too (the data export, which reads everything).
 * Without a session a request counts against its client's address, or with `guestByPath` against its path (a link
 * whose token is the person: many people's one-click requests come from their mail provider's few addresses), and
 * one whose token is unknown against its address under the `guestByPath` rule, far higher, so one address cannot
 * write a counter for every random path it makes up (`countGuestByPath`, `lib/http/person_limits.ts`).
 */
export const PERSON_LIMITS: Record<PersonLimitName, RateLimitRule & { reads?: boolean; guestByPath?: RateLimitRule }> =
  {
    reactions: { name: "person_reactions", limit: 300, windowMs: TEN_MINUTES, always: true },
    saved: { name: "person_saved", limit: 600, windowMs: TEN_MINUTES, always: true },
    alerts: { name: "person_alerts", limit: 120, windowMs: TEN_MINUTES, always: true },
    settings: { name: "person_settings", limit: 60, windowMs: TEN_MINUTES, always: true },
    notifications: { name: "person_notifications", limit: 300, windowMs: TEN_MINUTES, always: true },
    push: { name: "person_push", limit: 60, windowMs: TEN_MINUTES, always: true },
    profile: { name: "person_profile", limit: 60, windowMs: TEN_MINUTES, always: true },
    comments: { name: "person_comment_edits", limit: 120, windowMs: TEN_MINUTES, always: true },
    progress: { name: "person_progress", limit: 600, windowMs: TEN_MINUTES, always: true },
    export: { name: "person_export", limit: 10, windowMs: TEN_MINUTES, reads: true, always: true },
    /** "Your data" (`/me/data`): every section of the export read, most as counts of index entries. */
    data: { name: "person_data_page", limit: 60, windowMs: TEN_MINUTES, reads: true, always: true },
    unsubscribe: {
      name: "person_unsubscribe",
      limit: 60,
      windowMs: TEN_MINUTES,
      always: true,
      guestByPath: { name: "person_unsubscribe_address", limit: 1_000, windowMs: TEN_MINUTES, always: true },
    },
    submissions: { name: "person_submissions", limit: 30, windowMs: TEN_MINUTES, always: true },
    checkout: { name: "person_checkout", limit: 60, windowMs: TEN_MINUTES, always: true },
    resume: { name: "person_resume", limit: 30, windowMs: TEN_MINUTES, always: true },
    applications: { name: "person_applications", limit: 60, windowMs: TEN_MINUTES, always: true },
    pipeline: { name: "person_pipeline", limit: 1200, windowMs: TEN_MINUTES, always: true },
  };

/** Counts hits against the rules of `RATE_LIMITS` and `PERSON_LIMITS`; one per process, in `Services`. */
export class RateLimits {
  #kv: Deno.Kv;
  #enabled: boolean;
  #now: () => number;

  /**
   * Limits kept in `kv`; with `enabled` false (`RATE_LIMITS=off`) a hit of a rule not marked `always` passes uncounted.
   * `now` is the clock that places a hit in its window, in ms since the epoch (tests hold it still).
   */
  constructor(kv: Deno.Kv, enabled: boolean, now: () => number = Date.now) {
    this.#kv = kv;
    this.#enabled = enabled;
    this.#now = now;
  }

  /**
   * Counts one hit of `subject` (an IP, an e-mail, a session, or several joined) against `rule`.
   * @throws RateLimitedError (429, `Retry-After` = seconds left in the window) when the window already holds
   *   `rule.limit` hits; a refused hit is not counted.
   */
  async hit(rule: RateLimitRule, subject: string): Promise<void> {
    if (!this.#enabled && !rule.always) return;
    const keyPart = await sha256Hex(subject);
    for (;;) {
      const now = this.#now();
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
