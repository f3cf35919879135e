/**
 * The header deadline of a self-hosted server (docs/decisions.md, Errors and limits, "Header deadline"). `Deno.serve`
 * puts no bound on how long a request's headers may take to arrive, so a client that sends half a request line holds a
 * connection for ever (slowloris). The gate listens on the public address and hands each connection on to the server,
 * which listens on a loopback port, once the headers of its first request have arrived (the blank line that ends them)
 * within `HEADER_TIMEOUT_MS`; a connection that has not sent them by then is answered 408 and closed. After that the
 * bytes flow both ways as they come, and a connection silent both ways for `IDLE_TIMEOUT_MS` is closed (a kept-alive
 * connection nobody uses, or a later request whose headers stall). A client that keeps sending, with no answer in
 * between, for longer than the header deadline at under `MIN_SEND_RATE` bytes a second on average is closed too (a
 * later request's headers or a body trickled a byte at a time, which the idle bound never catches). The server learns each client's address from the
 * gate (`clientOf`), by the port of the gate's own connection to it, and the process's jobs learn that requests are
 * moving (`onBytes`; docs/decisions.md, Background work, "Giving way"). Deno Deploy runs its own front, so the gate is
 * for self-hosting only.
 */

/** How long (ms) a connection may take to send its first request's headers. */
export const HEADER_TIMEOUT_MS = 30_000;
/** How long (ms) a handed-on connection may stay silent both ways before it is closed. */
export const IDLE_TIMEOUT_MS = 75_000;
/**
 * The slowest a handed-on client may send (bytes/s, averaged) once it has been sending for longer than the header
 * deadline with no answer from the server in between: a phone uploading a résumé over 2G sends several times as much.
 */
export const MIN_SEND_RATE = 512;
/** Headers longer than this (bytes) are handed on as they are: the server refuses them (431) itself. */
const MAX_HEAD_BYTES = 64 * 1024;
/** How often (ms) the deadlines are checked. */
const SWEEP_MS = 1_000;

const END_OF_HEAD = [13, 10, 13, 10];
const TIMED_OUT = new TextEncoder().encode(
  "HTTP/1.1 408 Request Timeout\r\nConnection: close\r\nContent-Type: text/plain\r\nContent-Length: 23\r\n\r\n" +
    "Request header timeout\n",
);

/** The running gate. */
export interface HeaderGate {
  /** The public address it listens on. */
  addr: Deno.NetAddr;
  /** The client behind the gate's connection from `local` (the address the server saw), if it is the gate's. */
  clientOf(local: Deno.NetAddr): Deno.NetAddr | undefined;
  /** Stops taking connections and closes those still sending their headers. */
  stopAccepting(): void;
  /** Closes every connection left. */
  closeAll(): void;
}

/** Where the end of the headers (CRLF CRLF) is in `bytes`, searching from `from`; -1 when not there yet. */
function endOfHead(bytes: Uint8Array, from: number): number {
  outer: for (let i = Math.max(0, from); i + 4 <= bytes.length; i++) {
    for (let j = 0; j < 4; j++) if (bytes[i + j] !== END_OF_HEAD[j]) continue outer;
    return i + 4;
  }
  return -1;
}

async function writeAll(conn: Deno.Conn, bytes: Uint8Array): Promise<void> {
  for (let written = 0; written < bytes.length;) written += await conn.write(bytes.subarray(written));
}

/**
 * A connection through the gate: when it started, when bytes last moved, whether it was handed on yet, and, after
 * that, the client's current stretch of sending (since the server last sent anything): when it began, how many bytes
 * it holds and when the last of them came.
 */
interface Passage {
  client: Deno.Conn;
  server: Deno.Conn | null;
  startedAt: number;
  lastActive: number;
  closed: boolean;
  sending: { since: number; bytes: number; last: number } | null;
}

/**
 * Whether `passage`'s client has been sending for longer than `headerTimeoutMs` without an answer, at under
 * `MIN_SEND_RATE` on average.
 */
function trickling(passage: Passage, headerTimeoutMs: number): boolean {
  const { sending } = passage;
  if (!sending) return false;
  const span = sending.last - sending.since;
  return span > headerTimeoutMs && sending.bytes < MIN_SEND_RATE * span / 1000;
}

/**
 * Starts the gate on `hostname:port` (port 0: any free one), handing connections on to the server at
 * `target` (a loopback address). `onListen` is called with the public address.
 */
export function startHeaderGate(
  { hostname, port, target, headerTimeoutMs = HEADER_TIMEOUT_MS, idleTimeoutMs = IDLE_TIMEOUT_MS, onBytes }: {
    hostname: string;
    port: number;
    target: Deno.NetAddr;
    headerTimeoutMs?: number;
    idleTimeoutMs?: number;
    /** Called whenever bytes come in from either side (`InFlightRequests.moved`). */
    onBytes?: () => void;
  },
): HeaderGate {
  const listener = Deno.listen({ hostname, port, transport: "tcp" });
  const passages = new Set<Passage>();
  const clients = new Map<number, Deno.NetAddr>();
  let accepting = true;

  const close = (passage: Passage) => {
    if (passage.closed) return;
    passage.closed = true;
    passages.delete(passage);
    for (const conn of [passage.client, passage.server]) {
      try {
        conn?.close();
      } catch {
        // closed already
      }
    }
    if (passage.server) clients.delete((passage.server.localAddr as Deno.NetAddr).port);
  };

  /** Copies `from` to `to` until `from` ends, then ends `to`'s writing side; bytes moving keep the passage alive. */
  const pump = async (passage: Passage, from: Deno.Conn, to: Deno.Conn) => {
    const buffer = new Uint8Array(64 * 1024);
    for (;;) {
      const n = await from.read(buffer);
      if (n === null) break;
      onBytes?.();
      const now = Date.now();
      passage.lastActive = now;
      if (from === passage.client) {
        passage.sending ??= { since: now, bytes: 0, last: now };
        passage.sending.bytes += n;
        passage.sending.last = now;
      } else passage.sending = null;
      await writeAll(to, buffer.subarray(0, n));
    }
    await to.closeWrite();
  };

  const pass = async (passage: Passage) => {
    const { client } = passage;
    let head = new Uint8Array(0);
    for (;;) {
      const chunk = new Uint8Array(16 * 1024);
      const n = await client.read(chunk);
      if (n === null || passage.closed) return close(passage);
      onBytes?.();
      const grown = new Uint8Array(head.length + n);
      grown.set(head);
      grown.set(chunk.subarray(0, n), head.length);
      const searchFrom = head.length - 3;
      head = grown;
      if (endOfHead(head, searchFrom) >= 0 || head.length > MAX_HEAD_BYTES) break;
    }
    const server = await Deno.connect({ hostname: target.hostname, port: target.port });
    if (passage.closed) return server.close();
    // Each chunk is passed on as it comes: no waiting to fill a segment (Nagle's algorithm would hold small writes).
    server.setNoDelay(true);
    (client as Deno.TcpConn).setNoDelay(true);
    passage.server = server;
    passage.lastActive = Date.now();
    clients.set((server.localAddr as Deno.NetAddr).port, client.remoteAddr as Deno.NetAddr);
    await writeAll(server, head);
    await Promise.all([pump(passage, client, server), pump(passage, server, client)]);
    close(passage);
  };

  const sweep = setInterval(() => {
    const now = Date.now();
    for (const passage of passages) {
      if (passage.server === null && now - passage.startedAt > headerTimeoutMs) {
        passages.delete(passage);
        passage.client.write(TIMED_OUT).catch(() => {}).finally(() => close(passage));
      } else if (
        passage.server !== null && (now - passage.lastActive > idleTimeoutMs || trickling(passage, headerTimeoutMs))
      ) {
        close(passage);
      }
    }
  }, SWEEP_MS);
  Deno.unrefTimer(sweep);

  (async () => {
    for await (const client of listener) {
      const now = Date.now();
      const passage: Passage = {
        client,
        server: null,
        startedAt: now,
        lastActive: now,
        closed: false,
        sending: null,
      };
      passages.add(passage);
      pass(passage).catch(() => close(passage));
    }
  })().catch(() => {});

  return {
    addr: listener.addr as Deno.NetAddr,
    clientOf: (local) => clients.get(local.port),
    stopAccepting() {
      if (!accepting) return;
      accepting = false;
      listener.close();
      for (const passage of passages) if (passage.server === null) close(passage);
    },
    closeAll() {
      clearInterval(sweep);
      for (const passage of passages) close(passage);
    },
  };
}
