/**
 * A close of listings that must finish even when the request that caused it is cut off (docs/decisions.md,
 * Internships, "A poster made a user again"; Admin, "Suspension"): the write that causes it records the close
 * (`ops`), the request runs it at once (`run`), and a job every 5 minutes runs it once more when the request's time
 * is past, then drops it; a write that undoes the cause drops it (`cancelOps`), and each listing's close checks the
 * record, so nothing closes after that write. The demotion's close (`demotion_closes.ts`) and the close of a
 * suspended manager's listings (`manager_closes.ts`) are each one of these.
 *
 * Keys: `[prefix, userId]` → `RecordedClose`, from the causing write until the job's run after `REQUEST_MS` (or the
 * undoing write, or the person's account deletion), owned by the module that makes the close.
 */
import type { Job } from "@/lib/jobs/job.ts";

/** A close still to do: when its cause was written (ISO). */
export interface RecordedClose {
  at: string;
}

/**
 * How long (ms) the job leaves a close to the request that recorded it: longer than a request that read the person
 * before the causing write may take to commit its listing's write, or its own run take (lost races are tried again for
 * `RETRY_BUDGET_MS`, 30 s).
 */
const REQUEST_MS = 2 * 60_000;

/** One kind of recorded close: its record's writes, its run and its job. */
export interface RecordedCloses {
  /** Adds to `op` (the causing write for `userId`, at `at`, ISO) the close's record. */
  ops(op: Deno.AtomicOperation, userId: string, at: string): void;
  /** Adds to `op` (a write that undoes the cause) the end of a close still to do. */
  cancelOps(op: Deno.AtomicOperation, userId: string): void;
  /** Drops the record for `userId`, if any (their account's deletion closes in a step of its own). */
  drop(kv: Deno.Kv, userId: string): Promise<void>;
  /**
   * Runs the close recorded for `userId`, if any, each listing's write checking the record; with `last` (the job's
   * run, once `REQUEST_MS` passed) then drops the record, checked as read (a newer cause's record stays for its own
   * runs), which the request's own run leaves for the job. Idempotent: two runs at once close each listing once. A
   * close whose cause was undone meanwhile stops at the next listing and leaves the rest open.
   * @returns how many listings this run closed.
   * @throws BusyError after 30 s of races lost on one listing (the record stays, and the job goes on later).
   */
  run(kv: Deno.Kv, userId: string, options?: { last?: boolean }): Promise<number>;
  /**
   * The job (every 5 minutes): runs each close recorded more than `REQUEST_MS` before a last time and drops it (`run`
   * with `last`). A close that fails is logged and kept for the next run; the others go on. Counts the `closed`
   * listings.
   */
  job: Job;
}

/**
 * The recorded close kept under `prefix`, run by `close` (closing `userId`'s listings that the cause leaves
 * unanswered, each write checking `guard`, stopping once it changed) and finished by the job named `job`.
 */
export function recordedCloses({ prefix, job, close }: {
  prefix: string;
  job: string;
  close: (
    kv: Deno.Kv,
    userId: string,
    guard: Deno.KvEntry<RecordedClose>,
  ) => Promise<{ closed: number; stopped: boolean }>;
}): RecordedCloses {
  const closeKey = (userId: string): Deno.KvKey => [prefix, userId];
  const run = async (kv: Deno.Kv, userId: string, { last = false }: { last?: boolean } = {}) => {
    const entry = await kv.get<RecordedClose>(closeKey(userId));
    if (entry.value === null) return 0;
    const guard = entry as Deno.KvEntry<RecordedClose>;
    const { closed, stopped } = await close(kv, userId, guard);
    if (last && !stopped) await kv.atomic().check(guard).delete(guard.key).commit();
    return closed;
  };
  return {
    ops: (op, userId, at) => void op.set(closeKey(userId), { at } satisfies RecordedClose),
    cancelOps: (op, userId) => void op.delete(closeKey(userId)),
    drop: (kv, userId) => kv.delete(closeKey(userId)),
    run,
    job: {
      name: job,
      schedule: "*/5 * * * *",
      async run({ kv, log, now }) {
        let closed = 0;
        for await (const { key, value } of kv.list<RecordedClose>({ prefix: [prefix] })) {
          if (Date.parse(value.at) > now.getTime() - REQUEST_MS) continue;
          const userId = key[1] as string;
          try {
            closed += await run(kv, userId, { last: true });
          } catch (error) {
            log.error(`${job}: a close failed; the next run tries again`, { userId, error: String(error) });
          }
        }
        return { closed };
      },
    },
  };
}
