/**
 * Suspending an account and lifting the suspension (docs/decisions.md, Admin, "Suspension"; docs/api.md, Admin): an
 * admin stops a person from signing in and, unless they choose otherwise, hides their open listings
 * (`lib/moderation/poster_hides.ts`); when they choose so, also removes their comments
 * (`lib/moderation/comment_purges.ts`); the rest of what they wrote stays.
 *
 * Keys (owned by this module only):
 * - `["suspended_users", userId]` → the id of the admin who suspended them (null once that admin's account is
 *   deleted): the suspended accounts, for the admin list's filter; written with the user record's `suspension`.
 */
import { z } from "zod";
import { BusyError, ConflictError, ForbiddenError, NotFoundError } from "@/lib/errors.ts";
import { REFUSALS } from "@/lib/refusals.ts";
import { TextSchema } from "@/lib/text.ts";
import { appendAdminLogOps } from "@/lib/admin_log/admin_log.ts";
import { queueMailOps } from "@/lib/mail/outbox.ts";
import { suspensionLiftedMail, suspensionMail } from "@/lib/mail/templates.tsx";
import { translatorOfPerson } from "@/lib/i18n/catalogue.ts";
import { endSessionsPatch, getUsers, updateUserOps, type User, userKey } from "./users.ts";
import { isAdmin } from "./roles.ts";
import {
  cancelPosterHideOps,
  forgetHideAdmin,
  hidePosterListings,
  posterHideOps,
} from "@/lib/moderation/poster_hides.ts";
import {
  cancelCommentPurgeOps,
  commentPurgeOps,
  forgetCommentPurges,
  purgeComments,
} from "@/lib/moderation/comment_purges.ts";
import { commentCountOf } from "@/lib/comments/store.ts";
import { cancelManagerCloseOps, closeManagedListings, managerCloseOps } from "@/lib/internships/manager_closes.ts";

/** The longest reason, in characters. */
export const SUSPENSION_REASON_MAX = 500;

/**
 * Body of `POST /api/admin/users/{id}/suspension`: why, in words the person reads (1–500 characters), whether to
 * hide their open listings too (default true), and whether to remove their comments too (default false).
 */
export const suspensionSchema = z.object({
  reason: TextSchema.trim().min(1).max(SUSPENSION_REASON_MAX).describe("Why; the person reads it in the e-mail"),
  hideListings: z.boolean().default(true).describe(
    "Also hide their open internships and opportunities (rejected by moderation; those internships that take " +
      "applications here close; lifting does not list them again)",
  ),
  removeComments: z.boolean().default(false).describe(
    "Also remove every comment they wrote, as an admin removes one (lifting does not bring them back)",
  ),
});

/** Ids are UUIDs; a longer path segment names no user (and would exceed KV's key size). */
const MAX_ID_LENGTH = 100;

const suspendedKey = (userId: string): Deno.KvKey => ["suspended_users", userId];

/** The user whose suspension changed, as the endpoints answer it (`{user}`); `suspension` null once lifted. */
export type SuspensionChanged = Pick<User, "id" | "name" | "email" | "role"> & { suspension: User["suspension"] };

/** What the change wrote: the user, and the id of the mail telling them (for `deliverSoon`). */
export interface SuspensionResult {
  user: SuspensionChanged;
  mailId: string;
}

/** Who acts on whom, and the site's address for the mail's link. */
interface Parties {
  actorId: string;
  targetId: string;
  appUrl: string;
}

/**
 * Reads the acting admin and the target as entries for a checked write.
 * @throws ForbiddenError (default sentence) when the actor is no longer an admin; NotFoundError "User not found".
 */
async function readParties(kv: Deno.Kv, { actorId, targetId }: Parties) {
  if (targetId.length > MAX_ID_LENGTH) throw new NotFoundError(REFUSALS.userNotFound);
  const [actor, target] = await kv.getMany<[User, User]>([userKey(actorId), userKey(targetId)]);
  if (!isAdmin(actor.value)) throw new ForbiddenError();
  if (!target.value) throw new NotFoundError(REFUSALS.userNotFound);
  return { actor, target: target as Deno.KvEntry<User> };
}

function changed(user: User): SuspensionChanged {
  return { id: user.id, name: user.name, email: user.email, role: user.role, suspension: user.suspension ?? null };
}

/**
 * Suspends `targetId` on behalf of admin `actorId` for `reason`, in one atomic write checked against both user records
 * as read (so a target promoted meanwhile is not suspended, and the actor is still an admin): the user's `suspension`
 * (`{at, reason, by}`), their next session epoch (every session ends at once, as "Sign out everywhere else" does;
 * docs/decisions.md, Sessions, "Ending sessions"), the filter's entry, the audit log's `user.suspend` (the reason as
 * its summary) and the e-mail telling the person, in their language, without the admin's name; with `hideListings`,
 * also the hide of their open listings (`posterHideOps`, noted in their language with the reason); always the close of
 * the listings that nobody else answers once they are suspended, their own (left to the hide when there is one) and
 * those of the verified organizations they manage (`managerCloseOps`); with `removeComments`, also the removal of their
 * comments (`commentPurgeOps`, with how many there are, counted before the write). The caller runs those next
 * (`runSuspension`).
 * @throws ForbiddenError "You cannot suspend your own account", or the default 403 when the actor is no longer an
 *   admin; NotFoundError "User not found"; ConflictError (409) "An admin cannot be suspended…" or "This account is
 *   already suspended".
 */
export async function suspendUser(
  kv: Deno.Kv,
  { reason, hideListings, removeComments = false, ...parties }: Parties & {
    reason: string;
    hideListings: boolean;
    removeComments?: boolean;
  },
): Promise<SuspensionResult> {
  if (parties.actorId === parties.targetId) throw new ForbiddenError(REFUSALS.ownSuspension);
  for (;;) {
    // Counted outside the write: only the admin list's "Removing … comments" reads it.
    const comments = removeComments ? await commentCountOf(kv, parties.targetId) : 0;
    const { actor, target } = await readParties(kv, parties);
    if (target.value.role === "admin") throw new ConflictError(REFUSALS.suspendAdmin);
    if (target.value.suspension) throw new ConflictError(REFUSALS.alreadySuspended);
    const at = new Date().toISOString();
    const op = kv.atomic().check(actor);
    const user = updateUserOps(op, target, {
      suspension: { at, reason, by: parties.actorId },
      ...endSessionsPatch(target.value),
    });
    op.set(suspendedKey(user.id), parties.actorId);
    managerCloseOps(op, user.id, at);
    appendAdminLogOps(op, {
      adminId: parties.actorId,
      action: "user.suspend",
      targetKind: "user",
      targetId: user.id,
      summary: reason,
    });
    const t = translatorOfPerson(user);
    if (hideListings) {
      posterHideOps(op, {
        userId: user.id,
        adminId: parties.actorId,
        note: t("trust.moderation.posterSuspended", { reason }),
      });
    }
    if (removeComments) commentPurgeOps(op, { userId: user.id, adminId: parties.actorId, total: comments });
    const mail = suspensionMail({
      to: user.email,
      name: user.emailVerified ? user.name : null,
      reason,
      listingsHidden: hideListings,
      commentsRemoved: comments > 0,
      contactUrl: `${parties.appUrl}/contact`,
      t,
    });
    const mailId = queueMailOps(op, { ...mail, userId: user.id, retryable: true });
    if ((await op.commit()).ok) return { user: changed(user), mailId };
  }
}

/**
 * Runs at once what the suspension of `userId` recorded (docs/decisions.md, Admin, "Suspension"), right after its
 * write: with `hideListings`, the hide of their open listings (`hidePosterListings`); the close of their own listings
 * and those of the verified organizations they manage that nobody else answers (`closeManagedListings`); with
 * `removeComments`, the first batch of the removal of their comments (`purgeComments`). The suspension stands whatever
 * happens here: a step kept busy by lost races (BusyError) leaves it and the steps after it to their jobs, which finish
 * them within minutes (`finishing`).
 * @returns how many listings were hidden now (null without `hideListings`; 0 when the hide was busy) and `finishing`.
 * @throws what a step throws but BusyError.
 */
export async function runSuspension(
  kv: Deno.Kv,
  { userId, hideListings, removeComments }: { userId: string; hideListings: boolean; removeComments: boolean },
): Promise<{ hiddenListings: number | null; finishing: boolean }> {
  let hiddenListings = hideListings ? 0 : null;
  try {
    if (hideListings) hiddenListings = await hidePosterListings(kv, { userId, now: Date.now() });
    await closeManagedListings(kv, userId);
    if (removeComments) await purgeComments(kv, { userId, now: Date.now(), batches: 1 });
    return { hiddenListings, finishing: false };
  } catch (error) {
    if (!(error instanceof BusyError)) throw error;
    return { hiddenListings, finishing: true };
  }
}

/**
 * Lifts the suspension of `targetId` on behalf of admin `actorId`, in one atomic write checked as `suspendUser`'s: the
 * user's `suspension` null, the filter's entry gone, a hide of their listings, a close of the listings they managed
 * (`cancelManagerCloseOps`) or a removal of their comments still under way ended (those closed stay closed, those
 * hidden stay hidden, those removed stay removed), the audit log's `user.unsuspend` and the e-mail telling the person
 * they may sign in again.
 * @throws ForbiddenError (default sentence) when the actor is no longer an admin; NotFoundError "User not found";
 *   ConflictError (409) "This account is not suspended".
 */
export async function liftSuspension(kv: Deno.Kv, parties: Parties): Promise<SuspensionResult> {
  for (;;) {
    const { actor, target } = await readParties(kv, parties);
    if (!target.value.suspension) throw new ConflictError(REFUSALS.notSuspended);
    const op = kv.atomic().check(actor);
    const user = updateUserOps(op, target, { suspension: null });
    op.delete(suspendedKey(user.id));
    cancelPosterHideOps(op, user.id);
    cancelCommentPurgeOps(op, user.id);
    cancelManagerCloseOps(op, user.id);
    appendAdminLogOps(op, {
      adminId: parties.actorId,
      action: "user.unsuspend",
      targetKind: "user",
      targetId: user.id,
    });
    const mail = suspensionLiftedMail({
      to: user.email,
      name: user.emailVerified ? user.name : null,
      signInUrl: `${parties.appUrl}/sign-in`,
      t: translatorOfPerson(user),
    });
    const mailId = queueMailOps(op, { ...mail, userId: user.id, retryable: true });
    if ((await op.commit()).ok) return { user: changed(user), mailId };
  }
}

/** Every suspended account, newest first (the admin list's filter): the filter's keys, then their records. */
export async function suspendedUsers(kv: Deno.Kv): Promise<User[]> {
  const ids: string[] = [];
  for await (const { key } of kv.list({ prefix: ["suspended_users"] })) ids.push(key[1] as string);
  const records = [...(await getUsers(kv, ids)).values()];
  return records.sort((a, b) => b.createdAt.localeCompare(a.createdAt) || b.id.localeCompare(a.id));
}

/**
 * Forgets `userId` in suspensions (their account's deletion, docs/decisions.md, Data rights): their own filter entry
 * goes, each suspension they made as an admin is kept with `by` null, and each hide of listings they asked for that is
 * still to do is kept with `adminId` null (`forgetHideAdmin`), as is each removal of comments they asked for (the
 * removal of their own comments goes: `forgetCommentPurges`). Idempotent; one checked write per suspension, hide and
 * removal.
 * Returns how many suspensions forgot them.
 * @throws BusyError when a hide or a removal kept changing for 30 s.
 */
export async function forgetSuspensionsOf(kv: Deno.Kv, userId: string): Promise<number> {
  await kv.delete(suspendedKey(userId));
  let forgotten = 0;
  for await (const { key, value } of kv.list<string | null>({ prefix: ["suspended_users"] })) {
    if (value !== userId) continue;
    for (;;) {
      const [index, user] = await kv.getMany<[string | null, User]>([key, userKey(key[1] as string)]);
      if (index.value !== userId) break;
      const op = kv.atomic().check(index).set(key, null);
      if (user.value?.suspension) {
        updateUserOps(op, user as Deno.KvEntry<User>, { suspension: { ...user.value.suspension, by: null } });
      }
      if ((await op.commit()).ok) {
        forgotten++;
        break;
      }
    }
  }
  await forgetHideAdmin(kv, userId);
  await forgetCommentPurges(kv, userId);
  return forgotten;
}
