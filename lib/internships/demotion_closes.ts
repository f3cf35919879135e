/**
 * The close of a demoted poster's listings, kept until it is done (docs/decisions.md, Internships, "A poster made a
 * user again"): the write that makes a member or admin a user records the close (`demotionCloseOps`), the request that
 * changed the role runs it at once (`closeDemotedListings`), and the `demotion-closes` job runs it once more when the
 * request's time is past, then drops it: it finishes a close whose request stopped before the end (a process evicted, a
 * request cut off), and closes a listing that a request which read the poster before the demotion posted or opened
 * again after the request's run (a listing's write does not check its poster's role; the read model the close walks
 * may lag another process's write by a second). A write that gives the role back drops the close
 * (`cancelDemotionCloseOps`), and each listing's close checks the record, so nothing closes after the role came back.
 *
 * Keys (owned by this module only): `["demotion_closes", userId]` → `DemotionClose`, from the role's change until the
 * job's run after `REQUEST_MS` (or the person's account deletion).
 */
import type { Job } from "@/lib/jobs/job.ts";
import { closeUnansweredInternships } from "./writes.ts";

/** A close still to do: when the role changed (ISO). */
export interface DemotionClose {
  at: string;
}

/**
 * How long (ms) the job leaves a close to the request that recorded it: longer than a request that read the poster
 * before the demotion may take to commit its listing's write (lost races are tried again for `RETRY_BUDGET_MS`, 30 s).
 */
const REQUEST_MS = 2 * 60_000;

const closeKey = (userId: string): Deno.KvKey => ["demotion_closes", userId];

/** Adds to `op` (the write that makes `userId` a user, at `at`, ISO) the close of their listings nobody else answers. */
export function demotionCloseOps(op: Deno.AtomicOperation, userId: string, at: string): void {
  op.set(closeKey(userId), { at } satisfies DemotionClose);
}

/** Adds to `op` (a write that gives `userId` a posting role again) the end of a close still to do. */
export function cancelDemotionCloseOps(op: Deno.AtomicOperation, userId: string): void {
  op.delete(closeKey(userId));
}

/**
 * Drops the close recorded for `userId`, if any, at their account's deletion (docs/decisions.md, Data rights,
 * "Deletion"), whose `internships` step closes what the close would, and whose second pass what a request wrote
 * meanwhile.
 */
export async function dropDemotionClose(kv: Deno.Kv, userId: string): Promise<void> {
  await kv.delete(closeKey(userId));
}

/**
 * Runs the close recorded for `userId`, if any: closes their listings nobody else answers
 * (`closeUnansweredInternships`, each listing's write checking the record); with `last` (the job's run, once
 * `REQUEST_MS` passed) then drops the record, checked as read (a newer demotion's record stays for its own runs), which
 * the request's own run leaves for the job. Idempotent: two runs at once close each listing once. A close the role came
 * back during stops at the next listing and leaves the rest open.
 * @returns how many listings this run closed.
 * @throws BusyError after 30 s of races lost on one listing (the record stays, and the job goes on later).
 */
export async function closeDemotedListings(
  kv: Deno.Kv,
  userId: string,
  { last = false }: { last?: boolean } = {},
): Promise<number> {
  const entry = await kv.get<DemotionClose>(closeKey(userId));
  if (entry.value === null) return 0;
  const guard = entry as Deno.KvEntry<DemotionClose>;
  const { closed, stopped } = await closeUnansweredInternships(kv, userId, { guard });
  if (last && !stopped) await kv.atomic().check(guard).delete(guard.key).commit();
  return closed;
}

/**
 * The `demotion-closes` job (every 5 minutes): runs each close recorded more than `REQUEST_MS` before a last time and
 * drops it (`closeDemotedListings` with `last`). A close that fails is logged and kept for the next run; the others go
 * on. Counts the `closed` listings.
 */
export const demotionClosesJob: Job = {
  name: "demotion-closes",
  schedule: "*/5 * * * *",
  async run({ kv, log, now }) {
    let closed = 0;
    for await (const { key, value } of kv.list<DemotionClose>({ prefix: ["demotion_closes"] })) {
      if (Date.parse(value.at) > now.getTime() - REQUEST_MS) continue;
      const userId = key[1] as string;
      try {
        closed += await closeDemotedListings(kv, userId, { last: true });
      } catch (error) {
        log.error("demotion close failed; the next run tries again", { userId, error: String(error) });
      }
    }
    return { closed };
  },
};
