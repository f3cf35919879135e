/**
 * Retrying a KV write that lost a race (docs/decisions.md, Open and closed listings, "Concurrent writers"): the write
 * reads, checks what it read in its atomic commit, and when another writer committed first it reads again and tries
 * again after a growing random pause, for up to `RETRY_BUDGET_MS`, instead of a fixed number of times. A lost race is
 * never the request's own fault, so it never ends as `409`; only a budget run out ends as `BusyError` (503). A caller
 * whose write checks something of its own that it must read again before another try (a hide that may be lifted, a
 * manager key) asks the write to give up on a lost race (`onLostRace: "give-up"`) and is told so by `RaceLost`.
 */
import { BusyError } from "@/lib/errors.ts";
import { PLATFORM_REFUSALS } from "@/lib/refusals.ts";

/** How long (ms) a write keeps retrying races lost to other writers before it gives up with `BusyError`. */
export const RETRY_BUDGET_MS = 30_000;
/** The longest pause (ms) between two attempts of a write. */
const MAX_PAUSE_MS = 100;

/**
 * What a write does when another writer committed first: reads again and tries again (`retry`, for up to
 * `RETRY_BUDGET_MS`), or writes nothing and throws `RaceLost` (`give-up`), for a caller that reads again itself.
 */
export type OnLostRace = "retry" | "give-up";

/** Thrown by a write asked to give up on a lost race (`onLostRace: "give-up"`) when it lost one: nothing was written. */
export class RaceLost extends Error {
  override readonly name = "RaceLost";
}

/** Waits a random few milliseconds, more after each lost race (at most `MAX_PAUSE_MS`), so racing writers spread out. */
function backoff(attempt: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(2 ** attempt, MAX_PAUSE_MS)));
}

/**
 * Runs `attempt` until it succeeds (returns true; false means it lost a race and wrote nothing), pausing a little more
 * after each failure, for at most `budgetMs` (ms); a lost race is always tried again at least once, however long the
 * first attempt took. With `onLostRace` "give-up", `attempt` runs once.
 * @throws BusyError `PLATFORM_REFUSALS.busy` when the budget ran out (the attempts wrote nothing): one sentence for
 *   every record, so islands word it in the page's language (docs/decisions.md, Languages, "Refusals on pages"); what
 *   `attempt` throws (a refusal it decided on what it read, such as a limit reached, ends the retries); RaceLost when
 *   `onLostRace` is "give-up" and the attempt lost its race.
 */
export async function retrying(
  attempt: () => Promise<boolean>,
  budgetMs: number,
  onLostRace: OnLostRace = "retry",
): Promise<void> {
  const started = Date.now();
  for (let i = 1;; i++) {
    if (await attempt()) return;
    if (onLostRace === "give-up") throw new RaceLost();
    if (i > 1 && Date.now() - started >= budgetMs) break;
    await backoff(i);
  }
  throw new BusyError(PLATFORM_REFUSALS.busy);
}
