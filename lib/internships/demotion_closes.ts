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
 * A recorded close (`recorded_closes.ts`). Keys (owned by this module only): `["demotion_closes", userId]` →
 * `RecordedClose`, from the role's change until the job's run 2 minutes after (or the person's account deletion).
 */
import { BusyError } from "@/lib/errors.ts";
import { recordedCloses } from "./recorded_closes.ts";
import { closeUnansweredInternships } from "./writes.ts";

const closes = recordedCloses({
  prefix: "demotion_closes",
  job: "demotion-closes",
  close: (kv, userId, guard) => closeUnansweredInternships(kv, userId, { guard }),
});

/** Adds to `op` (the write that makes `userId` a user, at `at`, ISO) the close of their listings nobody else answers. */
export const demotionCloseOps = closes.ops;

/** Adds to `op` (a write that gives `userId` a posting role again) the end of a close still to do. */
export const cancelDemotionCloseOps = closes.cancelOps;

/**
 * Drops the close recorded for `userId`, if any, at their account's deletion (docs/decisions.md, Data rights,
 * "Deletion"), whose `internships` step closes what the close would, and whose second pass what a request wrote
 * meanwhile.
 */
export const dropDemotionClose = closes.drop;

/**
 * Runs the close recorded for `userId`, if any: closes their listings nobody else answers
 * (`closeUnansweredInternships`, each listing's write checking the record); with `last` (the job's run) then drops the
 * record (`RecordedCloses.run`). A close the role came back during stops at the next listing and leaves the rest open.
 * @returns how many listings this run closed.
 * @throws BusyError after 30 s of races lost on one listing (the record stays, and the job goes on later).
 */
export const closeDemotedListings = closes.run;

/**
 * Runs the close recorded for `userId` (`closeDemotedListings`) in the request that changed the role, after its write:
 * the role change stands whatever happens here, so a close kept busy by lost races (BusyError) is left to the
 * `demotion-closes` job, which finishes it within minutes (`finishing`).
 * @returns how many listings closed now (0 when `finishing`), and `finishing`.
 * @throws what the close throws but BusyError.
 */
export async function runDemotionClose(kv: Deno.Kv, userId: string): Promise<{ closed: number; finishing: boolean }> {
  try {
    return { closed: await closeDemotedListings(kv, userId), finishing: false };
  } catch (error) {
    if (!(error instanceof BusyError)) throw error;
    return { closed: 0, finishing: true };
  }
}

/** The `demotion-closes` job (every 5 minutes): finishes each close its request left (`RecordedCloses.job`). */
export const demotionClosesJob = closes.job;
