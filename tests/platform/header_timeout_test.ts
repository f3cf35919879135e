/**
 * The header deadline (docs/decisions.md, Errors and limits, "Header deadline") with real sockets: it is 30 s unless
 * `HEADER_TIMEOUT_MS` says otherwise, and the real server process (`main.ts`, its deadline shortened to 3 s so the test
 * does not wait half a minute) answers 408 and closes every connection that sent half a request line and nothing more
 * within the deadline, not before it, while it serves other clients meanwhile; behind the gate the app sees each client's own address, a request
 * sent whole is answered at once, a kept-alive connection silent both ways is closed after the idle bound, and one
 * trickling a later request a byte at a time is closed while one sending at a phone's pace is served.
 */
import { loadConfig } from "@/app.config.ts";
import { HEADER_TIMEOUT_MS } from "@/lib/platform/header_gate.ts";
import { serveBehindGate } from "@/lib/platform/server.ts";
import { assert, assertEquals } from "@/tests/helpers/assert.ts";
import { checkedFetch } from "@/tests/helpers/openapi_answers.ts";

const root = new URL("../..", import.meta.url).pathname;
const encoder = new TextEncoder();
/** The header deadline (ms) the server process of the first test runs with. */
const DEADLINE_MS = 3_000;

function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const { port } = listener.addr as Deno.NetAddr;
  listener.close();
  return port;
}

async function waitForHealth(origin: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    try {
      const res = await checkedFetch(`${origin}/api/health`);
      await res.body?.cancel();
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error("the server did not start");
}

/**
 * Everything `conn` sends until it closes, as text, and when it closed (ms since `since`); a connection still open
 * after 60 s counts as never closed (`closedAfterMs` Infinity).
 */
async function readToEnd(conn: Deno.Conn, since: number): Promise<{ text: string; closedAfterMs: number }> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const stillOpen = new Promise<null>((resolve) => timer = setTimeout(() => resolve(null), 60_000));
  const ended = await Promise.race([readAll(conn, since), stillOpen]);
  clearTimeout(timer);
  if (ended) return ended;
  conn.close();
  return { text: "", closedAfterMs: Infinity };
}

async function readAll(conn: Deno.Conn, since: number): Promise<{ text: string; closedAfterMs: number }> {
  const chunks: Uint8Array[] = [];
  const buffer = new Uint8Array(4096);
  try {
    for (let n = await conn.read(buffer); n !== null; n = await conn.read(buffer)) chunks.push(buffer.slice(0, n));
  } catch {
    // reset by the server
  }
  const closedAfterMs = Date.now() - since;
  conn.close();
  return { text: new TextDecoder().decode(new Uint8Array(chunks.flatMap((c) => [...c]))), closedAfterMs };
}

Deno.test("the header deadline is 30 s unless HEADER_TIMEOUT_MS says otherwise", () => {
  assertEquals(HEADER_TIMEOUT_MS, 30_000);
  assertEquals(loadConfig({}).headerTimeoutMs, 30_000);
  assertEquals(loadConfig({ HEADER_TIMEOUT_MS: "3000" }).headerTimeoutMs, 3_000);
});

Deno.test("the server closes connections that sent half a request line at the deadline (408), and serves others meanwhile", async () => {
  const dir = await Deno.makeTempDir({ prefix: "header-timeout-" });
  const port = freePort();
  const origin = `http://127.0.0.1:${port}`;
  const server = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "main.ts"],
    cwd: root,
    env: {
      PORT: String(port),
      KV_PATH: `${dir}/kv.sqlite3`,
      LOG_LEVEL: "error",
      NO_COLOR: "1",
      HEADER_TIMEOUT_MS: String(DEADLINE_MS),
    },
    stdout: "null",
    stderr: "null",
  }).spawn();
  try {
    await waitForHealth(origin);
    const started = Date.now();
    const stalled = await Promise.all(
      Array.from({ length: 50 }, async () => {
        const conn = await Deno.connect({ hostname: "127.0.0.1", port });
        await conn.write(encoder.encode("GET /api/health HT"));
        return readToEnd(conn, started);
      }),
    );
    // Meanwhile the server answers a whole request.
    const health = await checkedFetch(`${origin}/api/health`);
    assertEquals(health.status, 200);
    await health.body?.cancel();
    const ends = await Promise.all(stalled);
    for (const { text, closedAfterMs } of ends) {
      assert(text.startsWith("HTTP/1.1 408 "), text);
      // Not cut before its deadline (a loaded machine only makes this later); within 60 s, or `text` would be empty.
      assert(closedAfterMs >= DEADLINE_MS - 100, `closed after ${closedAfterMs} ms`);
    }
  } finally {
    server.kill("SIGTERM");
    await server.status;
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("behind the gate the app sees the client's own address; a silent kept-alive connection is closed", async () => {
  const seen: Deno.NetAddr[] = [];
  const app = {
    fetch: (_req: Request, info: Deno.ServeHandlerInfo<Deno.NetAddr>) => {
      seen.push(info.remoteAddr);
      return new Response("ok");
    },
  };
  const listened: Deno.NetAddr[] = [];
  await using server = serveBehindGate(
    app,
    { hostname: "127.0.0.1", port: 0, headerTimeoutMs: 1_000, idleTimeoutMs: 2_000 },
    (a) => listened.push(a),
  );
  assertEquals(listened, [server.addr]);
  const conn = await Deno.connect({ hostname: "127.0.0.1", port: server.addr.port });
  const since = Date.now();
  // A request sent in two parts within the deadline is answered; the connection is kept alive.
  await conn.write(encoder.encode("GET / HTTP/1.1\r\nHost: x\r\n"));
  await conn.write(encoder.encode("\r\n"));
  const buffer = new Uint8Array(4096);
  const n = await conn.read(buffer);
  assert(new TextDecoder().decode(buffer.subarray(0, n!)).startsWith("HTTP/1.1 200 "));
  assertEquals(seen.map((a) => [a.hostname, a.port]), [["127.0.0.1", (conn.localAddr as Deno.NetAddr).port]]);
  // Then silent both ways: closed after the idle bound, not before the header deadline would have been.
  const { text, closedAfterMs } = await readToEnd(conn, since);
  assertEquals(text, "");
  assert(closedAfterMs >= 1_900, `closed after ${closedAfterMs} ms`);
});

Deno.test("a later request trickled a byte at a time is cut off; one sent at a phone's pace, answered, is not", async () => {
  const app = {
    fetch: async (req: Request) => new Response(`read ${(await req.arrayBuffer()).byteLength} bytes`),
  };
  await using server = serveBehindGate(
    app,
    { hostname: "127.0.0.1", port: 0, headerTimeoutMs: 500, idleTimeoutMs: 60_000 },
    () => {},
  );
  const buffer = new Uint8Array(4096);
  const answer = async (conn: Deno.Conn) => new TextDecoder().decode(buffer.subarray(0, (await conn.read(buffer))!));

  // A body of 24 KB sent in pieces over more than the deadline, far above MIN_SEND_RATE, then two more requests on
  // the same connection, each answered: all answered, the connection kept.
  const steady = await Deno.connect({ hostname: "127.0.0.1", port: server.addr.port });
  await steady.write(encoder.encode("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 24576\r\n\r\n"));
  for (let i = 0; i < 6; i++) {
    await steady.write(new Uint8Array(4096));
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  assert((await answer(steady)).endsWith("read 24576 bytes"));
  for (let i = 0; i < 2; i++) {
    await new Promise((resolve) => setTimeout(resolve, 400));
    await steady.write(encoder.encode("GET / HTTP/1.1\r\nHost: x\r\n\r\n"));
    assert((await answer(steady)).endsWith("read 0 bytes"));
  }
  steady.close();

  // After a quick first request, a second one's headers a byte every 200 ms: closed, long before the 60 s idle bound.
  const slow = await Deno.connect({ hostname: "127.0.0.1", port: server.addr.port });
  await slow.write(encoder.encode("GET / HTTP/1.1\r\nHost: x\r\n\r\n"));
  assert((await answer(slow)).startsWith("HTTP/1.1 200 "));
  const since = Date.now();
  const ended = readToEnd(slow, since);
  let writes = 0;
  for (const byte of encoder.encode(`GET / HTTP/1.1\r\nHost: x\r\nX-Slow: ${"a".repeat(200)}`)) {
    try {
      await slow.write(Uint8Array.of(byte));
      writes++;
    } catch {
      break;
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  const { text, closedAfterMs } = await ended;
  assertEquals(text, "");
  assert(closedAfterMs < 30_000, `closed after ${closedAfterMs} ms`);
  assert(writes < 200, `the gate took ${writes} bytes of a head that never ends`);
});
