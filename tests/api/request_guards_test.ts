/**
 * The request-level rules of `routes/_middleware.ts` that a hostile or unlucky client meets: the
 * CSRF origin rules of `lib/http/csrf.ts`, JSON bodies only as JSON, no caching of answers about
 * a person, a client that goes away mid-body, a body that stalls, and the loopback aliases of a
 * development `APP_URL`.
 */
import { BODY_IDLE_MS, withIdleTimeout } from "@/lib/http/limits.ts";
import { loadConfig } from "@/app.config.ts";
import { ClientAbortError, RequestTimeoutError } from "@/lib/errors.ts";
import { assert, assertEquals, assertRejects, settlesWithin } from "@/tests/helpers/assert.ts";
import { createTestApp, createTestUser } from "@/tests/helpers/app.ts";

const profileUpdate = { name: "Changed Name" };

Deno.test("Origin: null with a session cookie is refused, even with a same-origin Referer", async () => {
  await using t = await createTestApp();
  const { cookie } = await createTestUser(t);
  const res = await t.fetch("/api/profile", {
    method: "POST",
    headers: { cookie, origin: "null", referer: `${t.origin}/profile`, "content-type": "application/json" },
    body: JSON.stringify(profileUpdate),
  });
  assertEquals(res.status, 403);
  assertEquals(await res.json(), { error: "Invalid origin" });
});

Deno.test("Origin: null on an auth endpoint is refused as a foreign origin (login CSRF)", async () => {
  await using t = await createTestApp();
  const res = await t.fetch("/api/auth/sign-in/email", {
    method: "POST",
    headers: { origin: "null", "content-type": "application/json" },
    body: JSON.stringify({ email: "a@example.com", password: "password123" }),
  });
  assertEquals(res.status, 403);
});

Deno.test("a JSON endpoint refuses text/plain and a missing Content-Type with 415, and takes application/json", async () => {
  await using t = await createTestApp();
  const { cookie } = await createTestUser(t);
  for (const type of ["text/plain", "application/x-www-form-urlencoded", null]) {
    const headers: Record<string, string> = { cookie, origin: t.origin };
    if (type) headers["content-type"] = type;
    const res = await t.fetch("/api/profile", { method: "POST", headers, body: JSON.stringify(profileUpdate) });
    assertEquals(res.status, 415, String(type));
    assertEquals(await res.json(), { error: "Content-Type must be application/json" });
  }
  const ok = await t.fetch("/api/profile", {
    method: "POST",
    headers: { cookie, origin: t.origin, "content-type": "application/json; charset=utf-8" },
    body: JSON.stringify(profileUpdate),
  });
  assertEquals(ok.status, 200);
  await ok.body?.cancel();
});

Deno.test("answers to a signed-in person are Cache-Control: private, no-store; guest pages are not", async () => {
  await using t = await createTestApp();
  const { cookie } = await createTestUser(t);
  for (const path of ["/profile", "/api/profile", "/internships", "/"]) {
    const res = await t.fetch(path, { headers: { cookie } });
    assertEquals(res.headers.get("cache-control"), "private, no-store", path);
    await res.body?.cancel();
  }
  const guest = await t.fetch("/internships");
  assert(guest.headers.get("cache-control") !== "private, no-store");
  await guest.body?.cancel();
  const signIn = await t.json("POST", "/api/auth/sign-in/email", {
    body: { email: "nobody@example.com", password: "x" },
  });
  await signIn.body?.cancel();
  const user = await createTestUser(t);
  const signOut = await t.fetch("/api/auth/sign-out", { method: "POST", headers: user.headers });
  assert(signOut.headers.has("set-cookie"));
  assertEquals(signOut.headers.get("cache-control"), "private, no-store", "an answer that sets a cookie");
  await signOut.body?.cancel();
});

/** Sends `head` and `body` over a raw socket to `origin`, then closes it without reading. */
async function sendAndHangUp(origin: string, head: string, body: string): Promise<void> {
  const { hostname, port } = new URL(origin);
  const conn = await Deno.connect({ hostname: hostname === "localhost" ? "127.0.0.1" : hostname, port: Number(port) });
  await conn.write(new TextEncoder().encode(head + body));
  await new Promise((resolve) => setTimeout(resolve, 100));
  conn.close();
}

Deno.test("a client that goes away mid-body is one info line, not an error with a stack trace", async () => {
  const logLines: string[] = [];
  await using t = await createTestApp({ listen: true, logLines, env: { LOG_LEVEL: "info" } });
  const { cookie } = await createTestUser(t);
  const head = `POST /api/profile HTTP/1.1\r\nHost: ${new URL(t.origin).host}\r\nCookie: ${cookie}\r\n` +
    `Origin: ${t.origin}\r\nContent-Type: application/json\r\nContent-Length: 5000\r\n\r\n`;
  await sendAndHangUp(t.origin, head, '{"name": "half');
  for (let i = 0; i < 50 && logLines.length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 20));
  const entries = logLines.map((line) => JSON.parse(line));
  assertEquals(entries.filter((entry) => entry.level === "error"), []);
  assertEquals(entries.filter((entry) => entry.msg === "client went away").length, 1, logLines.join("\n"));
});

Deno.test("a body stream that stalls fails with RequestTimeoutError, a failing one with ClientAbortError; a flowing one is read whole", async () => {
  const stalled = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(new TextEncoder().encode("{"));
    },
  });
  const reader = withIdleTimeout(stalled, 50).getReader();
  assertEquals((await reader.read()).value, new TextEncoder().encode("{"));
  await assertRejects(() => reader.read(), RequestTimeoutError);

  const failing = new ReadableStream<Uint8Array>({
    pull(controller) {
      controller.error(new Error("connection reset"));
    },
  });
  await assertRejects(() => withIdleTimeout(failing, 50).getReader().read(), ClientAbortError);

  const flowing = new Blob(["a", "b", "c"]).stream();
  assertEquals(await new Response(withIdleTimeout(flowing, 50)).text(), "abc");
});

Deno.test("a body may stall 15 s unless BODY_IDLE_MS says otherwise", () => {
  assertEquals(BODY_IDLE_MS, 15_000);
  assertEquals(loadConfig({}).bodyIdleMs, 15_000);
  assertEquals(loadConfig({ BODY_IDLE_MS: "1000" }).bodyIdleMs, 1_000);
});

Deno.test("a write whose body stalls is answered 408 and its connection freed", async () => {
  // The stall bound shortened to 1 s, so the test does not wait 15.
  await using t = await createTestApp({ listen: true, env: { BODY_IDLE_MS: "1000" } });
  const { cookie } = await createTestUser(t);
  const { hostname, port } = new URL(t.origin);
  const conn = await Deno.connect({ hostname: hostname === "localhost" ? "127.0.0.1" : hostname, port: Number(port) });
  const head = `POST /api/profile HTTP/1.1\r\nHost: ${new URL(t.origin).host}\r\nCookie: ${cookie}\r\n` +
    `Origin: ${t.origin}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"na`;
  await conn.write(new TextEncoder().encode(head));
  const buffer = new Uint8Array(4096);
  const read = await settlesWithin(conn.read(buffer), 60_000, "the answer to a stalled body");
  conn.close();
  assert(read !== null);
  const answer = new TextDecoder().decode(buffer.subarray(0, read));
  assert(answer.startsWith("HTTP/1.1 408"), answer);
  // The app's JSON answer, so the body's own limit answered (the header gate's 408 is plain text).
  assert(/^content-type: application\/json/im.test(answer), answer);
});

Deno.test("a loopback APP_URL accepts the other loopback names of its port, and no other port or host", async () => {
  await using t = await createTestApp({ env: { APP_URL: "http://localhost:8000" } });
  const { cookie } = await createTestUser(t);
  const put = (origin: string) =>
    t.fetch("/api/profile", {
      method: "POST",
      headers: { cookie, origin, "content-type": "application/json" },
      body: JSON.stringify(profileUpdate),
    });
  for (const origin of ["http://127.0.0.1:8000", "http://[::1]:8000", "http://localhost:8000"]) {
    const res = await put(origin);
    assertEquals(res.status, 200, origin);
    await res.body?.cancel();
  }
  for (const origin of ["http://127.0.0.1:9000", "https://127.0.0.1:8000", "http://evil.example:8000"]) {
    const res = await put(origin);
    assertEquals(res.status, 403, origin);
    await res.body?.cancel();
  }
});

Deno.test("an https APP_URL has no loopback aliases", async () => {
  await using t = await createTestApp({
    env: { APP_URL: "https://careers.example", AUTH_SECRET: "x".repeat(40) },
  });
  const res = await t.fetch("/api/auth/sign-in/email", {
    method: "POST",
    headers: { origin: "https://127.0.0.1", "content-type": "application/json" },
    body: JSON.stringify({ email: "a@example.com", password: "password123" }),
  });
  assertEquals(res.status, 403);
});
