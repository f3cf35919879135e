/** Assertions for tests, from `node:assert/strict` under the names Deno tests usually use. */
export {
  deepStrictEqual as assertEquals,
  doesNotMatch as assertNotMatch,
  match as assertMatch,
  notDeepStrictEqual as assertNotEquals,
  ok as assert,
  rejects as assertRejects,
  throws as assertThrows,
} from "node:assert/strict";

/**
 * `promise`'s value, or a failure naming `what` when it has not settled within `ms` milliseconds: a generous bound
 * that turns a wait which would never end (an answer held up by a server that does not answer) into a failure. Not a
 * timing check: timings are the benchmarks' (`bench/`).
 */
export async function settlesWithin<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not settle within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}
