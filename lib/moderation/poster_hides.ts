/**
 * Hiding a suspended poster's open listings (docs/decisions.md, Admin, "Suspension"): when an admin suspends someone
 * with "Also hide their open listings", the suspension's write records a hide (`posterHideOps`), and
 * `hidePosterListings` rejects each open internship and opportunity of theirs by moderation, as an admin's `reject`
 * does (the audit log's `moderation.decide` in each listing's write), with the note the hide carries; then those that
 * take applications here close (`closeUnansweredInternships`: rejected, their applications are moved by an admin only,
 * not by a verified organization's other managers), so their applicants hear back 15 days later, not after a deadline
 * nobody answers for. The request that suspends runs it at once and leaves it; once its lease ran out the `poster-hides`
 * job runs it a last time and drops it: that finishes a hide whose run stopped, and hides a listing that a request
 * which read the poster before the suspension posted or opened again after the request's run (a listing's write does
 * not check its poster's suspension).
 *
 * Keys (owned by this module only):
 * - `["poster_hides", userId]` → `PosterHide`, from the suspension's write until the job's last run of it (or the
 *   suspension is lifted: `cancelPosterHideOps`); `adminId` null once that admin's account is gone (`forgetHideAdmin`)
 */
import { claim, claimTime, HOLDER, type Lease } from "@/lib/jobs/lease.ts";
import type { Job } from "@/lib/jobs/job.ts";
import { closeUnansweredInternships, moderateInternship } from "@/lib/internships/writes.ts";
import { internshipStore } from "@/lib/internships/store.ts";
import { moderateOpportunity } from "@/lib/opportunities/opportunities.ts";
import { opportunityStore } from "@/lib/opportunities/store.ts";
import { statusOf } from "@/lib/opportunities/schema.ts";
import { type AuditHook, auditOps } from "@/lib/admin_log/admin_log.ts";
import { NotFoundError } from "@/lib/errors.ts";
import { RaceLost, RETRY_BUDGET_MS, retrying } from "@/lib/kv/retry.ts";
import type { User } from "@/lib/users/users.ts";
import { moderationOf } from "./moderation.ts";

/** A hide still to do: who asked it (null once their account is gone), the note each listing gets, its lease. */
export interface PosterHide {
  adminId: string | null;
  /** The note to the owner on each hidden listing, in the owner's language (they read it when the suspension ends). */
  note: string;
  lease: Lease | null;
}

/**
 * How long a run holds a hide (ms); renewed after every `BATCH` listings. Longer than a request that read the poster
 * before the suspension may take to commit its listing's write (lost races are tried again for 30 s), so the job's last
 * run comes after it.
 */
const LEASE_MS = 2 * 60_000;
/** Listings hidden between two renewals of the lease (each is one write). */
const BATCH = 20;

const hideKey = (userId: string): Deno.KvKey => ["poster_hides", userId];

/**
 * Adds to `op` (the suspension's write) the hide of `userId`'s open listings, leased to this process for the request
 * that runs it right after the commit (`hidePosterListings`).
 */
export function posterHideOps(
  op: Deno.AtomicOperation,
  { userId, adminId, note }: { userId: string; adminId: string; note: string },
): void {
  const hide: PosterHide = { adminId, note, lease: { holder: HOLDER, until: Date.now() + LEASE_MS } };
  op.set(hideKey(userId), hide);
}

/** Adds to `op` (the lifting's write) the end of a hide of `userId`'s listings still under way: the rest stay listed. */
export function cancelPosterHideOps(op: Deno.AtomicOperation, userId: string): void {
  op.delete(hideKey(userId));
}

/**
 * Whether a hide of `userId`'s listings is still to do (recorded and not yet dropped by the job's last run): the
 * suspension's close leaves their own listings to it (`manager_closes.ts`), lest a listing closed first, gone to the
 * archive, escape the hide.
 */
export async function hidePending(kv: Deno.Kv, userId: string): Promise<boolean> {
  return (await kv.get(hideKey(userId))).versionstamp !== null;
}

/**
 * Forgets admin `adminId` in the hides still to do (their account's deletion, docs/decisions.md, Data rights): each
 * hide they asked for is kept with `adminId` null, so the listings it still hides are logged under no admin. One write
 * per hide, checked against it as read (read again after a lost race, `retrying`); a run under way finds its hide
 * changed and stops, and the `poster-hides` job finishes it once its lease runs out. Idempotent. Returns how many hides
 * forgot them.
 * @throws BusyError when one hide kept changing for 30 s.
 */
export async function forgetHideAdmin(kv: Deno.Kv, adminId: string): Promise<number> {
  let forgotten = 0;
  for await (const { key, value } of kv.list<PosterHide>({ prefix: ["poster_hides"] })) {
    if (value.adminId !== adminId) continue;
    await retrying(async () => {
      const entry = await kv.get<PosterHide>(key);
      if (entry.value?.adminId !== adminId) return true;
      const forgot = await kv.atomic().check(entry).set(key, { ...entry.value, adminId: null }).commit();
      if (forgot.ok) forgotten++;
      return forgot.ok;
    }, RETRY_BUDGET_MS);
  }
  return forgotten;
}

/** `userId`'s open internships and opportunities not rejected yet, as ids by kind (read from the read models). */
async function openListingsOf(kv: Deno.Kv, userId: string) {
  const [internships, opportunities] = await Promise.all([internshipStore(kv), opportunityStore(kv)]);
  const internshipRecords = await internships.model.recordsOf(internships.model.columns.ownerOrder(userId));
  const opportunityRecords = await opportunities.model.recordsOf(opportunities.model.columns.ownerOrder(userId));
  return [
    ...internshipRecords
      .filter((record) => !record.deletedAt && moderationOf(record).status !== "rejected")
      .map((record) => ({ kind: "internship" as const, id: record.id })),
    ...opportunityRecords
      .filter((record) => statusOf(record) !== "rejected" && moderationOf(record).status !== "rejected")
      .map((record) => ({ kind: "opportunity" as const, id: record.id })),
  ];
}

/**
 * Runs the hide of `userId`'s open listings, when one is recorded and this process may hold it (its own lease, or a
 * lease that ran out at `now`, ms): rejects each open internship and opportunity of theirs by moderation with the
 * hide's note, one write each with the audit log's `moderation.decide` (`reject`) in the name of the admin who
 * suspended them and a check of the hide (`hideListing`), renewing the lease after every 20; then, the hide still
 * standing (its lease renewed), closes their internships that take applications here, which nobody but an admin answers
 * once rejected (`closeUnansweredInternships`, each write checking the hide: `closedAt` now and the end recorded for
 * the applicants' due times, up to 20 of a chunk a write); with `last` (the job's run) then deletes the hide, which the
 * request's run leaves, its lease running out, for the job. Stops early, leaving the rest to the holder, when another
 * process took the hide over or the suspension was lifted meanwhile (at once: no listing is hidden after the lift's
 * write). A listing gone meanwhile is skipped. Returns how many listings this run hid.
 * @throws BusyError after 30 s of races lost on one listing (the hide stays, and the `poster-hides` job goes on later).
 */
export async function hidePosterListings(
  kv: Deno.Kv,
  { userId, now, last = false }: { userId: string; now: number; last?: boolean },
): Promise<number> {
  const entry = await kv.get<PosterHide>(hideKey(userId));
  if (!entry.value) return 0;
  let held: Deno.KvEntry<PosterHide> | null = entry.value.lease?.holder === HOLDER
    ? entry as Deno.KvEntry<PosterHide>
    : await claim(kv, entry, { now: claimTime(now), leaseMs: LEASE_MS });
  if (!held) return 0;
  const { adminId, note } = held.value;
  const admin = { id: adminId ?? "", role: "admin", emailVerified: true } as User;
  let hidden = 0;
  for (const [i, listing] of (await openListingsOf(kv, userId)).entries()) {
    if (i > 0 && i % BATCH === 0) {
      held = await renew(kv, held);
      if (!held) return hidden;
    }
    const outcome = await hideListing(kv, { listing, held, admin, note });
    if (outcome === "lifted") return hidden;
    if (outcome === "hidden") hidden++;
  }
  held = await renew(kv, held);
  if (!held) return hidden;
  const { stopped } = await closeUnansweredInternships(kv, userId, { guard: held });
  if (last && !stopped) await kv.atomic().check(held).delete(held.key).commit();
  return hidden;
}

/**
 * Rejects one `listing` under the hide `held` (as read), in one write with the audit log's entry and a check of the
 * hide, so a lift (`cancelPosterHideOps`) stops it at once. The write gives up on a lost race (`onLostRace`), and the
 * hide is read again before another try (`retrying`). @returns "hidden", "gone" for a listing gone meanwhile, or
 * "lifted" when the hide changed (lifted, or taken over).
 * @throws BusyError `PLATFORM_REFUSALS.busy` after 30 s of races lost by the listing's write while the hide stands.
 */
async function hideListing(
  kv: Deno.Kv,
  { listing, held, admin, note }: {
    listing: { kind: "internship" | "opportunity"; id: string };
    held: Deno.KvEntry<PosterHide>;
    admin: User;
    note: string;
  },
): Promise<"hidden" | "gone" | "lifted"> {
  const logged = auditOps({
    adminId: held.value.adminId,
    action: "moderation.decide",
    targetKind: listing.kind,
    summary: "reject",
  });
  const audit: AuditHook = (op, id, summary) => {
    logged(op, id, summary);
    op.check(held);
  };
  const write = {
    id: listing.id,
    decision: "reject",
    note,
    notify: false,
    removedBy: "suspension",
    audit,
    onLostRace: "give-up",
  } as const;
  let outcome: "hidden" | "gone" | "lifted" = "hidden";
  await retrying(async () => {
    try {
      if (listing.kind === "internship") await moderateInternship(kv, { ...write, admin });
      else await moderateOpportunity(kv, write);
      return true;
    } catch (error) {
      if (error instanceof NotFoundError) outcome = "gone";
      else if (!(error instanceof RaceLost)) throw error;
      else if ((await kv.get(held.key)).versionstamp === held.versionstamp) return false;
      else outcome = "lifted";
      return true;
    }
  }, RETRY_BUDGET_MS);
  return outcome;
}

/** `held` with its lease renewed, or null when it changed meanwhile (taken over, or lifted with the suspension). */
async function renew(kv: Deno.Kv, held: Deno.KvEntry<PosterHide>): Promise<Deno.KvEntry<PosterHide> | null> {
  const value = { ...held.value, lease: { holder: HOLDER, until: Date.now() + LEASE_MS } };
  const result = await kv.atomic().check(held).set(held.key, value).commit();
  return result.ok ? { key: held.key, value, versionstamp: result.versionstamp } : null;
}

/**
 * The `poster-hides` job (every 5 minutes): runs each hide whose lease ran out a last time and drops it
 * (`hidePosterListings` with `last`). A hide that fails is logged and kept for the next run; the others go on. Counts
 * `hidden` listings.
 */
export const posterHidesJob: Job = {
  name: "poster-hides",
  schedule: "*/5 * * * *",
  async run({ kv, log, now }) {
    let hidden = 0;
    for await (const { key, value } of kv.list<PosterHide>({ prefix: ["poster_hides"] })) {
      if (value.lease && value.lease.until > now.getTime()) continue;
      const userId = key[1] as string;
      try {
        hidden += await hidePosterListings(kv, { userId, now: now.getTime(), last: true });
      } catch (error) {
        log.error("listing hide failed; the next run tries again", { userId, error: String(error) });
      }
    }
    return { hidden };
  },
};
