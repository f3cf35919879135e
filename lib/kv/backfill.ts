/**
 * One-time index backfills (docs/decisions.md, Background work, "Index backfills"): a new index over records already
 * stored is kept by every write from then on, and a job indexes the records stored before. `runBackfill` owns the walk
 * every such job makes; a job gives only what differs (`Backfill`: the records it walks, what it writes for one, where
 * its progress is kept). `backfillDone` tells a read path whether a backfill is done, so it may use the new index.
 */

/**
 * What a backfill keeps under its progress key: the key of the last record walked after the prefix (its one part, or
 * its parts for a longer key; null before the first and once done), whether done, and with `Backfill.tally` how many
 * records were walked so far.
 */
export interface BackfillProgress {
  after: Deno.KvKeyPart | Deno.KvKeyPart[] | null;
  indexed?: number;
  done: boolean;
}

/** One backfill: what differs from another. `T` is the value of its records. */
export interface Backfill<T> {
  /** Where its progress (`BackfillProgress`) is kept: fixed for good, as a deployed store has it there. */
  progressKey: Deno.KvKey;
  /** The records it walks, in key order. */
  prefix: Deno.KvKey;
  /** Records listed per round trip (KV lists at most 500 at once). */
  page: number;
  /** Records written per commit, each checked as read (KV allows 100 checks a commit); `page` when not given. */
  perCommit?: number;
  /** Whether the progress keeps `indexed`, how many records were walked so far. */
  tally?: boolean;
  /** Whether `record` needs a write; the others are walked past, neither checked nor written. All when not given. */
  needs?(record: T): boolean;
  /** How many mutations `write` makes for `record`, where it varies: a commit stops short of `MAX_MUTATIONS`. */
  mutations?(record: T): number;
  /**
   * Adds to `op` what `entry` needs written (the index entries); the runner checks the entry in the same `op`. One that
   * reads first (a sequence it takes a number of, checked in `op`) returns a promise, and is given one record a commit
   * (`perCommit` 1) unless what it reads differs per record.
   */
  write(op: Deno.AtomicOperation, entry: Deno.KvEntry<T>): void | Promise<void>;
  /** Adds to `op` what the commit that ends the backfill also does. */
  finish?(op: Deno.AtomicOperation): void;
}

/** How one run goes: `giveWay()` after each commit, and no new page once `until` (`performance.now()` ms) passed. */
export interface BackfillRun {
  giveWay(): Promise<void>;
  until?: number;
}

/** What a run did: records walked past the cursor and records written, in commits that held; whether it is done. */
export interface BackfillCounts {
  read: number;
  written: number;
  done: boolean;
}

/** How long (ms) a run works when not told (`BackfillRun.until`); the next run goes on from its cursor. */
export const BACKFILL_BUDGET_MS = 20_000;

/** The most mutations a commit makes with `Backfill.mutations` (KV allows 1,000), leaving room for the progress. */
const MAX_MUTATIONS = 900;

/** The first records of `page` one commit takes: up to `perCommit` written ones, within `MAX_MUTATIONS`. */
function commitOf<T>(backfill: Backfill<T>, page: Deno.KvEntry<T>[]): { walked: number; writes: Deno.KvEntry<T>[] } {
  const perCommit = backfill.perCommit ?? backfill.page;
  const writes: Deno.KvEntry<T>[] = [];
  let mutations = 0;
  let walked = 0;
  for (const entry of page) {
    if (backfill.needs && !backfill.needs(entry.value)) {
      walked++;
      continue;
    }
    const more = backfill.mutations?.(entry.value) ?? 0;
    if (writes.length === perCommit || (writes.length > 0 && mutations + more > MAX_MUTATIONS)) break;
    writes.push(entry);
    mutations += more;
    walked++;
  }
  return { walked, writes };
}

/**
 * Runs `backfill` once (docs/decisions.md, Background work, "Index backfills"): reads its progress (once done, that
 * one read is all), then lists `page` records after the cursor and commits them, up to `perCommit` written records a
 * commit, each checked as read, with the cursor moved past them in the same commit; the commit that takes a page
 * shorter than `page` also marks it done (and adds `finish`). A commit that loses its race (a record changed
 * meanwhile, and that write indexed it; or another run moved the progress) is not counted, and the progress is read
 * again and the page listed again from its cursor. Gives way after each
 * commit; takes one page at least, then no new page once `until` passed. Safe to run twice at once: every commit is
 * checked against the records and the progress as read, so a run that another overtook reads the progress again and
 * goes on from there (or stops, once done) rather than moving the cursor back. @throws what KV throws.
 */
export async function runBackfill<T>(kv: Deno.Kv, backfill: Backfill<T>, run: BackfillRun): Promise<BackfillCounts> {
  const { prefix, progressKey } = backfill;
  const until = run.until ?? performance.now() + BACKFILL_BUDGET_MS;
  const counts = { read: 0, written: 0, done: false };
  const read = async () => {
    const entry = await kv.get<BackfillProgress>(progressKey);
    return { entry, progress: entry.value ?? { after: null, done: false } };
  };
  let { entry, progress } = await read();
  let pages = 0;
  while (!progress.done && (pages === 0 || performance.now() < until)) {
    const after = progress.after === null ? [] : Array.isArray(progress.after) ? progress.after : [progress.after];
    // A key one part longer than the last record's sorts right after it.
    const selector = after.length ? { prefix, start: [...prefix, ...after, ""] } : { prefix };
    let rest = await Array.fromAsync(kv.list<T>(selector, { limit: backfill.page }));
    const last = rest.length < backfill.page;
    let lost = false;
    do {
      const { walked, writes } = commitOf(backfill, rest);
      const done = last && walked === rest.length;
      const parts = walked ? rest[walked - 1].key.slice(prefix.length) : [];
      const next: BackfillProgress = {
        after: done ? null : parts.length === 1 ? parts[0] : parts,
        ...backfill.tally ? { indexed: (progress.indexed ?? 0) + walked } : {},
        done,
      };
      // Checked against the progress as read too: a run behind another never moves its cursor back or undoes done.
      const op = kv.atomic().check(entry);
      for (const record of writes) await backfill.write(op.check(record), record);
      op.set(progressKey, next);
      if (done) backfill.finish?.(op);
      const committed = await op.commit();
      lost = !committed.ok;
      if (!committed.ok) break;
      counts.read += walked;
      counts.written += writes.length;
      progress = next;
      entry = { key: progressKey, value: next, versionstamp: committed.versionstamp };
      rest = rest.slice(walked);
      await run.giveWay();
    } while (rest.length > 0);
    if (lost) ({ entry, progress } = await read());
    else pages++;
  }
  return { ...counts, done: progress.done };
}

/** The progress keys seen done, per KV store. */
const seenDone = new WeakMap<Deno.Kv, Set<string>>();

/**
 * Whether the backfill whose progress is kept at `progressKey` in `kv` is done (one `kv.get` until it is), for a read
 * path that uses its new index only once it is. A backfill once done stays done, so each store's answer is kept in the
 * process after it is, and later reads ask nothing.
 */
export async function backfillDone(kv: Deno.Kv, progressKey: Deno.KvKey): Promise<boolean> {
  const name = JSON.stringify(progressKey);
  if (seenDone.get(kv)?.has(name)) return true;
  const done = (await kv.get<{ done?: boolean }>(progressKey)).value?.done ?? false;
  if (done) seenDone.set(kv, (seenDone.get(kv) ?? new Set()).add(name));
  return done;
}
