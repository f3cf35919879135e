/**
 * Claiming work records (docs/decisions.md, Background work). A job that does something outside KV for a record
 * (sends a mail, asks the payment gateway) first claims the record: one atomic write, checked against the record as
 * read, that puts a lease `{holder, until}` on it. While the lease lives nobody else claims the record, so two
 * processes never do it twice; a process that dies leaves a lease that runs out, and the next run takes the record
 * over. The job then records what it did with `settle`: its write is checked against the claim, so it commits only
 * while the claim is still the job's own, and the same write drops the lease.
 *
 * Work that is only KV writes needs no lease: a write checked against the record as read, which also marks the
 * record done, already happens once.
 */

/** Who holds a record and until when (ms since the epoch). */
export interface Lease {
  holder: string;
  until: number;
}

/** A record a job can claim: its `lease` is null (or absent) while nobody holds it. */
export interface Claimable {
  lease?: Lease | null;
}

/** This process's name in the leases it writes. */
export const HOLDER = crypto.randomUUID();

/** True when `record` carries a lease that has not run out at `now` (ms). */
export function isLeased(record: Claimable, now: number): boolean {
  return record.lease != null && record.lease.until > now;
}

/**
 * The time a claim taken now counts from (ms since the epoch): the clock, or `now` when that is later (a run at a time
 * of the caller's choosing, as tests make). A run's own time only chooses what is due; its claims count from the moment
 * they are taken, so a lease lasts its full length however late in a long run it is taken, and a second runner never
 * finds it already run out while the first still works on the record.
 */
export function claimTime(now: number): number {
  return Math.max(now, Date.now());
}

/**
 * Options of `claim`: the time it is (ms since the epoch; `claimTime(now)` in a run, read as the claim is taken) and
 * how long the lease lasts (ms).
 */
export interface ClaimOptions {
  now: number;
  leaseMs: number;
}

/**
 * Claims `entry` (a record as read) for `leaseMs`: returns the record as claimed (with its new versionstamp, to hand
 * to `settle`), or null when the record is gone, someone holds a live lease on it, or it changed since it was read
 * (someone else claimed or changed it first).
 */
export async function claim<T extends Claimable>(
  kv: Deno.Kv,
  entry: Deno.KvEntryMaybe<T>,
  { now, leaseMs }: ClaimOptions,
): Promise<Deno.KvEntry<T> | null> {
  if (entry.value === null || isLeased(entry.value, now)) return null;
  const value: T = { ...entry.value, lease: { holder: HOLDER, until: now + leaseMs } };
  const result = await kv.atomic().check(entry).set(entry.key, value).commit();
  return result.ok ? { key: entry.key, value, versionstamp: result.versionstamp } : null;
}

/**
 * Claims each of `entries` (records as read, at most 100: KV's checks per write) as `claim` does, in one atomic write
 * checked against every one; when that write loses a race, each is claimed on its own, so only the ones taken
 * meanwhile are missed. Returns, in the order given, each record as claimed, or null where it was not (leased, or
 * changed since it was read).
 */
export async function claimEach<T extends Claimable>(
  kv: Deno.Kv,
  entries: Deno.KvEntry<T>[],
  { now, leaseMs }: ClaimOptions,
): Promise<(Deno.KvEntry<T> | null)[]> {
  const lease = { holder: HOLDER, until: now + leaseMs };
  const free = entries.filter((entry) => !isLeased(entry.value, now));
  const op = kv.atomic();
  for (const entry of free) op.check(entry).set(entry.key, { ...entry.value, lease });
  const result = await op.commit();
  if (result.ok) {
    return entries.map((entry) =>
      free.includes(entry)
        ? { key: entry.key, value: { ...entry.value, lease }, versionstamp: result.versionstamp }
        : null
    );
  }
  const claimed: (Deno.KvEntry<T> | null)[] = [];
  for (const entry of entries) claimed.push(await claim(kv, entry, { now, leaseMs }));
  return claimed;
}

/**
 * Records what was done with a claimed record: `write` adds the mutations (the record's new value, with `lease: null`,
 * and its index changes) to one atomic write checked against the claim. Returns false when the claim was lost (the
 * lease ran out and another process took the record over), and then nothing is written.
 */
export async function settle<T extends Claimable>(
  kv: Deno.Kv,
  claimed: Deno.KvEntry<T>,
  write: (op: Deno.AtomicOperation) => void,
): Promise<boolean> {
  const op = kv.atomic().check(claimed);
  write(op);
  return (await op.commit()).ok;
}

/**
 * Records what was done with each of `settlements` (claimed records, at most 100, each with the mutations `settle`
 * would add) in one atomic write checked against every claim; when that write fails (a claim was lost), each is
 * settled on its own, so only the lost ones are not written. Returns, in the order given, whether each was recorded.
 */
export async function settleEach<T extends Claimable>(
  kv: Deno.Kv,
  settlements: { claimed: Deno.KvEntry<T>; write: (op: Deno.AtomicOperation) => void }[],
): Promise<boolean[]> {
  const op = kv.atomic();
  for (const { claimed, write } of settlements) {
    op.check(claimed);
    write(op);
  }
  if ((await op.commit()).ok) return settlements.map(() => true);
  const recorded: boolean[] = [];
  for (const { claimed, write } of settlements) recorded.push(await settle(kv, claimed, write));
  return recorded;
}
