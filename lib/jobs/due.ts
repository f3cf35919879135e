/**
 * Working through a due-time index (docs/decisions.md, Background work, "Claims"): the keys `[prefix, dueAtMs, id]`
 * due at `now`, read in pages, each id handed to `work` (which claims its record, `lib/jobs/lease.ts`), `concurrency`
 * at a time. The e-mail outbox runs on it.
 */

/** Options of `workDue`: the index's first key part, the time (ms), and how many run at once. */
export interface DueOptions {
  prefix: string;
  now: number;
  concurrency: number;
}

/**
 * Calls `work(id)` for every id due at `now` in the index `prefix` (oldest due first), at most `concurrency` at once.
 * Returns how many calls came to each outcome.
 * @throws what `work` throws (the calls already started are waited for first).
 */
export async function workDue<Outcome extends string>(
  kv: Deno.Kv,
  { prefix, now, concurrency }: DueOptions,
  work: (id: string) => Promise<Outcome>,
): Promise<Map<Outcome, number>> {
  const counts = new Map<Outcome, number>();
  const due = kv.list<true>({ prefix: [prefix], end: [prefix, now + 1] }, { batchSize: 200 });
  const running = new Set<Promise<void>>();
  let failure: unknown = null;
  for await (const { key } of due) {
    const one: Promise<void> = work(key[2] as string)
      .then((outcome) => void counts.set(outcome, (counts.get(outcome) ?? 0) + 1))
      .catch((error) => void (failure ??= error))
      .finally(() => running.delete(one));
    running.add(one);
    if (running.size >= concurrency) await Promise.race(running);
    if (failure) break;
  }
  await Promise.all(running);
  if (failure) throw failure;
  return counts;
}
