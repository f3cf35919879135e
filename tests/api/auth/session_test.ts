import {
  createSession,
  endOtherSessions,
  type Session,
  SESSION_RENEW_BELOW_MS,
  SESSION_TTL_MS,
} from "@/lib/auth/sessions.ts";
import { ConflictError } from "@/lib/errors.ts";
import { sha256Hex } from "@/lib/ids.ts";
import { updateUser } from "@/lib/users/users.ts";
import { assert, assertEquals, assertMatch, assertRejects } from "@/tests/helpers/assert.ts";
import { createTestApp, createTestUser, type TestApp } from "@/tests/helpers/app.ts";
import { cookieOf, signIn } from "./helpers.ts";
import { PASSWORD, passwordUser } from "@/tests/fixtures/people.ts";
import { uploadedId } from "@/tests/fixtures/posts.ts";
import { addInternships } from "@/tests/fixtures/internships.ts";

/** Ages the stored session of `cookie` to a day and a bit after its last renewal, so that the next read renews it. */
async function ageSession(t: TestApp, cookie: string): Promise<void> {
  const key = ["sessions", await sha256Hex(cookie.slice(cookie.indexOf("=") + 1))];
  const stored = (await t.kv.get<Session>(key)).value!;
  await t.kv.set(key, { ...stored, expiresAt: new Date(Date.now() + SESSION_RENEW_BELOW_MS - 60_000).toISOString() });
}

/**
 * A `PUT` of `body` as JSON to `path` with the cookie `cookie` whose body, of a declared length, sends its first bytes
 * when the server first reads it, then the rest once `release` is called (a slow link): `reading` resolves when the
 * server has begun to read the body (requests go in process, so nothing reads it before the session step has run and
 * the handler wants it), `response` once the whole exchange is over.
 */
function slowPut(t: TestApp, path: string, cookie: string, body: unknown) {
  const bytes = new TextEncoder().encode(JSON.stringify(body));
  let release!: () => void;
  const rest = new Promise<void>((resolve) => release = resolve);
  let begun!: () => void;
  const reading = new Promise<void>((resolve) => begun = resolve);
  let pulls = 0;
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (pulls++ === 0) {
        controller.enqueue(bytes.slice(0, 5));
        return begun();
      }
      await rest;
      controller.enqueue(bytes.slice(5));
      controller.close();
    },
  }, { highWaterMark: 0 });
  const response = t.fetch(path, {
    method: "PUT",
    headers: {
      cookie,
      origin: t.origin,
      "content-type": "application/json",
      "content-length": String(bytes.byteLength),
    },
    body: stream,
    duplex: "half",
  } as RequestInit);
  return { reading, release, response };
}

for (const path of ["/api/auth/session", "/api/auth/get-session"]) {
  Deno.test(`GET ${path} as a guest answers 200 null`, async () => {
    await using t = await createTestApp();
    const res = await t.fetch(path);
    assertEquals(res.status, 200);
    assertEquals(res.headers.get("content-type"), "application/json");
    assertEquals(await res.text(), "null");
  });

  Deno.test(`GET ${path} signed in answers the session and the user`, async () => {
    await using t = await createTestApp();
    const user = await passwordUser(t, { email: "asha@example.com" });
    const cookie = await signIn(t, "asha@example.com");
    const res = await t.fetch(path, { headers: { cookie } });
    assertEquals(res.status, 200);
    assertEquals(res.headers.get("content-type"), "application/json");
    assertEquals(res.headers.get("cache-control"), "no-store");
    const body = await res.json();
    assertEquals(Object.keys(body.session).sort(), ["createdAt", "expiresAt", "id", "userId"]);
    assertEquals(body.session.userId, user.id);
    assertEquals(body.user, {
      id: user.id,
      name: user.name,
      email: user.email,
      emailVerified: true,
      image: null,
      role: "user",
      createdAt: user.createdAt,
      updatedAt: user.updatedAt,
    });
  });
}

Deno.test("GET /api/auth/session with an unknown or malformed cookie answers null", async () => {
  await using t = await createTestApp();
  for (const cookie of ["session=" + "A".repeat(43), "session=garbage", "session="]) {
    const res = await t.fetch("/api/auth/session", { headers: { cookie } });
    assertEquals(res.status, 200);
    assertEquals(await res.json(), null);
  }
});

Deno.test("a cookie is bound to its user: another user's id in front of a valid token is no session", async () => {
  await using t = await createTestApp();
  const alice = await createTestUser(t);
  const bob = await createTestUser(t, "admin");
  const secret = alice.cookie.slice(alice.cookie.indexOf(".") + 1);
  assertMatch(alice.cookie, new RegExp(`^session=${alice.user.id}\\.[A-Za-z0-9_-]{43}$`));
  for (const cookie of [`session=${bob.user.id}.${secret}`, `session=${secret}`, `session=.${secret}`]) {
    const res = await t.fetch("/api/auth/session", { headers: { cookie } });
    assertEquals(await res.json(), null, cookie);
  }
  assertEquals((await (await t.fetch("/api/auth/session", { headers: alice.headers })).json()).user.id, alice.user.id);
});

Deno.test("the session reads the role from the user record at every request", async () => {
  await using t = await createTestApp();
  const { user, cookie } = await createTestUser(t);
  await updateUser(t.kv, user.id, { role: "member" });
  const res = await t.fetch("/api/auth/session", { headers: { cookie } });
  assertEquals((await res.json()).user.role, "member");
});

Deno.test("the session slides: a read with less than 6 days left renews it to 7 days and resends the cookie", async () => {
  await using t = await createTestApp();
  const { cookie } = await createTestUser(t);
  const key = ["sessions", await sha256Hex(cookie.slice("session=".length))];
  const fresh = await t.fetch("/api/auth/session", { headers: { cookie } });
  assertEquals(fresh.headers.get("set-cookie"), null);
  await fresh.body?.cancel();
  const stored = (await t.kv.get<Session>(key)).value!;
  const aged = { ...stored, expiresAt: new Date(Date.now() + SESSION_RENEW_BELOW_MS - 60_000).toISOString() };
  await t.kv.set(key, aged);
  const res = await t.fetch("/api/auth/session", { headers: { cookie } });
  assertEquals(res.status, 200);
  assertMatch(res.headers.get("set-cookie") ?? "", /^session=[^;]+; Max-Age=604800;/);
  assertEquals(cookieOf(res), cookie);
  const body = await res.json();
  const left = Date.parse(body.session.expiresAt) - Date.now();
  assert(left > SESSION_TTL_MS - 60_000 && left <= SESSION_TTL_MS, `${left} ms left`);
  assertEquals((await t.kv.get<Session>(key)).value?.expiresAt, body.session.expiresAt);
});

Deno.test("a renewal on an answer the route marked public makes it private, no-store", async () => {
  await using t = await createTestApp();
  const admin = await createTestUser(t, "admin");
  const file = `/api/files/${await uploadedId(t, admin)}`;
  for (const path of ["/robots.txt", "/internships/rss.xml", "/ungatekeep/rss.xml", "/api/openapi.json", file]) {
    const { cookie } = await createTestUser(t);
    const plain = await t.fetch(path, { headers: { cookie } });
    await plain.body?.cancel();
    assertEquals(plain.headers.get("set-cookie"), null, path);
    assertMatch(plain.headers.get("cache-control") ?? "", /^public/, path);
    await ageSession(t, cookie);
    const res = await t.fetch(path, { headers: { cookie } });
    await res.body?.cancel();
    assertEquals(res.status, 200, path);
    assertEquals(res.headers.get("set-cookie")?.split(";")[0], cookie, path);
    assertEquals(res.headers.get("cache-control"), "private, no-store", path);
  }
});

Deno.test("any cookie on an answer the route marked public makes it private, no-store", async () => {
  await using t = await createTestApp();
  const res = await t.fetch("/robots.txt?lang=hi");
  await res.body?.cancel();
  assertMatch(res.headers.get("set-cookie") ?? "", /^lang=hi;/);
  assertEquals(res.headers.get("cache-control"), "private, no-store");
});

Deno.test("a session signed in without Remember me stays a browser-session cookie through its renewals", async () => {
  await using t = await createTestApp();
  await passwordUser(t, { email: "kiosk@example.com" });
  const api = await t.json("POST", "/api/auth/sign-in/email", {
    body: { email: "kiosk@example.com", password: PASSWORD, rememberMe: false },
  });
  await api.body?.cancel();
  const page = await t.fetch("/sign-in", {
    method: "POST",
    headers: { origin: t.origin, "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ email: "kiosk@example.com", password: PASSWORD }),
    redirect: "manual",
  });
  await page.body?.cancel();
  for (const [edge, res] of [["the API", api], ["the page", page]] as const) {
    const session = res.headers.getSetCookie().find((line) => line.startsWith("session="));
    assertEquals(session?.includes("Max-Age"), false, edge);
    const cookie = cookieOf(res)!;
    await ageSession(t, cookie);
    const renewal = await t.fetch("/api/auth/session", { headers: { cookie } });
    await renewal.body?.cancel();
    assertMatch(renewal.headers.get("set-cookie") ?? "", /^session=[^;]+; Path=\/; HttpOnly; SameSite=Lax$/, edge);
    assertEquals(cookieOf(renewal), cookie, edge);
  }
});

Deno.test("a session stored before it kept Remember me renews as a persistent cookie", async () => {
  await using t = await createTestApp();
  const { cookie } = await createTestUser(t);
  const key = ["sessions", await sha256Hex(cookie.slice("session=".length))];
  const { persistent: _, ...older } = (await t.kv.get<Session>(key)).value!;
  await t.kv.set(key, older);
  await ageSession(t, cookie);
  const res = await t.fetch("/api/auth/session", { headers: { cookie } });
  await res.body?.cancel();
  assertMatch(res.headers.get("set-cookie") ?? "", /^session=[^;]+; Max-Age=604800;/);
});

Deno.test("a renewal goes out beside another cookie of the answer, never over the session cookie it sets", async () => {
  await using t = await createTestApp();
  const { cookie } = await createTestUser(t);
  await ageSession(t, cookie);
  const res = await t.fetch("/api/auth/session?lang=hi", { headers: { cookie } });
  await res.body?.cancel();
  const cookies = res.headers.getSetCookie().map((line) => line.split(";")[0]);
  assertEquals(cookies.sort(), ["lang=hi", cookie].sort());
  const other = await createTestUser(t);
  await ageSession(t, other.cookie);
  const signOut = await t.json("POST", "/api/auth/sign-out", { headers: { cookie: other.cookie } });
  await signOut.body?.cancel();
  assertEquals(signOut.headers.getSetCookie().map((line) => line.split(";")[0]), ["session="]);
});

Deno.test("an expired session reads as null", async () => {
  await using t = await createTestApp();
  const { cookie } = await createTestUser(t);
  const key = ["sessions", await sha256Hex(cookie.slice("session=".length))];
  const stored = (await t.kv.get<Session>(key)).value!;
  await t.kv.set(key, { ...stored, expiresAt: new Date(Date.now() - 1000).toISOString() });
  assertEquals(await (await t.fetch("/api/auth/session", { headers: { cookie } })).json(), null);
});

Deno.test("sign-out ends the session, clears the cookie and answers {success: true}", async () => {
  await using t = await createTestApp();
  await passwordUser(t, { email: "asha@example.com" });
  const cookie = await signIn(t, "asha@example.com");
  const res = await t.json("POST", "/api/auth/sign-out", { headers: { cookie } });
  assertEquals(res.status, 200);
  assertEquals(res.headers.get("content-type"), "application/json");
  assertMatch(res.headers.get("set-cookie") ?? "", /^session=; Max-Age=0; Path=\/; HttpOnly; SameSite=Lax$/);
  assertEquals(await res.json(), { success: true });
  assertEquals(await (await t.fetch("/api/auth/session", { headers: { cookie } })).json(), null);
  const again = await t.json("POST", "/api/auth/sign-out", { headers: { cookie } });
  assertEquals(again.status, 401);
  await again.body?.cancel();
});

Deno.test("sign-out accepts any JSON body or a malformed one", async () => {
  await using t = await createTestApp();
  for (const body of ['{"anything": [1, 2]}', "not json", "[]"]) {
    const { headers } = await createTestUser(t);
    const res = await t.fetch("/api/auth/sign-out", { method: "POST", headers, body });
    assertEquals(res.status, 200, body);
    assertEquals(await res.json(), { success: true });
  }
});

Deno.test("sign-out without a valid session is 401 UNAUTHORIZED", async () => {
  await using t = await createTestApp();
  const attempts: Record<string, string>[] = [{}, { cookie: "session=" + "A".repeat(43) }];
  for (const headers of attempts) {
    const res = await t.json("POST", "/api/auth/sign-out", { headers });
    assertEquals(res.status, 401);
    assertEquals(res.headers.get("content-type"), "application/json");
    assertEquals(await res.json(), { error: "Unauthorized", code: "UNAUTHORIZED", message: "Unauthorized" });
  }
});

Deno.test("sign-out ends only the current session, not the user's other ones", async () => {
  await using t = await createTestApp();
  await passwordUser(t, { email: "asha@example.com" });
  const laptop = await signIn(t, "asha@example.com");
  const phone = await signIn(t, "asha@example.com");
  await (await t.json("POST", "/api/auth/sign-out", { headers: { cookie: laptop } })).body?.cancel();
  assert((await (await t.fetch("/api/auth/session", { headers: { cookie: phone } })).json()).session);
});

Deno.test("CSRF: sign-out with the session cookie but a foreign Origin is 403 and the session survives", async () => {
  await using t = await createTestApp();
  const { cookie } = await createTestUser(t);
  const attempts: Record<string, string>[] = [
    { cookie, origin: "https://evil.example" },
    { cookie },
    { cookie, referer: "https://evil.example/x" },
  ];
  for (const headers of attempts) {
    const res = await t.fetch("/api/auth/sign-out", { method: "POST", headers });
    assertEquals(res.status, 403);
    assertEquals(await res.json(), { error: "Invalid origin" });
  }
  assert((await (await t.fetch("/api/auth/session", { headers: { cookie } })).json()).session);
});

Deno.test("session and sign-out answer 405 to other methods", async () => {
  await using t = await createTestApp();
  const get = await t.fetch("/api/auth/sign-out");
  assertEquals(get.status, 405);
  await get.body?.cancel();
  const post = await t.json("POST", "/api/auth/session", { body: {} });
  assertEquals(post.status, 405);
  await post.body?.cancel();
});

/** Whether `cookie` is a live session now (`GET /api/auth/session` names a user). */
async function signedIn(t: TestApp, cookie: string): Promise<boolean> {
  return (await (await t.fetch("/api/auth/session", { headers: { cookie } })).json()) !== null;
}

Deno.test("revoke-other-sessions ends every other session of the caller at once and keeps the caller's as it was", async () => {
  await using t = await createTestApp();
  const user = await passwordUser(t, { email: "asha@example.com" });
  const laptop = await signIn(t, "asha@example.com");
  const cafe = await signIn(t, "asha@example.com");
  const phone = await signIn(t, "asha@example.com");
  const someoneElse = await createTestUser(t);
  const key = ["sessions", await sha256Hex(phone.slice(phone.indexOf("=") + 1))];
  const before = (await t.kv.get<Session>(key)).value!;
  const res = await t.json("POST", "/api/auth/revoke-other-sessions", { headers: { cookie: phone } });
  assertEquals([res.status, await res.json(), res.headers.get("set-cookie")], [200, { status: true }, null]);
  assertEquals([await signedIn(t, laptop), await signedIn(t, cafe)], [false, false]);
  assertEquals([await signedIn(t, phone), await signedIn(t, someoneElse.cookie)], [true, true]);
  const after = (await t.kv.get<Session>(key)).value!;
  assertEquals([after.createdAt, after.expiresAt], [before.createdAt, before.expiresAt], "its times unchanged");
  assertEquals(await signedIn(t, await signIn(t, "asha@example.com")), true, "a later sign-in is a live session");
  assertEquals((await Array.fromAsync(t.kv.list({ prefix: ["sessions_by_user", user.id] }))).length, 2);
});

Deno.test("revoke-other-sessions without a session, or with one it ended, is 401 UNAUTHORIZED", async () => {
  await using t = await createTestApp();
  await passwordUser(t, { email: "asha@example.com" });
  const laptop = await signIn(t, "asha@example.com");
  const phone = await signIn(t, "asha@example.com");
  await (await t.json("POST", "/api/auth/revoke-other-sessions", { headers: { cookie: phone } })).body?.cancel();
  for (const headers of [{}, { cookie: laptop }] as Record<string, string>[]) {
    const res = await t.json("POST", "/api/auth/revoke-other-sessions", { headers });
    assertEquals(res.status, 401);
    assertEquals((await res.json()).code, "UNAUTHORIZED");
  }
  assertEquals(await signedIn(t, phone), true);
});

Deno.test("the profile's plain form signs out everywhere else and says so, in English and Hindi", async () => {
  await using t = await createTestApp();
  await passwordUser(t, { email: "asha@example.com" });
  const laptop = await signIn(t, "asha@example.com");
  const phone = await signIn(t, "asha@example.com");
  const page = await (await t.fetch("/profile", { headers: { cookie: phone } })).text();
  assert(page.includes('action="/profile/sign-out-others"') && page.includes("Sign out everywhere else"));
  const res = await t.fetch("/profile/sign-out-others", {
    method: "POST",
    headers: { cookie: phone, origin: t.origin, "content-type": "application/x-www-form-urlencoded" },
    body: "",
    redirect: "manual",
  });
  assertEquals([res.status, res.headers.get("location")], [303, "/profile?signedOutOthers=1#sessions"]);
  await res.body?.cancel();
  assertEquals([await signedIn(t, laptop), await signedIn(t, phone)], [false, true]);
  for (const [lang, words] of [["en", "You are now signed out everywhere else."], ["hi", "अब आप बाकी सब जगह से"]]) {
    const done = await t.fetch("/profile?signedOutOthers=1", { headers: { cookie: `${phone}; lang=${lang}` } });
    assert((await done.text()).includes(words), lang);
  }
});

/** `t.kv` whose `getMany` runs `after` (with the keys read) once each read is done; returns the undo. */
function afterGetMany(t: TestApp, after: (keys: Deno.KvKey[]) => Promise<void>): () => void {
  const kv = t.kv as unknown as { getMany: Deno.Kv["getMany"] };
  const real = kv.getMany.bind(t.kv);
  kv.getMany = (async (keys: Deno.KvKey[], options?: { consistency?: Deno.KvConsistencyLevel }) => {
    const read = await real(keys, options);
    await after(keys);
    return read;
  }) as Deno.Kv["getMany"];
  return () => kv.getMany = real;
}

Deno.test("the plain form sends to sign in, claiming nothing, when the session ended between the check and the write", async () => {
  await using t = await createTestApp();
  await passwordUser(t, { email: "asha@example.com" });
  const laptop = await signIn(t, "asha@example.com");
  const phone = await signIn(t, "asha@example.com");
  const hash = await sha256Hex(decodeURIComponent(phone.slice(phone.indexOf("=") + 1)));
  let reads = 0;
  // The request's own lookup reads the session first; it ends right after, before `endOtherSessions` reads it again.
  const undo = afterGetMany(t, async (keys) => {
    if (keys[0]?.[0] === "sessions" && keys[0][1] === hash && ++reads === 1) await t.kv.delete(["sessions", hash]);
  });
  const res = await t.fetch("/profile/sign-out-others", {
    method: "POST",
    headers: {
      cookie: phone,
      origin: t.origin,
      accept: "text/html",
      "content-type": "application/x-www-form-urlencoded",
    },
    body: "",
    redirect: "manual",
  });
  undo();
  await res.body?.cancel();
  assertEquals(reads, 2);
  assertEquals(res.status, 302, "as a guest is sent");
  assertMatch(res.headers.get("location") ?? "", /^\/sign-in/);
  assertEquals(await signedIn(t, laptop), true, "nothing was ended");
});

Deno.test("ending the other sessions gives up with ConflictError after a few lost races, as createSession does", async () => {
  await using t = await createTestApp();
  const user = await passwordUser(t, { email: "asha@example.com" });
  const phone = await signIn(t, "asha@example.com");
  const token = decodeURIComponent(phone.slice(phone.indexOf("=") + 1));
  let bumps = 0;
  // Another writer changes the user record after every read, for far more tries than the bound (then stops).
  const undo = afterGetMany(t, async (keys) => {
    if (keys[1]?.[1] === user.id && bumps < 50) await updateUser(t.kv, user.id, { name: `Asha ${++bumps}` });
  });
  await assertRejects(() => endOtherSessions(t.kv, token), ConflictError);
  undo();
  assert(bumps < 50, `${bumps} reads`);
});

Deno.test("a write whose body is still arriving when its session is signed out of, replaced or expired is 401 once it has arrived", async () => {
  await using t = await createTestApp();
  const [internship] = await addInternships(t, await createTestUser(t, "member"), [{}]);
  const path = `/api/me/saved/internships/${internship.id}`;
  const other = await passwordUser(t, { email: "bina@example.com" });
  const cases: [string, (cookie: string) => Promise<void>][] = [
    ["signed out", async (cookie) => {
      const res = await t.json("POST", "/api/auth/sign-out", { headers: { cookie } });
      assertEquals(res.status, 200);
      await res.body?.cancel();
    }],
    ["signed in over by another person", async (cookie) => {
      const res = await t.json("POST", "/api/auth/sign-in/email", {
        body: { email: other.email, password: PASSWORD },
        headers: { cookie },
      });
      assertEquals(res.status, 200);
      await res.body?.cancel();
    }],
    ["expired", async (cookie) => {
      const key = ["sessions", await sha256Hex(cookie.slice("session=".length))];
      const stored = (await t.kv.get<Session>(key)).value!;
      await t.kv.set(key, { ...stored, expiresAt: new Date(Date.now() - 1000).toISOString() });
    }],
  ];
  for (const [change, make] of cases) {
    const { user, cookie } = await createTestUser(t);
    const { reading, release, response } = slowPut(t, path, cookie, { note: `written after ${change}` });
    await reading;
    await make(cookie);
    release();
    const res = await response;
    assertEquals(res.status, 401, change);
    assertEquals(await res.json(), { error: "Unauthorized" }, change);
    const { token } = await createSession(t.kv, user.id);
    const saved = await t.fetch("/api/me/saved", { headers: { cookie: `session=${token}` } });
    assertEquals((await saved.json()).items, [], `${change}: nothing stored`);
  }
  // The same slow body from a session that still holds is stored.
  const { cookie } = await createTestUser(t);
  const { reading, release, response } = slowPut(t, path, cookie, { note: "kept" });
  await reading;
  release();
  const res = await response;
  assertEquals(res.status, 200);
  assertEquals((await res.json()).item.note, "kept");
  const saved = await t.fetch("/api/me/saved", { headers: { cookie } });
  assertEquals((await saved.json()).items.map((item: { note: string }) => item.note), ["kept"]);
});
