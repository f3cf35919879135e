/**
 * The requests this process is answering, so that work sharing the process gives way to them (docs/decisions.md,
 * Background work, "Giving way"): the app counts each request while it is answered, and a long job calls `giveWay`
 * between pieces of its work (the alerts digest: a few milliseconds each), or takes `turns` (the applications timeout:
 * thousands of pieces under a millisecond), which let the server take in the requests that arrived and wait while
 * requests are being answered.
 */
import { IoTurns } from "./io_turn.ts";

/** How long (ms) `giveWay` waits at most for the requests in flight, so that steady traffic cannot stop a job. */
export const GIVE_WAY_MAX_MS = 50;
/**
 * Most turns a job's `turns().next()` takes in a row while each brought a request on (about 0.05 ms each): a request
 * passes the gate, the server and the gate again in as many looks at the sockets, without a piece of the job between.
 */
const FOLLOW_TURNS = 8;

/** The count of requests in flight in one process. */
export class InFlightRequests {
  #count = 0;
  /** Grows whenever a request moves on: it arrives, is answered, or the gate passes bytes of it. */
  #moved = 0;
  #waiting = new Set<() => void>();

  /** How many requests are being answered now. */
  get count(): number {
    return this.#count;
  }

  /** Answers a request with `answer`, counted while it runs. */
  async track<T>(answer: () => Promise<T>): Promise<T> {
    this.#count++;
    this.#moved++;
    try {
      return await answer();
    } finally {
      this.#moved++;
      this.#leave();
    }
  }

  /** Notes that a request moved on (the header gate passed bytes of it, or of its answer): see `turns`. */
  moved(): void {
    this.#moved++;
  }

  /**
   * Runs `work` with the calling request not counted meanwhile: a job run by hand (`POST /api/admin/jobs/{name}/run`)
   * gives way to the other requests, not to the one it runs in.
   */
  async aside<T>(work: () => Promise<T>): Promise<T> {
    this.#leave();
    try {
      return await work();
    } finally {
      this.#count++;
    }
  }

  /**
   * Lets the event loop take in requests that arrived meanwhile, then resolves once none is being answered, or after
   * `GIVE_WAY_MAX_MS`.
   */
  async giveWay(): Promise<void> {
    await this.idle(GIVE_WAY_MAX_MS);
  }

  /**
   * Lets the event loop take in requests that arrived meanwhile (a timer: a millisecond or more), then resolves once
   * none is being answered, or after `maxMs` (ms) of waiting.
   */
  async idle(maxMs: number): Promise<void> {
    await new Promise((resolve) => setTimeout(resolve, 0));
    await this.#quiet(maxMs);
  }

  /**
   * Turns for a job that yields thousands of times a run: each `next()` lets the event loop take in the requests that
   * arrived (a turn through its sockets, `IoTurns`: about 0.05 ms, where the timer of `giveWay` takes a millisecond or
   * more), then waits while requests are being answered, at most `GIVE_WAY_MAX_MS`. Dispose of it (`await using`) when
   * the run ends: it holds a loopback connection.
   */
  turns(): JobTurns {
    const io = new IoTurns();
    return {
      next: async () => {
        for (let turn = 0; turn < FOLLOW_TURNS; turn++) {
          const moved = this.#moved;
          await io.next();
          if (this.#moved === moved) break;
        }
        await this.#quiet(GIVE_WAY_MAX_MS);
      },
      [Symbol.asyncDispose]: () => io.close(),
    };
  }

  /** Resolves once no request is being answered, or after `maxMs`. */
  async #quiet(maxMs: number): Promise<void> {
    if (this.#count === 0) return;
    const { promise, resolve } = Promise.withResolvers<void>();
    const timer = setTimeout(resolve, maxMs);
    this.#waiting.add(resolve);
    await promise;
    clearTimeout(timer);
    this.#waiting.delete(resolve);
  }

  #leave(): void {
    if (--this.#count > 0) return;
    for (const resolve of this.#waiting) resolve();
    this.#waiting.clear();
  }
}

/** A job's turns (`InFlightRequests.turns`): `next()` between two pieces of its work. */
export interface JobTurns extends AsyncDisposable {
  next(): Promise<void>;
}
