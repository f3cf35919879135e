/**
 * Returning the heap to the operating system after the start (docs/performance.md).
 *
 * Loading the read models decodes every index chunk: most of what that allocates is garbage a
 * moment later, but V8 keeps the heap it grew to (young generation at its largest, old-generation
 * pages half empty) and does not shrink it while the server runs. One memory-reducing collection
 * right after the load gives that memory back: at 100,000 internships the RSS after start goes
 * from ~240 MB to ~170 MB.
 *
 * V8 offers such a collection only through `gc()`, which needs `--expose-gc` when a context is
 * created. The flag is set for one new `node:vm` context, whose `gc` is kept, and unset again, so
 * the platform's own global scope never gets a `gc`.
 *
 * While the server runs, `GrowthCollection` runs a full collection when the heap and the buffers in use grew by much
 * since the last one, once no request has come for a quiet while (docs/performance.md, Scale, "Collection on growth").
 */
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

type CollectGarbage = (options: { type: "major"; execution: "sync"; flavor: "last-resort" | "regular" }) => void;

let collector: CollectGarbage | null | undefined;

/** V8's `gc` of a context created with `--expose-gc`, or null where flags or contexts are refused. */
function exposeGarbageCollector(): CollectGarbage | null {
  try {
    setFlagsFromString("--expose-gc");
    const gc = runInNewContext("gc");
    return typeof gc === "function" ? gc : null;
  } catch {
    return null;
  } finally {
    try {
      setFlagsFromString("--no-expose-gc");
    } catch {
      // flags cannot be set here; nothing was changed
    }
  }
}

/**
 * Runs V8's memory-reducing full collection (compacting, shrinking the young generation, giving
 * free pages back); blocks for its duration (~0.1 s at 100,000 internships). Returns false where
 * the runtime does not allow it (nothing is done then).
 */
export function compactHeap(): boolean {
  const gc = collector === undefined ? (collector = exposeGarbageCollector()) : collector;
  if (!gc) return false;
  gc({ type: "major", execution: "sync", flavor: "last-resort" });
  return true;
}

/**
 * Runs V8's ordinary full collection (not memory-reducing); blocks for its duration (0.1-0.4 s with the archive of
 * 900,000 listings in memory). Returns false where the runtime does not allow it.
 */
export function collectGarbage(): boolean {
  const gc = collector === undefined ? (collector = exposeGarbageCollector()) : collector;
  if (!gc) return false;
  gc({ type: "major", execution: "sync", flavor: "regular" });
  return true;
}

/** The bytes the V8 heap and the buffers (`ArrayBuffer`s) of this process use now, garbage included. */
export function usedBytes(): number {
  const { heapUsed, external } = Deno.memoryUsage();
  return heapUsed + external;
}

/** When `GrowthCollection` collects: the growth that calls for it, the quiet it waits for, how often at most. */
export interface GrowthOptions {
  /** Bytes the heap and buffers in use may grow by since the last collection (or the first look) before one runs. */
  growthBytes: number;
  /** At most one look at the memory in use per this many ms. */
  lookEveryMs: number;
  /** At least this many ms between two collections. */
  collectEveryMs: number;
  /** A collection runs only after this many ms in which no request was answered or in flight. */
  quietMs: number;
}

/**
 * Full collections when the memory in use grew by `growthBytes` since the last one: V8 leaves a heap grown to several
 * times its live data and lets some 64 MB of freed buffers pile up before it collects them, and all of it stays in the
 * process's RSS meanwhile (at 1,000,000 listings about 125 MB after 200 random `includeClosed` filters). A full
 * collection stops the process for 0.1-0.4 s at that size, so it waits for a quiet moment: under steady traffic V8's
 * own collections (short, mostly of the young generation) keep the memory, and a forced one would stop every request
 * that arrives meanwhile (at 200 requests a second, p95 14 → 53 ms). `afterRequests` is called when the last request
 * in flight was answered; it looks at most every `lookEveryMs` and, past the growth and at most every
 * `collectEveryMs`, starts as background work (`start`) a wait for `quietMs` without a request answered or in flight
 * (under steady traffic it keeps waiting), then the collection. `measure`, `collect`, `now` and `sleep` are
 * `usedBytes`, `collectGarbage`, the monotonic clock and a timer unless given (tests).
 */
export class GrowthCollection {
  #baseline = -1;
  #lookedAt = -Infinity;
  #collectedAt = -Infinity;
  #lastAnswerAt = -Infinity;
  #pending = false;

  constructor(
    readonly options: GrowthOptions,
    private readonly measure: () => number = usedBytes,
    private readonly collect: () => boolean = collectGarbage,
    private readonly now: () => number = () => performance.now(),
    private readonly sleep: (ms: number) => Promise<void> = (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  ) {}

  /**
   * After the last request in flight was answered: looks at the memory in use and, when it grew past the bound, has
   * `start` wait until `idle()` holds and no request was answered for `quietMs`, then collect. Returns whether it
   * started such a wait.
   */
  afterRequests(idle: () => boolean, start: (work: () => Promise<void>) => void): boolean {
    const now = this.now();
    this.#lastAnswerAt = now;
    if (this.#pending || now - this.#lookedAt < this.options.lookEveryMs) return false;
    this.#lookedAt = now;
    const used = this.measure();
    if (this.#baseline < 0) this.#baseline = used;
    if (used - this.#baseline < this.options.growthBytes || now - this.#collectedAt < this.options.collectEveryMs) {
      return false;
    }
    this.#pending = true;
    start(async () => {
      try {
        const { quietMs } = this.options;
        for (let quietFor = 0; quietFor < quietMs || !idle(); quietFor = this.now() - this.#lastAnswerAt) {
          await this.sleep(Math.max(quietMs - quietFor, quietMs / 10));
        }
        if (!this.collect()) return;
        this.#collectedAt = this.now();
        this.#baseline = this.measure();
      } finally {
        this.#pending = false;
      }
    });
    return true;
  }
}
