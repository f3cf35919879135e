/**
 * The close of the listings a manager who stops answering leaves unanswered (docs/decisions.md, Admin, "Suspension";
 * Data rights, "Deletion"): a verified organization's manager answers the applicants of its listings whose owner does
 * not (a former member, a poster made a user again, a suspended one); once that manager is suspended, or deletes their
 * account, and no other manager of it who is not suspended remains, nobody reads those applications. The suspension's
 * write records the close (`managerCloseOps`), the request that suspended runs it at once (`closeManagedListings`), and
 * the `manager-closes` job runs it once more when the request's time is past, then drops it: it finishes a close whose
 * request stopped before the end (a process evicted, a request cut off). Lifting the suspension drops the close
 * (`cancelManagerCloseOps`), and each listing's close checks the record, so nothing closes after the lift's write; what
 * closed stays closed. An account deletion closes them in its own step (`closeAtManagerDeletion`), before the person is
 * forgotten as a manager.
 *
 * Keys (owned by this module only): `["manager_closes", userId]` → `ManagerClose`, from the suspension's write until
 * the job's run after `REQUEST_MS` (or the lift, or the person's account deletion).
 */
import type { Job } from "@/lib/jobs/job.ts";
import { closeUnansweredOfManager } from "./writes.ts";

/** A close still to do: when the manager was suspended (ISO). */
export interface ManagerClose {
  at: string;
}

/**
 * How long (ms) the job leaves a close to the request that recorded it: longer than that request's run may take (lost
 * races are tried again for `RETRY_BUDGET_MS`, 30 s, a listing).
 */
const REQUEST_MS = 2 * 60_000;

const closeKey = (userId: string): Deno.KvKey => ["manager_closes", userId];

/** Adds to `op` (the write that suspends `userId`, at `at`, ISO) the close of the listings only they answered. */
export function managerCloseOps(op: Deno.AtomicOperation, userId: string, at: string): void {
  op.set(closeKey(userId), { at } satisfies ManagerClose);
}

/** Adds to `op` (the write that lifts `userId`'s suspension) the end of a close still to do. */
export function cancelManagerCloseOps(op: Deno.AtomicOperation, userId: string): void {
  op.delete(closeKey(userId));
}

/**
 * Runs the close recorded for `userId`, if any: closes the listings of the verified organizations they manage that
 * nobody else answers (`closeUnansweredOfManager`, each listing's write checking the record); with `last` (the job's
 * run, once `REQUEST_MS` passed) then drops the record, checked as read (a newer suspension's record stays for its own
 * runs), which the request's own run leaves for the job. Idempotent: two runs at once close each listing once. A close
 * the suspension was lifted during stops at the next listing and leaves the rest open.
 * @returns how many listings this run closed.
 * @throws BusyError after 30 s of races lost on one listing (the record stays, and the job goes on later).
 */
export async function closeManagedListings(
  kv: Deno.Kv,
  userId: string,
  { last = false }: { last?: boolean } = {},
): Promise<number> {
  const entry = await kv.get<ManagerClose>(closeKey(userId));
  if (entry.value === null) return 0;
  const guard = entry as Deno.KvEntry<ManagerClose>;
  const { closed, stopped } = await closeUnansweredOfManager(kv, userId, { guard });
  if (last && !stopped) await kv.atomic().check(guard).delete(guard.key).commit();
  return closed;
}

/**
 * The account deletion's step for a manager (docs/decisions.md, Data rights, "Deletion"), before the `organizations
 * managed` step forgets them: closes the listings of the organizations they manage that nobody else answers
 * (`closeUnansweredOfManager`, `renew` the deletion's lease), then drops a close recorded for them. Idempotent.
 * @throws BusyError after 30 s of races lost on one listing; what `renew` throws.
 */
export async function closeAtManagerDeletion(
  kv: Deno.Kv,
  userId: string,
  renew: () => Promise<void>,
): Promise<void> {
  await closeUnansweredOfManager(kv, userId, { renew });
  await kv.delete(closeKey(userId));
}

/**
 * The `manager-closes` job (every 5 minutes): runs each close recorded more than `REQUEST_MS` before a last time and
 * drops it (`closeManagedListings` with `last`). A close that fails is logged and kept for the next run; the others go
 * on. Counts the `closed` listings.
 */
export const managerClosesJob: Job = {
  name: "manager-closes",
  schedule: "*/5 * * * *",
  async run({ kv, log, now }) {
    let closed = 0;
    for await (const { key, value } of kv.list<ManagerClose>({ prefix: ["manager_closes"] })) {
      if (Date.parse(value.at) > now.getTime() - REQUEST_MS) continue;
      const userId = key[1] as string;
      try {
        closed += await closeManagedListings(kv, userId, { last: true });
      } catch (error) {
        log.error("manager close failed; the next run tries again", { userId, error: String(error) });
      }
    }
    return { closed };
  },
};
