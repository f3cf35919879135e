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
 */
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

type CollectGarbage = (options: { type: "major"; execution: "sync"; flavor: "last-resort" }) => void;

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
