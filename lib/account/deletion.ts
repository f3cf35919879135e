/**
 * Account deletion (`DELETE /api/me`; docs/decisions.md, Data rights). It happens in two parts:
 *
 * 1. One atomic write removes the person: the user record, the e-mail index (the address may sign up again at once)
 *    and the password hash, the onboarding profile, queues the notice of the deletion to the address while it is still
 *    known, and records the deletion job `["account_deletions", userId]`, checked against the user as read (and, for
 *    an admin, against another admin who stays one). From then on every session of theirs is void (a session needs
 *    its user).
 * 2. The job runs `DELETION_STEPS`, one per domain, each deleting or anonymizing that domain's records of the person
 *    in writes that fit KV's limits (100 checks, 1,000 mutations, 800 KiB per commit) and each idempotent: the job
 *    notes each step done, and a job whose process died is finished by `resumeAccountDeletions` (the
 *    `account-deletions` cron, every 5 minutes). The request answers once the first write committed and starts the job
 *    in the background of its process (`BackgroundWork`); a lease keeps the cron off a job a process is running, renewed
 *    after each step and, within a long step, after each batch of records (`renew`).
 * 3. The job is kept, and the cron runs every step once more `DELETION_SWEEP_AFTER_MS` after the first pass: a
 *    request that read the person before the first write (a comment, an alert, a report, a claim confirmed, a checkout,
 *    a listing or a post) may commit after its domain's step, and the second pass removes what it wrote. Then the job
 *    goes (docs/decisions.md, Data rights, "Writes in flight during a deletion").
 *
 * A domain that keeps records about a person adds its step here (the deletion test scans all of KV for the
 * person's id and e-mail afterwards, so a forgotten step fails it).
 */
import { forgetKnownDevices } from "@/lib/auth/known_devices.ts";
import { unlinkAccounts } from "@/lib/auth/oauth/accounts.ts";
import { verifyPassword } from "@/lib/auth/passwords.ts";
import { deleteUserSessions, freshSignIn, type Session } from "@/lib/auth/sessions.ts";
import { deleteUserTokens } from "@/lib/auth/verification.ts";
import { deleteApiKeysOf } from "@/lib/api_keys/api_keys.ts";
import { ForbiddenError, InvalidInputError, UnauthenticatedError } from "@/lib/errors.ts";
import { forgetInternshipOwner } from "@/lib/internships/writes.ts";
import { dropDemotionClose } from "@/lib/internships/demotion_closes.ts";
import { closeAtManagerDeletion } from "@/lib/internships/manager_closes.ts";
import { deleteOnboardingOps } from "@/lib/onboarding/onboarding.ts";
import { forgetOpportunityOwner } from "@/lib/opportunities/opportunities.ts";
import { forgetBuyer } from "@/lib/purchases/purchases.ts";
import { deleteCertificatesOf } from "@/lib/certificates/certificates.ts";
import { allToolkitIds, forgetToolkitCreator } from "@/lib/toolkits/catalog.ts";
import { deleteLearnerProgress } from "@/lib/toolkits/progress.ts";
import { forgetPostAuthor } from "@/lib/ungatekeep/posts.ts";
import { deleteSavedOf } from "@/lib/saved/saved.ts";
import { deleteNotificationsOf } from "@/lib/notifications/notifications.ts";
import { deleteSettingsOf } from "@/lib/settings/settings.ts";
import { deleteSubscriptionsOf } from "@/lib/push/subscriptions.ts";
import { deletePushMessagesOf } from "@/lib/push/outbox.ts";
import { deleteAlertsOf } from "@/lib/alerts/alerts.ts";
import { deleteRemindedOf } from "@/lib/alerts/reminders.ts";
import { deleteToldOf } from "@/lib/alerts/digest.ts";
import { deleteUnsubscribeTokensOf } from "@/lib/alerts/unsubscribe.ts";
import { deleteReactionsOf, forgetCommentAuthor } from "@/lib/comments/store.ts";
import { deleteMailsOf, queueMailOps } from "@/lib/mail/outbox.ts";
import { deliverSoon, type MailServices } from "@/lib/mail/delivery.ts";
import { accountDeletedMail } from "@/lib/mail/templates.tsx";
import { translatorOfPerson } from "@/lib/i18n/catalogue.ts";
import { forgetManager } from "@/lib/organizations/store.ts";
import { deleteClaimsOf } from "@/lib/organizations/claims.ts";
import { forgetReporter } from "@/lib/reports/reports.ts";
import { forgetPersonInLog } from "@/lib/admin_log/admin_log.ts";
import type { Job } from "@/lib/jobs/job.ts";
import type { ObjectStore } from "@/lib/files/object_store.ts";
import type { Services } from "@/lib/platform/state.ts";
import { deleteResume } from "@/lib/resumes/resumes.ts";
import { forgetApplicant } from "@/lib/applications/applications.ts";
import { deleteUserOps, getPasswordEntry, normalizeEmail, otherAdmin, type User, userKey } from "@/lib/users/users.ts";
import { REFUSALS } from "@/lib/refusals.ts";
import { RETRY_BUDGET_MS, retrying } from "@/lib/kv/retry.ts";
import { forgetSuspensionsOf } from "@/lib/users/suspension.ts";
import { isAdmin } from "@/lib/users/roles.ts";

/**
 * One step of the cascade: a name (kept in the job record once done) and what it does for the deleted user's id, with
 * the KV store and the object store of uploaded files. A step that walks many records calls `renew` after each batch
 * (of at most a few hundred records): it renews the job's lease, and throws when another process took the job over,
 * which stops the step and its runner.
 */
export interface DeletionStep {
  name: string;
  run(kv: Deno.Kv, userId: string, files: ObjectStore, renew: () => Promise<void>): Promise<void>;
}

/** What a deletion works with: the platform's KV store, its object store and the log. */
export type DeletionServices = Pick<Services, "kv" | "files" | "log">;

/** The cascade after the user record is gone, in order. Every step must be idempotent. */
export const DELETION_STEPS: DeletionStep[] = [
  { name: "sessions", run: deleteUserSessions },
  { name: "social accounts", run: unlinkAccounts },
  { name: "e-mail tokens", run: deleteUserTokens },
  { name: "api keys", run: deleteApiKeysOf },
  { name: "progress", run: async (kv, userId) => deleteLearnerProgress(kv, userId, await allToolkitIds(kv)) },
  { name: "purchases", run: (kv, userId, _files, renew) => forgetBuyer(kv, userId, { renew }) },
  { name: "certificates", run: deleteCertificatesOf },
  { name: "internships", run: (kv, userId, _files, renew) => forgetInternshipOwner(kv, userId, { renew }) },
  { name: "demotion close", run: dropDemotionClose },
  { name: "opportunities", run: (kv, userId, _files, renew) => forgetOpportunityOwner(kv, userId, { renew }) },
  { name: "posts", run: (kv, userId, _files, renew) => forgetPostAuthor(kv, userId, { renew }) },
  { name: "toolkits", run: forgetToolkitCreator },
  { name: "saved items", run: deleteSavedOf },
  { name: "settings", run: deleteSettingsOf },
  { name: "push subscriptions", run: deleteSubscriptionsOf },
  { name: "push messages", run: (kv, userId, _files, renew) => deletePushMessagesOf(kv, userId, { renew }) },
  { name: "notifications", run: deleteNotificationsOf },
  { name: "alerts", run: deleteAlertsOf },
  { name: "unsubscribe links", run: deleteUnsubscribeTokensOf },
  { name: "reminders sent", run: deleteRemindedOf },
  { name: "alert listings told", run: deleteToldOf },
  { name: "comments", run: (kv, userId, _files, renew) => forgetCommentAuthor(kv, userId, { renew }) },
  { name: "reactions", run: (kv, userId, _files, renew) => deleteReactionsOf(kv, userId, { renew }) },
  { name: "e-mails", run: (kv, userId, _files, renew) => deleteMailsOf(kv, userId, { renew }) },
  // Claims before managers: a claim confirmed between the two steps would otherwise make the person a manager again.
  { name: "organization claims", run: deleteClaimsOf },
  // Before managers: the listings only they answered close while they are still known as their managers.
  { name: "listings managed", run: (kv, userId, _files, renew) => closeAtManagerDeletion(kv, userId, renew) },
  { name: "organizations managed", run: forgetManager },
  { name: "applications", run: (kv, userId, files, renew) => forgetApplicant(kv, files, userId, { renew }) },
  { name: "resume", run: async (kv, userId, files) => void await deleteResume(kv, files, userId) },
  { name: "reports", run: (kv, userId, _files, renew) => forgetReporter(kv, userId, { renew }) },
  { name: "known devices", run: forgetKnownDevices },
  { name: "suspensions", run: async (kv, userId) => void await forgetSuspensionsOf(kv, userId) },
  { name: "admin log", run: async (kv, userId) => void await forgetPersonInLog(kv, userId) },
];

/**
 * A deletion under way: whose, since when, the steps done (of the pass under way), until when the process running it
 * holds it, and whether the steps ran once already.
 */
export interface DeletionJob {
  userId: string;
  startedAt: string;
  done: string[];
  /**
   * ISO time until which the process that runs the job holds it; the cron takes it over after that. Between the two
   * passes, the time the second may start.
   */
  leaseUntil: string;
  /** True once every step ran: the pass under way, or waiting, is the second (absent on jobs of before it was kept). */
  secondPass?: boolean;
}

/** How long a process holds a job it runs (ms); renewed after every step and every batch of a long one. */
export const DELETION_LEASE_MS = 2 * 60 * 1000;

/**
 * How long after the first pass of the steps (ms) the second may start: longer than a request that read the person
 * before the deletion may still take to commit its write. That write retries lost races for `RETRY_BUDGET_MS` (30 s);
 * before it, a checkout may wait 10 s for the gateway's order. A body still arriving, however slowly, does not count:
 * once it has arrived the request reads the session's user again and fails when it is gone (`bodyLimits`;
 * docs/decisions.md, Data rights, "Writes in flight during a deletion").
 * The cron, every 5 minutes, runs it at its first run after this.
 */
export const DELETION_SWEEP_AFTER_MS = RETRY_BUDGET_MS + 90_000;

/** The message of a deletion refused because the caller is the last admin. */
export const LAST_ADMIN = REFUSALS.lastAdmin;

const jobKey = (userId: string): Deno.KvKey => ["account_deletions", userId];

/**
 * Adds to the deletion's write `op` the notice that the account of `user` (as read) was deleted at `now` (ms), in their
 * language, when their address is verified (a mail to an unproven address may reach a stranger). It is queued without
 * a `userId`, so the cascade's "e-mails" step leaves it, and `forgetWhenSettled`, so its record, address included, goes
 * once it is sent or has failed for good (docs/decisions.md, Data rights, "Deletion"). Returns its id, or null.
 */
function deletedNoticeOps(
  op: Deno.AtomicOperation,
  user: User,
  { appUrl, now }: { appUrl: string; now: number },
): string | null {
  if (!user.emailVerified) return null;
  const mail = accountDeletedMail({
    to: user.email,
    name: user.name,
    deletedAt: new Date(now).toISOString(),
    contactUrl: `${appUrl}/contact`,
    t: translatorOfPerson(user),
  });
  return queueMailOps(op, { ...mail, userId: null, forgetWhenSettled: true }, now);
}

/** What the person sends to confirm: their e-mail, and their password when the account has one. */
export interface DeletionConfirmation {
  confirm: string;
  password?: string;
}

/** The message of a deletion refused because an account without a password signed in too long ago. */
export const SIGN_IN_AGAIN = REFUSALS.signInAgain;
/** The refusal of a deletion whose session came from a provider's sign-in without its login time (`loginUnknown`). */
export const CHOOSE_PASSWORD_TO_DELETE = REFUSALS.choosePasswordToDelete;

/**
 * Deletes the account of `user`, who asks from `session` (see the module docstring), mails the notice of it
 * (`deletedNoticeOps`, queued in the deletion's write, while the address is still known) and starts its cascade, which
 * it does not wait for: it returns once the account is gone (a step that throws is logged, and the
 * `account-deletions` cron finishes the job). An account with a password confirms with it; one without needs a fresh
 * sign-in (`freshSignIn`: its session began in the last 10 minutes; docs/decisions.md, Data rights, "Deleting an
 * account without a password"). The write is checked against the records as read, and read again after a lost race
 * for up to 30 s (`retrying`).
 * @throws InvalidInputError when `confirm` is not the account's e-mail; UnauthenticatedError when the account has a
 *   password and `password` is missing or wrong; ForbiddenError `SIGN_IN_AGAIN` when it has none and the sign-in is
 *   not fresh (`CHOOSE_PASSWORD_TO_DELETE` when no sign-in can be: its provider does not date logins), `LAST_ADMIN` for the only admin; BusyError when the write kept losing races for 30 s (nothing written).
 */
export async function deleteAccount(
  services: DeletionServices & MailServices,
  { user, session }: { user: User; session: Pick<Session, "createdAt" | "authenticatedAt" | "loginUnknown"> },
  confirmation: DeletionConfirmation,
): Promise<void> {
  const { kv, log } = services;
  if (normalizeEmail(confirmation.confirm) !== normalizeEmail(user.email)) {
    throw new InvalidInputError(REFUSALS.confirmEmail);
  }
  let mailId: string | null = null;
  await retrying(async () => {
    const [entry, password] = await Promise.all([kv.get<User>(userKey(user.id)), getPasswordEntry(kv, user.id)]);
    if (!entry.value) return true;
    if (password.value !== null) {
      const given = confirmation.password ?? "";
      if (given === "" || !await verifyPassword(password.value, given)) {
        throw new UnauthenticatedError(REFUSALS.wrongPassword);
      }
    } else if (!freshSignIn(session)) {
      throw new ForbiddenError(session.loginUnknown ? CHOOSE_PASSWORD_TO_DELETE : SIGN_IN_AGAIN);
    }
    const op = kv.atomic().check(password);
    if (isAdmin(entry.value)) {
      const other = await otherAdmin(kv, user.id);
      if (!other) throw new ForbiddenError(LAST_ADMIN);
      op.check(other);
    }
    deleteUserOps(op, entry as Deno.KvEntry<User>);
    deleteOnboardingOps(op, user.id);
    const now = Date.now();
    const notice = deletedNoticeOps(op, entry.value, { appUrl: services.config.appUrl, now });
    const job: DeletionJob = {
      userId: user.id,
      startedAt: new Date(now).toISOString(),
      done: [],
      leaseUntil: new Date(now + DELETION_LEASE_MS).toISOString(),
    };
    op.set(jobKey(user.id), job);
    if (!(await op.commit()).ok) return false;
    mailId = notice;
    return true;
  }, RETRY_BUDGET_MS);
  if (mailId) deliverSoon(services, mailId);
  services.background.start(log, "account deletion left to its job", async () => {
    try {
      const job = await kv.get<DeletionJob>(jobKey(user.id));
      // Its first pass only: the second is the cron's, once in-flight writes have landed.
      if (job.value && !job.value.secondPass) await runJob(services, job as Deno.KvEntry<DeletionJob>);
    } catch (error) {
      // The account is gone and the person was told so: the cron finishes the job once its lease runs out.
      log.error("account deletion left to its job", { userId: user.id, error: String(error) });
    }
  });
}

/** Thrown by a step's `renew` when another process took the job over: the step stops, and so does its runner. */
class DeletionTakenOver extends Error {
  override name = "DeletionTakenOver";
}

/**
 * Runs the steps of `entry`'s job not done yet, noting each as done (and renewing the lease until `clock()` +
 * `DELETION_LEASE_MS`, `clock` in ms) with a write checked against the job as last written; a step renews it the same
 * way after each batch (`DeletionStep`). Stops when another process took the job over. When all are done after the
 * first pass, it sets the job for the second (`secondPass`, no step done, its lease until `DELETION_SWEEP_AFTER_MS`
 * from now, for the cron); after the second, it deletes the job.
 */
async function runJob(
  { kv, files }: DeletionServices,
  entry: Deno.KvEntry<DeletionJob>,
  clock: () => number = Date.now,
): Promise<void> {
  let current = entry;
  const write = async (done: string[]) => {
    const next: DeletionJob = {
      ...current.value,
      done,
      leaseUntil: new Date(clock() + DELETION_LEASE_MS).toISOString(),
    };
    const result = await kv.atomic().check(current).set(current.key, next).commit();
    if (!result.ok) throw new DeletionTakenOver();
    current = { ...current, value: next, versionstamp: result.versionstamp };
  };
  try {
    for (const step of DELETION_STEPS) {
      if (current.value.done.includes(step.name)) continue;
      await step.run(kv, current.value.userId, files, () => write(current.value.done));
      await write([...current.value.done, step.name]);
    }
  } catch (error) {
    if (error instanceof DeletionTakenOver) return;
    throw error;
  }
  if (current.value.secondPass) {
    await kv.atomic().check(current).delete(current.key).commit();
    return;
  }
  const second: DeletionJob = {
    ...current.value,
    done: [],
    leaseUntil: new Date(clock() + DELETION_SWEEP_AFTER_MS).toISOString(),
    secondPass: true,
  };
  await kv.atomic().check(current).set(current.key, second).commit();
}

/**
 * Finishes every deletion job whose lease ran out at `now` (its process died or stalled, or its second pass is due):
 * claims each with a checked write, its lease counted from the claim (`clock`, or `now` when later), then runs its
 * remaining steps, renewing its lease from `clock` (ms; the real one, a test's own). A job whose step throws is logged with its person's id and left for the next run (its lease runs out
 * again), and the jobs after it still run: one person's failing cascade never holds up another's. Returns how many
 * first passes it took over (`resumed`), how many second passes it ran (`swept`), and how many of either stopped at a
 * failing step (`failed`).
 */
export async function resumeAccountDeletions(
  services: DeletionServices,
  now = new Date(),
  clock: () => number = Date.now,
): Promise<{ resumed: number; swept: number; failed: number }> {
  const { kv, log } = services;
  let resumed = 0;
  let swept = 0;
  let failed = 0;
  for await (const entry of kv.list<DeletionJob>({ prefix: ["account_deletions"] })) {
    if (entry.value.leaseUntil > now.toISOString()) continue;
    // From the claim, not the run's start: a claim taken after a long cascade of the run still holds its whole lease.
    const claimed: DeletionJob = {
      ...entry.value,
      leaseUntil: new Date(Math.max(now.getTime(), clock()) + DELETION_LEASE_MS).toISOString(),
    };
    const result = await kv.atomic().check(entry).set(entry.key, claimed).commit();
    if (!result.ok) continue;
    if (claimed.secondPass) swept++;
    else resumed++;
    try {
      await runJob(services, { key: entry.key, value: claimed, versionstamp: result.versionstamp }, clock);
    } catch (error) {
      failed++;
      log.error("account deletion step failed; the next run tries again", {
        userId: entry.value.userId,
        error: String(error),
      });
    }
  }
  return { resumed, swept, failed };
}

/**
 * The `account-deletions` job: every 5 minutes, finishes the deletions whose process died and runs the second passes
 * due (`resumeAccountDeletions`).
 */
export const accountDeletionsJob: Job = {
  name: "account-deletions",
  schedule: "*/5 * * * *",
  run: (ctx) => resumeAccountDeletions(ctx, ctx.now),
};
