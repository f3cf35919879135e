/**
 * Turns of the event loop that take in I/O (docs/decisions.md, Background work, "Giving way"). Deno's event loop looks
 * at its sockets only when it has nothing ready to run or a timer is due: a job that yields by `setImmediate`, a
 * resolved promise, a message or a quick op (a file's `stat`, a KV read) runs its next piece before the server reads
 * a new request (measured: 29 requests answered in 2.5 s beside a loop of 0.5 ms pieces so yielding, against 3,790
 * with the turn here), and `setTimeout(0)` waits a millisecond or more (four when nested) for every turn. A turn here
 * writes one byte on a loopback connection of its own and reads it back: the read is answered only once the event
 * loop has polled its sockets, so the requests that arrived meanwhile are taken in, for about 0.05 ms of CPU a turn.
 * Where no loopback connection may be opened (Deno Deploy refuses `Deno.connect` to the local host; a narrow
 * `--allow-net`), turns are `setImmediate` ones, and one by a timer (which polls the sockets) once `TIMER_TURN_EVERY_MS`
 * passed since the last: a request waits for a few milliseconds of the job at most, and the job loses about a fifth
 * of its time to the timers instead of tripling it (a timer turn after every piece).
 */
import { setImmediate } from "node:timers";

const BYTE = new Uint8Array([1]);

/** The two ends of a loopback connection: one written, the other read. */
export type Loopback = [writer: Deno.Conn, reader: Deno.Conn];

/**
 * Opens a loopback connection, or null where that is not possible: `Deno.listen` or `Deno.connect` refused, or the
 * connection accepted first was another local process's (then both are closed).
 */
export async function openLoopback(): Promise<Loopback | null> {
  let listener: Deno.Listener;
  try {
    listener = Deno.listen({ hostname: "127.0.0.1", port: 0, transport: "tcp" });
  } catch {
    return null;
  }
  const conns: Deno.Conn[] = [];
  try {
    // The kernel completes the connection before it is accepted: connect first, then take it from the backlog.
    const writer = await Deno.connect({ hostname: "127.0.0.1", port: (listener.addr as Deno.NetAddr).port });
    conns.push(writer);
    const reader = await listener.accept();
    conns.push(reader);
    if ((reader.remoteAddr as Deno.NetAddr).port !== (writer.localAddr as Deno.NetAddr).port) {
      throw new Error("foreign");
    }
    writer.setNoDelay(true);
    return [writer, reader];
  } catch {
    for (const conn of conns) closeQuietly(conn);
    return null;
  } finally {
    listener.close();
  }
}

function closeQuietly(conn: Deno.Conn): void {
  try {
    conn.close();
  } catch {
    // closed already
  }
}

/** How long (ms) turns without a loopback connection go on by `setImmediate` before one by a timer. */
export const TIMER_TURN_EVERY_MS = 4;

/**
 * Turns that take in I/O, over a loopback connection opened at the first turn (`open`, `openLoopback` unless a test
 * gives another) and closed by `close` (a job holds one for its run). Concurrent callers share the turn in progress.
 */
export class IoTurns {
  #pair: Promise<Loopback | null> | null = null;
  #turn: Promise<void> | null = null;
  #closed = false;
  /** When (`performance.now()`, ms) the last timer turn ended, without a loopback connection. */
  #timerTurnAt = performance.now();
  readonly #buffer = new Uint8Array(64);

  constructor(private readonly open: () => Promise<Loopback | null> = openLoopback) {}

  /**
   * Resolves once the event loop has polled its sockets (and run what they brought) since the call; without a loopback
   * connection, after a `setImmediate` turn, or a timer turn once `TIMER_TURN_EVERY_MS` passed since the last.
   */
  next(): Promise<void> {
    return this.#turn ??= this.#once().finally(() => this.#turn = null);
  }

  async #once(): Promise<void> {
    const pair = this.#closed ? null : await (this.#pair ??= this.open());
    if (pair) {
      try {
        await pair[0].write(BYTE);
        await pair[1].read(this.#buffer);
        return;
      } catch {
        // Closed meanwhile: a turn without it.
      }
    }
    if (performance.now() - this.#timerTurnAt < TIMER_TURN_EVERY_MS) {
      return await new Promise<void>((resolve) => setImmediate(resolve));
    }
    await new Promise<void>((resolve) => setTimeout(resolve, 0));
    this.#timerTurnAt = performance.now();
  }

  /** Closes the loopback connection (after the turn in progress); later turns are taken without it. */
  async close(): Promise<void> {
    this.#closed = true;
    await this.#turn;
    for (const conn of await this.#pair ?? []) closeQuietly(conn);
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }
}
