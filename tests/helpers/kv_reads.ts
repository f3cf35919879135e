/**
 * A KV that records what is read through it, for tests that a page or a function reads only what it shows (counts of
 * reads, never timings): the keys of every `get` and `getMany`, every `list` with its options and how many entries it
 * yielded, how many entries the lists yielded in all, and how many `get` and `getMany` calls were in flight at once at most (reads made together, not one
 * after another). Everything else passes through.
 */

/** What was read through a `recordingReads` KV, in order. */
export interface KvReads {
  keys: Deno.KvKey[];
  lists: { selector: Deno.KvListSelector; options: Deno.KvListOptions; listed: number }[];
  /** Entries the lists yielded, in all. */
  listed: number;
  maxInFlight: number;
}

/** An empty record of reads. */
export function kvReads(): KvReads {
  return { keys: [], lists: [], listed: 0, maxInFlight: 0 };
}

/** `kv` with its reads recorded into `reads`. */
export function recordingReads(kv: Deno.Kv, reads: KvReads): Deno.Kv {
  let inFlight = 0;
  const tracked = async <T>(read: () => Promise<T>): Promise<T> => {
    reads.maxInFlight = Math.max(reads.maxInFlight, ++inFlight);
    try {
      return await read();
    } finally {
      inFlight--;
    }
  };
  return new Proxy(kv, {
    get(target, property) {
      const value = Reflect.get(target, property, target);
      if (typeof value !== "function") return value;
      if (property === "get") {
        return (key: Deno.KvKey, options?: { consistency?: Deno.KvConsistencyLevel }) => {
          reads.keys.push(key);
          return tracked(() => target.get(key, options));
        };
      }
      if (property === "getMany") {
        return (keys: Deno.KvKey[], options?: { consistency?: Deno.KvConsistencyLevel }) => {
          reads.keys.push(...keys);
          return tracked(() => target.getMany(keys, options));
        };
      }
      if (property === "list") {
        return (selector: Deno.KvListSelector, options: Deno.KvListOptions = {}) => {
          const list = { selector, options, listed: 0 };
          reads.lists.push(list);
          const entries = target.list(selector, options);
          const next = entries.next.bind(entries);
          entries.next = async () => {
            const result = await next();
            if (!result.done) {
              reads.listed++;
              list.listed++;
            }
            return result;
          };
          return entries;
        };
      }
      return value.bind(target);
    },
  });
}
