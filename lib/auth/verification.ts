/**
 * Single-use tokens sent by e-mail (docs/api.md, Authentication, "E-mail verification"; docs/api.md, Authentication,
 * "Password reset"): e-mail verification and password reset. A token is 32 random bytes that live only in the link; KV
 * keeps its SHA-256 for 24 hours (`expireIn`, and the expiry is checked on read). Spending a token is one atomic write
 * checked against the version read, so of two concurrent uses exactly one wins; it also voids the user's other tokens
 * of that purpose.
 *
 * Keys (owned by this module only):
 * - `["auth_tokens", tokenHash]` → `TokenRecord`
 * - `["auth_tokens_by_user", userId, purpose, tokenHash]` → true
 * - `["verification_mail_sent", userId]` → ISO time of the last verification e-mail (5 minutes)
 * - `["auth_mails_sent", purpose, userId]` → the times (ms) of the e-mails of `purpose` sent in the last 24 hours
 */
import { deleteListed } from "@/lib/kv/packed_writes.ts";
import { randomToken, sha256Hex } from "@/lib/ids.ts";

/** Token lifetime in ms (24 hours). */
export const TOKEN_TTL_MS = 24 * 60 * 60 * 1000;
/** Shortest gap between two verification e-mails to one user on sign-in, in ms (5 minutes). */
export const VERIFICATION_MAIL_GAP_MS = 5 * 60 * 1000;

/** The most e-mails of one purpose (verification links, reset links) one account is sent in any 24 hours. */
export const AUTH_MAILS_PER_DAY = 10;
/** The window of `AUTH_MAILS_PER_DAY`, in ms (24 hours). */
const AUTH_MAIL_DAY_MS = 24 * 60 * 60 * 1000;
/**
 * Attempts of `claimDailyAuthMail` while concurrent claims keep changing the count: only a claim that wins writes the
 * times, so each lost race is one more e-mail counted, and a claim decides within the cap's number of losses and one.
 */
const CLAIM_ATTEMPTS = AUTH_MAILS_PER_DAY + 1;

/** What a token is for. */
export type TokenPurpose = "verify-email" | "reset-password";

/** A stored token (the token itself is never stored). */
export interface TokenRecord {
  purpose: TokenPurpose;
  userId: string;
  /** The user's e-mail when the token was issued. */
  email: string;
  createdAt: string;
  expiresAt: string;
  /**
   * SHA-256 of the verification binding cookie of the browser that asked for a verification link (sign-up, resend):
   * the link signs in only that browser. Absent: the link signs in no browser.
   */
  bindingHash?: string;
  /**
   * The user's session epoch when a reset link was issued (`sessionEpoch`, docs/decisions.md, Sessions, "Ending
   * sessions"): once the epoch moved on (a reset, "sign out everywhere else", a takeover), the link is dead. Absent on
   * verification links, and on reset links issued before links carried it.
   */
  epoch?: number;
}

/**
 * Adds a fresh token of `purpose` for a user to `op` (so the mail carrying it is written in the same commit), bound to
 * the browser whose binding cookie value is `binding` when given; a reset link keeps the user's session epoch
 * (`TokenRecord.epoch`). Returns the token for the link.
 */
export async function issueTokenOps(
  op: Deno.AtomicOperation,
  purpose: TokenPurpose,
  user: { id: string; email: string; sessionEpoch?: number },
  binding?: string,
): Promise<string> {
  const token = randomToken();
  const hash = await sha256Hex(token);
  const now = Date.now();
  const record: TokenRecord = {
    purpose,
    userId: user.id,
    email: user.email,
    createdAt: new Date(now).toISOString(),
    expiresAt: new Date(now + TOKEN_TTL_MS).toISOString(),
    ...(binding ? { bindingHash: await sha256Hex(binding) } : {}),
    ...(purpose === "reset-password" ? { epoch: user.sessionEpoch ?? 0 } : {}),
  };
  op.set(["auth_tokens", hash], record, { expireIn: TOKEN_TTL_MS })
    .set(["auth_tokens_by_user", user.id, purpose, hash], true, { expireIn: TOKEN_TTL_MS });
  return token;
}

/**
 * The stored entry of a live token of `purpose`, for a caller that spends it in its own atomic write
 * (`spendTokenOps`); null when the token is malformed, unknown, of another purpose, expired or spent.
 */
export async function findToken(
  kv: Deno.Kv,
  purpose: TokenPurpose,
  token: string,
): Promise<Deno.KvEntry<TokenRecord> | null> {
  if (!/^[A-Za-z0-9_-]{43}$/.test(token)) return null;
  const entry = await kv.get<TokenRecord>(["auth_tokens", await sha256Hex(token)]);
  const record = entry.value;
  if (!record || record.purpose !== purpose || Date.parse(record.expiresAt) <= Date.now()) return null;
  return entry as Deno.KvEntry<TokenRecord>;
}

/**
 * Adds to `op` the spending of the token of `entry` (as `findToken` read it), checked against that entry, so of two
 * concurrent writes spending one token exactly one commits.
 */
export function spendTokenOps(op: Deno.AtomicOperation, entry: Deno.KvEntry<TokenRecord>): void {
  const { userId, purpose } = entry.value;
  op.check(entry)
    .delete(entry.key)
    .delete(["auth_tokens_by_user", userId, purpose, entry.key[1] as string]);
}

/** Voids every token of `purpose` a user still has (after one of them was spent). */
export async function voidTokens(kv: Deno.Kv, userId: string, purpose: TokenPurpose): Promise<void> {
  for await (const other of kv.list({ prefix: ["auth_tokens_by_user", userId, purpose] })) {
    await kv.atomic().delete(other.key).delete(["auth_tokens", other.key[3] as string]).commit();
  }
}

/**
 * Claims the right to send a verification e-mail to a user now: true (and the time is
 * recorded) when none was sent in the last 5 minutes, else false. Concurrent claims: one wins.
 */
export async function claimVerificationMail(kv: Deno.Kv, userId: string): Promise<boolean> {
  const key = ["verification_mail_sent", userId];
  const entry = await kv.get<string>(key);
  const now = Date.now();
  if (entry.value && Date.parse(entry.value) + VERIFICATION_MAIL_GAP_MS > now) return false;
  const result = await kv.atomic()
    .check(entry)
    .set(key, new Date(now).toISOString(), { expireIn: VERIFICATION_MAIL_GAP_MS })
    .commit();
  return result.ok;
}

/**
 * Claims one of the `AUTH_MAILS_PER_DAY` e-mails of `purpose` that `userId` may be sent in the 24 hours up to `now` (ms):
 * true, and the time recorded in a write checked against the times read (so concurrent claims never pass the cap), when
 * fewer were sent; false when that many were, or when concurrent claims kept winning (docs/decisions.md, Auth, "At most
 * ten verification and ten reset e-mails a day"). A stranger who knows an address cannot make it a flood of our mail.
 */
export async function claimDailyAuthMail(
  kv: Deno.Kv,
  purpose: TokenPurpose,
  userId: string,
  now = Date.now(),
): Promise<boolean> {
  const key = ["auth_mails_sent", purpose, userId];
  for (let attempt = 0; attempt < CLAIM_ATTEMPTS; attempt++) {
    const entry = await kv.get<number[]>(key);
    const recent = (entry.value ?? []).filter((at) => at > now - AUTH_MAIL_DAY_MS);
    if (recent.length >= AUTH_MAILS_PER_DAY) return false;
    const op = kv.atomic().check(entry).set(key, [...recent, now], { expireIn: AUTH_MAIL_DAY_MS });
    if ((await op.commit()).ok) return true;
  }
  return false;
}

/** Deletes every e-mail token of a user and the times of their last e-mails (account deletion). */
export async function deleteUserTokens(kv: Deno.Kv, userId: string): Promise<void> {
  await kv.atomic().delete(["verification_mail_sent", userId])
    .delete(["auth_mails_sent", "verify-email", userId])
    .delete(["auth_mails_sent", "reset-password", userId])
    .commit();
  await deleteListed(kv, ["auth_tokens_by_user", userId], ({ key }) => [["auth_tokens", key[3]]]);
}
