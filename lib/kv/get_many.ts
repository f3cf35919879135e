/**
 * Reading many keys at once (docs/decisions.md, Background work, "Batched reads"): KV's `getMany` takes at most 10
 * keys, so a read of more is cut into calls of 10, a bounded number of them in flight, and the entries come back in the
 * order of the keys.
 */
import pLimit from "p-limit";

/** The most keys one `kv.getMany` call takes (KV's limit). */
const GET_MANY_KEYS = 10;
/**
 * How many `getMany` calls one read keeps in flight by default (1,280 keys): the largest read a page makes (an admin
 * search's 1,000 people) is one wave, and a read of thousands of keys (a refresh of every owner shown) is not all queued
 * before a request's own reads.
 */
const IN_FLIGHT = 128;

/**
 * The entries of `keys`, in their order (a missing key's entry has value and versionstamp null), read `GET_MANY_KEYS`
 * keys a `getMany` call with at most `inFlight` calls in flight (1 reads them one after another), with `consistency`
 * (KV's, strong unless said). No keys: no call.
 */
export async function getManyChunked<T>(
  kv: Deno.Kv,
  keys: readonly Deno.KvKey[],
  { consistency = "strong", inFlight = IN_FLIGHT }: { consistency?: Deno.KvConsistencyLevel; inFlight?: number } = {},
): Promise<Deno.KvEntryMaybe<T>[]> {
  const chunks: Deno.KvKey[][] = [];
  for (let i = 0; i < keys.length; i += GET_MANY_KEYS) chunks.push(keys.slice(i, i + GET_MANY_KEYS));
  const read = await pLimit(inFlight).map(chunks, (chunk) => kv.getMany<T[]>(chunk, { consistency }));
  return read.flat();
}
