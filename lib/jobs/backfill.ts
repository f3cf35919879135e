/**
 * Whether a one-time backfill job is done (docs/decisions.md, Background work, "Index backfills"): each keeps its
 * progress `{…, done}` under a key of its own, and a read path uses its new index only once it is done. A backfill once
 * done stays done, so each store's answer is kept in the process after it is, and later reads ask nothing.
 */

/** The progress keys seen done, per KV store. */
const seenDone = new WeakMap<Deno.Kv, Set<string>>();

/** Whether the backfill whose progress is kept at `progressKey` in `kv` is done (one `kv.get` until it is). */
export async function backfillDone(kv: Deno.Kv, progressKey: Deno.KvKey): Promise<boolean> {
  const name = JSON.stringify(progressKey);
  if (seenDone.get(kv)?.has(name)) return true;
  const done = (await kv.get<{ done?: boolean }>(progressKey)).value?.done ?? false;
  if (done) seenDone.set(kv, (seenDone.get(kv) ?? new Set()).add(name));
  return done;
}
