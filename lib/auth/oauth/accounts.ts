/**
 * Social accounts (docs/api.md, Authentication, "Social sign-in"; docs/decisions.md, Social sign-in): one record per
 * (provider, provider account id), linked to a user. A callback's identity is resolved by account, else by a user
 * with the same e-mail when the provider says the e-mail is verified (linking the account; a user whose own e-mail
 * was never verified is taken over safely: the password, the sessions and every provider link made before go, as
 * whoever made them never proved the address), else a new user is created with the account, in one atomic write, so
 * concurrent callbacks for one new identity create one user.
 *
 * Keys (owned by this module only):
 * - `["oauth_accounts", provider, accountId]` → `SocialAccount`
 * - `["oauth_accounts_by_user", userId, provider, accountId]` → `SocialAccount`
 */
import { deleteListed } from "@/lib/kv/packed_writes.ts";
import { AuthError, ConflictError } from "@/lib/errors.ts";
import type { Lang } from "@/lib/i18n/languages.ts";
import {
  createUser,
  getPasswordEntry,
  getUser,
  getUserByEmail,
  normalizeEmail,
  takeOverUnverifiedUser,
  type User,
  USER_NAME_MAX,
  userKey,
} from "@/lib/users/users.ts";
import { deleteUserSessions, endOtherSessionsOps } from "@/lib/auth/sessions.ts";
import type { ProviderIdentity } from "./flow.ts";
import type { ProviderId } from "./providers.ts";
import { readableText } from "@/lib/text.ts";
import { RETRY_BUDGET_MS, retrying } from "@/lib/kv/retry.ts";
import { REFUSALS } from "@/lib/refusals.ts";

/** A link between a provider account and a user. */
export interface SocialAccount {
  provider: ProviderId;
  accountId: string;
  userId: string;
  createdAt: string;
}

/** Attempts before a sign-in that keeps losing races gives up. */
const ATTEMPTS = 10;

function accountKey(provider: ProviderId, accountId: string): Deno.KvKey {
  return ["oauth_accounts", provider, accountId];
}

/** Adds the account's keys to `op`, only while the account key is as `seen` (absent, or that stale link). */
function linkInto(
  op: Deno.AtomicOperation,
  { seen, identity, userId }: { seen: Deno.KvEntryMaybe<SocialAccount>; identity: ProviderIdentity; userId: string },
) {
  const account: SocialAccount = {
    provider: identity.provider,
    accountId: identity.accountId,
    userId,
    createdAt: new Date().toISOString(),
  };
  op.check(seen)
    .set(accountKey(identity.provider, identity.accountId), account)
    .set(["oauth_accounts_by_user", userId, identity.provider, identity.accountId], account);
}

/** A user's link as read: its by-user entry and its account entry (for checks), as `linksOf` returns them. */
interface LinkEntries {
  byUser: Deno.KvEntry<SocialAccount>;
  account: Deno.KvEntryMaybe<SocialAccount>;
}

/** Every link of a user, read for `unlinkInto`. */
async function linksOf(kv: Deno.Kv, userId: string): Promise<LinkEntries[]> {
  const links: LinkEntries[] = [];
  for await (const byUser of kv.list<SocialAccount>({ prefix: ["oauth_accounts_by_user", userId] })) {
    const account = await kv.get<SocialAccount>(accountKey(byUser.value.provider, byUser.value.accountId));
    links.push({ byUser, account });
  }
  return links;
}

/**
 * Adds to `op` the removal of `links`, each only while it is as read: the by-user key, and the account key while it
 * still names that user (a later sign-in may have relinked it to someone else).
 */
function unlinkInto(op: Deno.AtomicOperation, links: LinkEntries[]) {
  for (const { byUser, account } of links) {
    op.check(byUser, account).delete(byUser.key);
    if (account.value?.userId === byUser.value.userId) op.delete(account.key);
  }
}

/**
 * Adds to `op` the removal of every provider link of `userId`, each checked as read now (`unlinkInto`): what a reset of
 * an account whose address is not verified does in its write (docs/decisions.md, Social sign-in, "An identity whose
 * e-mail the provider did not verify proves nothing about the address").
 */
export async function unlinkAllOps(kv: Deno.Kv, op: Deno.AtomicOperation, userId: string): Promise<void> {
  unlinkInto(op, await linksOf(kv, userId));
}

/**
 * A user name from the provider's: invisible characters stripped and combining marks capped as in every text field
 * (`readableText`), other control characters become spaces, trimmed, at most `USER_NAME_MAX`
 * characters; the e-mail's local part when the provider gave none.
 */
export function nameFromProvider(name: string | null, email: string): string {
  const clean = readableText(name ?? "").replace(/\p{Cc}+/gu, " ").trim();
  const chosen = clean || email.split("@")[0] || "Member";
  return [...chosen].slice(0, USER_NAME_MAX).join("").trim();
}

/**
 * The user of a provider identity, found, linked or created as the module doc says. A new user, or one taken over,
 * whose provider-verified e-mail is in `adminEmails` becomes `admin` (a new one else `user`); a new user's language is
 * `language`, the one of the page the sign-in started from (docs/decisions.md, Languages).
 * @returns the user and whether it was created now (for `newUserCallbackURL`).
 * @throws AuthError 403 `ACCOUNT_NOT_LINKED` when the e-mail is unverified at the provider and
 *   belongs to an existing user; ConflictError after `ATTEMPTS` lost races.
 */
export async function resolveSocialUser(
  kv: Deno.Kv,
  identity: ProviderIdentity,
  adminEmails: Set<string>,
  language?: Lang,
): Promise<{ user: User; created: boolean }> {
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const seen = await kv.get<SocialAccount>(accountKey(identity.provider, identity.accountId));
    const linked = seen.value && await getUser(kv, seen.value.userId);
    if (linked) return { user: linked, created: false };

    const name = nameFromProvider(identity.name, identity.email);
    const existing = await getUserByEmail(kv, identity.email);
    if (existing && !identity.emailVerified) {
      throw new AuthError("ACCOUNT_NOT_LINKED", "Account not linked: the provider has not verified this e-mail");
    }
    if (existing?.emailVerified) {
      // Checked against the user as read, so a deletion landing meanwhile leaves no link naming the person.
      const entry = await kv.get<User>(userKey(existing.id));
      if (!entry.value) continue;
      const op = kv.atomic().check(entry);
      linkInto(op, { seen, identity, userId: existing.id });
      if ((await op.commit()).ok) return { user: existing, created: false };
      continue;
    }
    if (existing) {
      const unproven = await linksOf(kv, existing.id);
      const user = await takeOverUnverifiedUser(kv, {
        id: existing.id,
        patch: {
          name,
          image: identity.picture,
          ...(adminEmails.has(existing.email) ? { role: "admin" as const } : {}),
        },
        extend: (op, user) => {
          unlinkInto(op, unproven);
          linkInto(op, { seen, identity, userId: user.id });
        },
      });
      if (!user) continue;
      await deleteUserSessions(kv, user.id);
      return { user, created: false };
    }
    try {
      const email = normalizeEmail(identity.email);
      const user = await createUser(kv, {
        name,
        email,
        emailVerified: identity.emailVerified,
        image: identity.picture,
        role: identity.emailVerified && adminEmails.has(email) ? "admin" : "user",
        language,
      }, (op, user) => linkInto(op, { seen, identity, userId: user.id }));
      return { user, created: true };
    } catch (error) {
      if (!(error instanceof ConflictError)) throw error;
    }
  }
  throw new ConflictError("Social sign-in kept conflicting with concurrent writes");
}

/**
 * Removes every social account link of a user (account deletion), as many a commit as KV takes (`deleteListed`): the
 * provider accounts can then sign up again as new users.
 */
export async function unlinkAccounts(kv: Deno.Kv, userId: string): Promise<void> {
  await deleteListed<SocialAccount>(
    kv,
    ["oauth_accounts_by_user", userId],
    ({ value }) => [accountKey(value.provider, value.accountId)],
  );
}

/**
 * Removes a user's connected `provider` (every account of it linked to the user; docs/decisions.md, Social sign-in,
 * "Removing a connected account") in one atomic write checked against every link and the password entry as read, so
 * two removals at once, or a reset racing one, can never leave the account without a way to sign in; the same write
 * ends every other session of the user but the caller's, the session of `token` (`endOtherSessionsOps`), so whoever
 * signed in through the removed provider is signed out with it. Nothing else records it. A write that lost a race is
 * read and tried again (`retrying`).
 * @returns false when no account of `provider` is linked to the user.
 * @throws ConflictError `REFUSALS.lastSignIn` when the account has no password and no other provider;
 *   AuthError `UNAUTHORIZED` when the caller's session ended meanwhile (nothing removed);
 *   BusyError when other writes kept winning.
 */
export async function unlinkProvider(
  kv: Deno.Kv,
  { userId, provider, token }: { userId: string; provider: ProviderId; token: string },
): Promise<boolean> {
  let removed = false;
  await retrying(async () => {
    const [links, password] = await Promise.all([linksOf(kv, userId), getPasswordEntry(kv, userId)]);
    const going = links.filter((link) => link.byUser.value.provider === provider);
    const staying = links.filter((link) => link.byUser.value.provider !== provider);
    if (going.length === 0) return true;
    if (password.value === null && staying.length === 0) throw new ConflictError(REFUSALS.lastSignIn);
    const op = kv.atomic().check(password, ...staying.map((link) => link.byUser));
    unlinkInto(op, going);
    if (!await endOtherSessionsOps(kv, op, token)) throw new AuthError("UNAUTHORIZED", "Unauthorized");
    removed = (await op.commit()).ok;
    return removed;
  }, RETRY_BUDGET_MS);
  return removed;
}

/** The providers linked to a user, each once, in key order (for the profile page's sign-in methods). */
export async function linkedProviders(kv: Deno.Kv, userId: string): Promise<ProviderId[]> {
  const found = new Set<ProviderId>();
  for await (const entry of kv.list<SocialAccount>({ prefix: ["oauth_accounts_by_user", userId] })) {
    found.add(entry.value.provider);
  }
  return [...found];
}
