/**
 * E-mail and password accounts (docs/api.md, Authentication, "E-mail verification"; docs/api.md, Authentication,
 * "Password reset"; docs/decisions.md, Auth): sign-up, credential checks, e-mail verification and password reset with
 * the single-use tokens of `verification.ts`.
 */
import { AuthError, ConflictError } from "@/lib/errors.ts";
import {
  createUser,
  endSessionsPatch,
  getPasswordEntry,
  getUser,
  getUserByEmail,
  normalizeEmail,
  setPasswordHashOps,
  updateUserOps,
  type User,
  userKey,
} from "@/lib/users/users.ts";
import type { Lang } from "@/lib/i18n/languages.ts";
import { hashPassword, PASSWORD_MAX, verifyDummy, verifyPassword } from "./passwords.ts";
import { refuseSuspended, type SessionGuard } from "./sessions.ts";
import { unlinkAllOps } from "./oauth/accounts.ts";
import { findToken, spendTokenOps, type TokenRecord, voidTokens } from "./verification.ts";
import { sha256Hex } from "@/lib/ids.ts";

/** Input of `signUp`; the password has already passed the length rule. */
export interface SignUpInput {
  name: string;
  email: string;
  password: string;
  image?: string | null;
  /** The language of the page signed up on (docs/decisions.md, Languages). */
  language?: Lang;
}

function alreadyExists(): AuthError {
  return new AuthError("USER_ALREADY_EXISTS", "User already exists");
}

/**
 * Creates an unverified user with a password, role `user`: an `ADMIN_EMAILS` address becomes `admin` only once it is
 * verified (`verifyEmail`; docs/decisions.md, Auth). Uniqueness is one atomic check in `createUser`.
 * @throws AuthError 422 `USER_ALREADY_EXISTS` when the e-mail is taken in any case.
 */
export async function signUp(kv: Deno.Kv, input: SignUpInput): Promise<User> {
  const email = normalizeEmail(input.email);
  if (await getUserByEmail(kv, email)) throw alreadyExists();
  const passwordHash = await hashPassword(input.password);
  try {
    return await createUser(kv, {
      name: input.name,
      email,
      emailVerified: false,
      image: input.image ?? null,
      role: "user",
      passwordHash,
      language: input.language,
    });
  } catch (error) {
    if (error instanceof ConflictError) throw alreadyExists();
    throw error;
  }
}

/** A successful password check: the user, and the guard that keeps a session to that password. */
export interface Credentials {
  user: User;
  /** For `createSession`: refuses the session (401) if the password changed since it was checked. */
  guard: SessionGuard;
}

/**
 * The user whose e-mail and password match. An unknown e-mail spends the time of one
 * password check too, so both failures look and take alike; a password longer than any
 * accepted one fails at once without hashing.
 * @throws AuthError 401 `INVALID_EMAIL_OR_PASSWORD`.
 */
export async function checkCredentials(kv: Deno.Kv, email: string, password: string): Promise<Credentials> {
  const refused = new AuthError("INVALID_EMAIL_OR_PASSWORD", "Invalid email or password");
  if ([...password].length > PASSWORD_MAX) throw refused;
  const user = await getUserByEmail(kv, email);
  const entry = user && await getPasswordEntry(kv, user.id);
  let ok = false;
  if (entry?.value) ok = await verifyPassword(entry.value, password);
  else await verifyDummy(password);
  if (!user || !entry || !ok) throw refused;
  return { user, guard: { check: entry, error: refused } };
}

/**
 * What a verification link names: its user, and whether the browser following it is the one that asked for it
 * (`sameBrowser`: its verification binding cookie is the one the token was issued for; docs/decisions.md, Auth).
 */
export interface VerificationLink {
  user: User;
  sameBrowser: boolean;
}

/** Whether the browser whose binding cookie value is `binding` is the one `record` was issued for. */
async function isSameBrowser(record: TokenRecord, binding: string | undefined): Promise<boolean> {
  return binding !== undefined && record.bindingHash === await sha256Hex(binding);
}

/** The link of a token's record for the browser whose binding cookie value is `binding`; null as `verifyEmail` says. */
async function linkOf(
  kv: Deno.Kv,
  record: TokenRecord | null,
  binding: string | undefined,
): Promise<VerificationLink | null> {
  const user = record && await getUser(kv, record.userId);
  if (!record || !user || user.email !== record.email) return null;
  return { user, sameBrowser: await isSameBrowser(record, binding) };
}

/**
 * Reads a verification token without spending it, for deciding whether a GET of the link may verify (docs/decisions.md,
 * Auth, "A verification link verifies only in the browser that asked for it").
 * @returns the link, or null as `verifyEmail` says.
 */
export async function readVerificationLink(
  kv: Deno.Kv,
  token: string,
  binding: string | undefined,
): Promise<VerificationLink | null> {
  return await linkOf(kv, (await findToken(kv, "verify-email", token))?.value ?? null, binding);
}

/** Attempts of `verifyEmail` while concurrent writes keep changing the user record. */
const VERIFY_ATTEMPTS = 5;

/**
 * Spends a verification token and marks the user's e-mail verified; an address of `adminEmails` (lower case) verified
 * now makes the user `admin` (docs/decisions.md, Auth). One atomic write checked against the token and the user as
 * read does both, so a crash never leaves the link spent and the address unverified, and a deletion landing meanwhile
 * makes the link invalid (null). The user's other verification links are voided after it. `binding` is the
 * verification binding cookie's value of the browser following the link (docs/decisions.md, Auth).
 * @returns the link (the user as now stored); null for a bad, spent or expired token (or one issued for an address
 *   the user no longer has, or whose user is gone; such a token is spent too).
 * @throws ConflictError after `VERIFY_ATTEMPTS` lost races with writes of the user record.
 */
export async function verifyEmail(
  kv: Deno.Kv,
  token: string,
  { binding, adminEmails }: { binding: string | undefined; adminEmails: Set<string> },
): Promise<VerificationLink | null> {
  for (let attempt = 0; attempt < VERIFY_ATTEMPTS; attempt++) {
    const entry = await findToken(kv, "verify-email", token);
    if (!entry) return null;
    const record = entry.value;
    const userEntry = await kv.get<User>(userKey(record.userId));
    const op = kv.atomic();
    spendTokenOps(op, entry);
    let user = userEntry.value;
    if (user?.email === record.email) {
      const found = userEntry as Deno.KvEntry<User>;
      const patch = { emailVerified: true, ...(adminEmails.has(user.email) ? { role: "admin" as const } : {}) };
      if (user.emailVerified) op.check(found);
      else user = updateUserOps(op, found, patch);
    } else user = null;
    if ((await op.commit()).ok) {
      await voidTokens(kv, record.userId, "verify-email");
      return user && { user, sameBrowser: await isSameBrowser(record, binding) };
    }
  }
  throw new ConflictError("E-mail not verified: the user record kept changing");
}

/** A reset link's stored token and its user, both as read. */
export interface ResetLink {
  entry: Deno.KvEntry<TokenRecord>;
  user: Deno.KvEntry<User>;
}

/**
 * Reads a reset link without spending it: its token and user, or null when the token is malformed, unknown, spent or
 * expired, its user is gone, or the user's sessions were ended since it was issued (its `epoch` is behind the user's
 * `sessionEpoch`: a reset, "sign out everywhere else" or a takeover kills every older reset link at once, in its own
 * write; docs/decisions.md, Auth).
 */
export async function readResetLink(kv: Deno.Kv, token: string): Promise<ResetLink | null> {
  const entry = await findToken(kv, "reset-password", token);
  if (!entry) return null;
  const user = await kv.get<User>(userKey(entry.value.userId));
  if (!user.value) return null;
  const { epoch } = entry.value;
  if (epoch !== undefined && epoch !== (user.value.sessionEpoch ?? 0)) return null;
  return { entry, user: user as Deno.KvEntry<User> };
}

/** Attempts of `resetPassword` while concurrent writes keep changing the user record. */
const RESET_ATTEMPTS = 5;

/**
 * Spends a reset token, replaces the user's password and ends every session of the user, all in one atomic write
 * checked against the token and the user as read (docs/decisions.md, Sessions, "Ending sessions"): it happens whole or
 * not at all. For a user whose address is not verified, the write also removes every provider link, each checked as
 * read (`unlinkAllOps`): whoever made them never proved the address, which the reset's link does (docs/decisions.md,
 * Social sign-in, "An identity whose e-mail the provider did not verify proves nothing about the address"). Moving the session epoch on also kills the user's other reset links in that write (`readResetLink`);
 * their keys are deleted after it. `alsoOps` adds its own mutations about the user as read to that write (the notice of
 * the change).
 * @returns false for a bad, spent or expired token, one whose user is gone, or one older than the user's sessions.
 * @throws AuthError 403 `ACCOUNT_SUSPENDED` while the user is suspended, before anything is written (docs/decisions.md,
 *   Admin, "Suspension"); ConflictError after `RESET_ATTEMPTS` lost races with writes of the user record.
 */
export async function resetPassword(
  kv: Deno.Kv,
  token: string,
  newPassword: string,
  alsoOps?: (op: Deno.AtomicOperation, user: User) => void,
): Promise<boolean> {
  const first = await readResetLink(kv, token);
  if (!first) return false;
  refuseSuspended(first.user.value);
  const passwordHash = await hashPassword(newPassword);
  for (let attempt = 0; attempt < RESET_ATTEMPTS; attempt++) {
    // Read again after the hashing and after a lost race: the token may be spent, or the sessions ended, meanwhile.
    const link = await readResetLink(kv, token);
    if (!link) return false;
    const { entry, user } = link;
    refuseSuspended(user.value);
    const op = kv.atomic();
    spendTokenOps(op, entry);
    updateUserOps(op, user, endSessionsPatch(user.value));
    if (!user.value.emailVerified) await unlinkAllOps(kv, op, user.value.id);
    setPasswordHashOps(op, user.value.id, passwordHash);
    alsoOps?.(op, user.value);
    if ((await op.commit()).ok) {
      await voidTokens(kv, user.value.id, "reset-password");
      return true;
    }
  }
  throw new ConflictError("Password not reset: the user record kept changing");
}
