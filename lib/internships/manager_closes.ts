/**
 * The close of the listings a suspended person, or a manager who stops answering, leaves unanswered (docs/decisions.md,
 * Admin, "Suspension"; Data rights, "Deletion"): a suspended poster answers nobody, so their own open listings that
 * take applications here close unless another manager of their verified organization answers them
 * (`closeUnansweredInternships`; with the hide, the hide closes them once rejected, and this close leaves them to it);
 * and a verified organization's manager answers the applicants of its listings whose owner does not (a former member,
 * a poster made a user again, a suspended one); once that manager is suspended, or deletes their account, and no other
 * manager of it who is not suspended remains, nobody reads those applications. The suspension's write records the
 * close (`managerCloseOps`), the request that suspended runs it at once (`closeManagedListings`), and
 * the `manager-closes` job runs it once more when the request's time is past, then drops it: it finishes a close whose
 * request stopped before the end (a process evicted, a request cut off). Lifting the suspension drops the close
 * (`cancelManagerCloseOps`), and each listing's close checks the record, so nothing closes after the lift's write; what
 * closed stays closed. An account deletion closes them in its own step (`closeAtManagerDeletion`), before the person is
 * forgotten as a manager.
 *
 * A recorded close (`recorded_closes.ts`). Keys (owned by this module only): `["manager_closes", userId]` →
 * `RecordedClose`, from the suspension's write until the job's run 2 minutes after (or the lift, or the person's
 * account deletion).
 */
import { recordedCloses } from "./recorded_closes.ts";
import { closeUnansweredInternships, closeUnansweredOfManager } from "./writes.ts";
import { hidePending } from "@/lib/moderation/poster_hides.ts";

const closes = recordedCloses({
  prefix: "manager_closes",
  job: "manager-closes",
  async close(kv, userId, guard) {
    // Their own listings, unless a hide of them is still to do, which rejects them and then closes them itself.
    const own = await hidePending(kv, userId)
      ? { closed: 0, stopped: false }
      : await closeUnansweredInternships(kv, userId, { guard });
    if (own.stopped) return own;
    const managed = await closeUnansweredOfManager(kv, userId, { guard });
    return { closed: own.closed + managed.closed, stopped: managed.stopped };
  },
});

/** Adds to `op` (the write that suspends `userId`, at `at`, ISO) the close of the listings only they answered. */
export const managerCloseOps = closes.ops;

/** Adds to `op` (the write that lifts `userId`'s suspension) the end of a close still to do. */
export const cancelManagerCloseOps = closes.cancelOps;

/**
 * Runs the close recorded for `userId`, if any: closes their own listings nobody else answers, unless a hide of them is
 * still to do (`closeUnansweredInternships`), then the listings of the verified organizations they manage that nobody
 * else answers (`closeUnansweredOfManager`), each listing's write checking the record; with `last` (the job's
 * run) then drops the record (`RecordedCloses.run`). A close the suspension was lifted during stops at the next
 * listing and leaves the rest open.
 * @returns how many listings this run closed.
 * @throws BusyError after 30 s of races lost on one listing (the record stays, and the job goes on later).
 */
export const closeManagedListings = closes.run;

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
  await closes.drop(kv, userId);
}

/** The `manager-closes` job (every 5 minutes): finishes each close its request left (`RecordedCloses.job`). */
export const managerClosesJob = closes.job;
