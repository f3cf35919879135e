/**
 * The close of a demoted poster's listings, kept until it is done (docs/decisions.md, Internships, "A poster made a
 * user again"): the write that makes a member or admin a user records the close (`demotionCloseOps`), the request that
 * changed the role runs it at once (`closeDemotedListings`), and the `demotion-closes` job finishes one whose request
 * stopped before the end (a process evicted, a request cut off). A write that gives the role back drops the close
 * (`cancelDemotionCloseOps`), and each listing's close checks the record, so nothing closes after the role came back.
 *
 * Keys (owned by this module only): `["demotion_closes", userId]` → `DemotionClose`, from the role's change until every
 * listing it closes is closed.
 */
import type { Job } from "@/lib/jobs/job.ts";
import { closeUnansweredInternships } from "./writes.ts";

/** A close still to do: when the role changed (ISO). */
export interface DemotionClose {
  at: string;
}

/** How long (ms) the job leaves a close to the request that recorded it before taking it over. */
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
 * Runs the close recorded for `userId`, if any: closes their listings nobody else answers
 * (`closeUnansweredInternships`, each listing's write checking the record), then drops the record, checked as read (a
 * newer demotion's record stays for its own run). Idempotent: two runs at once close each listing once. A close the role
 * came back during stops at the next listing and leaves the rest open.
 * @returns how many listings this run closed.
 * @throws BusyError after 30 s of races lost on one listing (the record stays, and the job goes on later).
 */
export async function closeDemotedListings(kv: Deno.Kv, userId: string): Promise<number> {
  const entry = await kv.get<DemotionClose>(closeKey(userId));
  if (entry.value === null) return 0;
  const guard = entry as Deno.KvEntry<DemotionClose>;
  const { closed, stopped } = await closeUnansweredInternships(kv, userId, { guard });
  if (!stopped) await kv.atomic().check(guard).delete(guard.key).commit();
  return closed;
}

/**
 * The `demotion-closes` job (every 5 minutes): finishes each close its request left (recorded more than
 * `REQUEST_MS` before). Counts the `closed` listings.
 */
export const demotionClosesJob: Job = {
  name: "demotion-closes",
  schedule: "*/5 * * * *",
  async run({ kv, now }) {
    let closed = 0;
    for await (const { key, value } of kv.list<DemotionClose>({ prefix: ["demotion_closes"] })) {
      if (Date.parse(value.at) > now.getTime() - REQUEST_MS) continue;
      closed += await closeDemotedListings(kv, key[1] as string);
    }
    return { closed };
  },
};
