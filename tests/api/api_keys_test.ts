import { assert, assertEquals, assertMatch } from "@/tests/helpers/assert.ts";
import { createTestApp, createTestUser, type TestApp, type TestUser } from "@/tests/helpers/app.ts";
import { internshipBody } from "@/tests/fixtures/internships.ts";
import { REVOKE_BATCH } from "@/lib/api_keys/api_keys.ts";
import type { RouteDocs } from "@/lib/openapi/describe.ts";
import manifest from "@/routes.gen.ts";

async function newKey(t: TestApp, admin: TestUser, name = "Job board sync"): Promise<{ id: string; key: string }> {
  const res = await t.json("POST", "/api/admin/api-keys", { body: { name }, headers: admin.headers });
  assertEquals(res.status, 201);
  const body = await res.json();
  return { id: body.apiKey.id, key: body.key };
}

function postWithKey(t: TestApp, key: string, body: unknown): Promise<Response> {
  return t.fetch("/api/internships", {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
}

/**
 * A POST with `key` whose body, of a declared length, sends its first bytes when the server first reads it, then the
 * rest once `release` is called (a slow link): `sent` resolves when the server has begun to read the body (past the
 * handler's own look at the key), `response` once the whole exchange is over.
 */
function slowPostWithKey(t: TestApp, key: string, body: unknown) {
  const bytes = new TextEncoder().encode(JSON.stringify(body));
  let release!: () => void;
  const rest = new Promise<void>((resolve) => release = resolve);
  let sentFirst!: () => void;
  const sent = new Promise<void>((resolve) => sentFirst = resolve);
  let pulls = 0;
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (pulls++ === 0) {
        controller.enqueue(bytes.slice(0, 20));
        return sentFirst();
      }
      await rest;
      controller.enqueue(bytes.slice(20));
      controller.close();
    },
  }, { highWaterMark: 0 });
  const response = t.fetch("/api/internships", {
    method: "POST",
    headers: {
      authorization: `Bearer ${key}`,
      "content-type": "application/json",
      "content-length": String(bytes.byteLength),
    },
    body: stream,
    duplex: "half",
  } as RequestInit);
  return { sent, release, response };
}

/** How many internship records the store holds. */
async function internshipCount(t: TestApp): Promise<number> {
  let count = 0;
  for await (const _ of t.kv.list({ prefix: ["internships"] })) count++;
  return count;
}

Deno.test("POST /api/admin/api-keys: 201 shows the key once; the list never shows it", async () => {
  await using t = await createTestApp();
  const admin = await createTestUser(t, "admin");
  const res = await t.json("POST", "/api/admin/api-keys", { body: { name: " Partner feed " }, headers: admin.headers });
  assertEquals(res.status, 201);
  assertMatch(res.headers.get("content-type") ?? "", /application\/json/);
  const { apiKey, key } = await res.json();
  assertEquals(Object.keys(apiKey).sort(), ["createdAt", "id", "name"]);
  assertEquals(apiKey.name, "Partner feed");
  assertMatch(key, /^ck_[A-Za-z0-9_-]{43}$/);
  const list = await t.fetch("/api/admin/api-keys", { headers: admin.headers });
  assertEquals(list.status, 200);
  const body = await list.json();
  assertEquals(body, { apiKeys: [apiKey] });
  assert(!JSON.stringify(body).includes(key.slice(3)));
  const stored: string[] = [];
  for await (const entry of t.kv.list({ prefix: [] })) {
    stored.push(JSON.stringify(entry, (_, v) => typeof v === "bigint" ? String(v) : v));
  }
  assert(!stored.some((s) => s.includes(key.slice(3))), "the key itself is not stored");
});

Deno.test("/api/admin/api-keys: bad names are 400; guests 401, users and members 403", async () => {
  await using t = await createTestApp();
  const admin = await createTestUser(t, "admin");
  for (const body of [{}, { name: "" }, { name: "   " }, { name: 5 }, { name: "x".repeat(101) }]) {
    const res = await t.json("POST", "/api/admin/api-keys", { body, headers: admin.headers });
    assertEquals(res.status, 400, JSON.stringify(body));
    await res.body?.cancel();
  }
  assertEquals((await t.fetch("/api/admin/api-keys")).status, 401);
  for (const role of ["user", "member"] as const) {
    const who = await createTestUser(t, role);
    const list = await t.fetch("/api/admin/api-keys", { headers: who.headers });
    assertEquals(list.status, 403);
    await list.body?.cancel();
    const create = await t.json("POST", "/api/admin/api-keys", { body: { name: "x" }, headers: who.headers });
    assertEquals(create.status, 403);
    await create.body?.cancel();
  }
});

Deno.test("POST /api/internships with an API key: owned by the admin who created the key, no Origin needed", async () => {
  await using t = await createTestApp();
  const admin = await createTestUser(t, "admin", { name: "Key Admin" });
  const { key } = await newKey(t, admin);
  const res = await postWithKey(t, key, [internshipBody(), internshipBody({ title: "Two" })]);
  assertEquals(res.status, 201);
  const body = await res.json();
  assertEquals(body.count, 2);
  for (const item of body.data) {
    assertEquals(item.userId, admin.user.id);
    assertEquals(item.user, { id: admin.user.id, name: "Key Admin", image: null, role: "admin" });
  }
});

Deno.test("a listing posted with a key reads as imported, not as the admin's; one posted with a session as before", async () => {
  await using t = await createTestApp();
  const admin = await createTestUser(t, "admin", { name: "Key Admin" });
  const { key } = await newKey(t, admin);
  const imported = (await (await postWithKey(t, key, internshipBody({ title: "Fed" }))).json()).data;
  const posted = await t.json("POST", "/api/internships", { body: internshipBody(), headers: admin.headers });
  assertEquals(posted.status, 201);
  const own = (await posted.json()).data;
  assertEquals([imported.viaApiKey, own.viaApiKey], [true, false]);
  // What a guest reads on each listing's page.
  const text = async (id: string) => (await (await t.fetch(`/internships/${id}`)).text()).replace(/<[^>]+>/g, "");
  assertMatch(await text(imported.id), /Not written by our team: imported automatically on/);
  assert(!(await text(imported.id)).includes("Key Admin"), "the admin is not named as the listing's writer");
  assertMatch(await text(own.id), /Posted by Key Admin admin on/);
});

Deno.test("POST /api/internships: an unknown or malformed key is 401 even with a member session", async () => {
  await using t = await createTestApp();
  const member = await createTestUser(t, "member");
  for (const authorization of ["Bearer ck_nope", "Bearer", "Basic abc", ""]) {
    const res = await t.fetch("/api/internships", {
      method: "POST",
      headers: { ...member.headers, authorization, "content-type": "application/json" },
      body: JSON.stringify(internshipBody()),
    });
    assertEquals(res.status, 401, authorization);
    assertEquals(typeof (await res.json()).error, "string");
  }
});

Deno.test("DELETE /api/admin/api-keys/{id}: a revoked key gets 401 at once; unknown id 404", async () => {
  await using t = await createTestApp();
  const admin = await createTestUser(t, "admin");
  const { id, key } = await newKey(t, admin);
  const keep = await newKey(t, admin, "Other");
  const first = await postWithKey(t, key, internshipBody());
  assertEquals(first.status, 201);
  await first.body?.cancel();
  const revoke = await t.json("DELETE", `/api/admin/api-keys/${id}`, { headers: admin.headers });
  assertEquals(revoke.status, 200);
  assertEquals(await revoke.json(), { success: true });
  const after = await postWithKey(t, key, internshipBody());
  assertEquals(after.status, 401);
  await after.body?.cancel();
  const list = await (await t.fetch("/api/admin/api-keys", { headers: admin.headers })).json();
  assertEquals(list.apiKeys.map((k: { id: string }) => k.id), [keep.id]);
  const again = await t.json("DELETE", `/api/admin/api-keys/${id}`, { headers: admin.headers });
  assertEquals(again.status, 404);
  await again.body?.cancel();
});

Deno.test("an API key stops working when its admin is no longer an admin", async () => {
  await using t = await createTestApp();
  const admin = await createTestUser(t, "admin");
  const { key } = await newKey(t, admin);
  const user = (await t.kv.get<Record<string, unknown>>(["users", admin.user.id])).value!;
  await t.kv.set(["users", admin.user.id], { ...user, role: "member" });
  const res = await postWithKey(t, key, internshipBody());
  assertEquals(res.status, 401);
  await res.body?.cancel();
});

Deno.test("an API key of an admin whose address is not verified gets 401", async () => {
  await using t = await createTestApp();
  const admin = await createTestUser(t, "admin");
  const { key } = await newKey(t, admin);
  const user = (await t.kv.get<Record<string, unknown>>(["users", admin.user.id])).value!;
  await t.kv.set(["users", admin.user.id], { ...user, emailVerified: false });
  const res = await postWithKey(t, key, internshipBody());
  assertEquals(res.status, 401);
  await res.body?.cancel();
});

Deno.test("an API key of a suspended account gets 401, however the suspension was stored", async () => {
  await using t = await createTestApp();
  const admin = await createTestUser(t, "admin");
  const { key } = await newKey(t, admin);
  const user = (await t.kv.get<Record<string, unknown>>(["users", admin.user.id])).value!;
  const suspension = { at: new Date().toISOString(), reason: "A scam", by: null };
  await t.kv.set(["users", admin.user.id], { ...user, suspension });
  const res = await postWithKey(t, key, internshipBody());
  assertEquals(res.status, 401);
  await res.body?.cancel();
});

Deno.test("demoting an admin revokes their API keys: promoted again, the keys still get 401", async () => {
  await using t = await createTestApp();
  const [root, admin] = [await createTestUser(t, "admin"), await createTestUser(t, "admin")];
  const kept = await newKey(t, root, "Root's feed");
  const revoked = [];
  // More keys than one atomic write revokes.
  for (let i = 0; i < REVOKE_BATCH + 2; i++) revoked.push(await newKey(t, admin, `Feed ${i}`));
  const setRole = async (role: string) => {
    const res = await t.json("PATCH", `/api/admin/users/${admin.user.id}`, { body: { role }, headers: root.headers });
    assertEquals(res.status, 200, role);
    await res.body?.cancel();
  };
  await setRole("member");
  await setRole("admin");
  for (const { key } of revoked) {
    const res = await postWithKey(t, key, internshipBody());
    assertEquals(res.status, 401);
    await res.body?.cancel();
  }
  const list = await (await t.fetch("/api/admin/api-keys", { headers: root.headers })).json();
  assertEquals(list.apiKeys.map((k: { id: string }) => k.id), [kept.id]);
  const res = await postWithKey(t, kept.key, internshipBody());
  assertEquals(res.status, 201, "another admin's key keeps working");
  await res.body?.cancel();
});

Deno.test("a key created while its admin is being demoted never outlives the demotion (30 runs)", async () => {
  await using t = await createTestApp();
  const root = await createTestUser(t, "admin");
  for (let run = 0; run < 30; run++) {
    const admin = await createTestUser(t, "admin");
    const [created, demoted] = await Promise.all([
      t.json("POST", "/api/admin/api-keys", { body: { name: "Racing feed" }, headers: admin.headers }),
      t.json("PATCH", `/api/admin/users/${admin.user.id}`, { body: { role: "member" }, headers: root.headers }),
    ]);
    assertEquals(demoted.status, 200, `run ${run}`);
    await demoted.body?.cancel();
    const body = await created.json();
    assert(created.status === 201 || created.status === 403, `run ${run}: ${created.status}`);
    const promoted = await t.json("PATCH", `/api/admin/users/${admin.user.id}`, {
      body: { role: "admin" },
      headers: root.headers,
    });
    await promoted.body?.cancel();
    if (created.status === 201) {
      const res = await postWithKey(t, body.key, internshipBody());
      assertEquals(res.status, 401, `run ${run}: the key works again after re-promotion`);
      await res.body?.cancel();
    }
  }
});

Deno.test("a write whose body is still arriving when its key is revoked, or its owner deleted or suspended, is 401 once it has arrived", async () => {
  await using t = await createTestApp();
  const root = await createTestUser(t, "admin");
  const cases: [string, (admin: TestUser, id: string) => Promise<void>][] = [
    ["revoked", async (_, id) => {
      const res = await t.json("DELETE", `/api/admin/api-keys/${id}`, { headers: root.headers });
      assertEquals(res.status, 200);
      await res.body?.cancel();
    }],
    ["deleted", async (admin) => {
      const res = await t.json("DELETE", "/api/me", { body: { confirm: admin.user.email }, headers: admin.headers });
      assertEquals(res.status, 200);
      await res.body?.cancel();
      await t.settled();
    }],
    ["suspended", async (admin) => {
      // Stored as an admin suspended before suspension refused admins was (the record as it could be).
      const user = (await t.kv.get<Record<string, unknown>>(["users", admin.user.id])).value!;
      const suspension = { at: new Date().toISOString(), reason: "A scam", by: root.user.id };
      await t.kv.set(["users", admin.user.id], { ...user, suspension });
    }],
  ];
  for (const [change, make] of cases) {
    const admin = await createTestUser(t, "admin");
    const { id, key } = await newKey(t, admin);
    const { sent, release, response } = slowPostWithKey(t, key, internshipBody({ title: `Fed while ${change}` }));
    await sent;
    await make(admin, id);
    release();
    const res = await response;
    assertEquals(res.status, 401, change);
    assertEquals(await res.json(), { error: "Invalid API key" }, change);
    assertEquals(await internshipCount(t), 0, `${change}: nothing stored`);
  }
  // The same slow body with a key that still holds is stored.
  const { key } = await newKey(t, root);
  const { sent, release, response } = slowPostWithKey(t, key, internshipBody());
  await sent;
  release();
  const res = await response;
  assertEquals(res.status, 201);
  await res.body?.cancel();
  assertEquals(await internshipCount(t), 1);
});

Deno.test("every route whose apiDocs admit an API key declares routeOptions apiKey, and only those", () => {
  const routes = Object.entries(manifest.routes).map(([file, mod]) => {
    const { apiDocs, routeOptions } = mod as { apiDocs?: RouteDocs; routeOptions?: { apiKey?: boolean } };
    const admits = Object.values(apiDocs ?? {}).some((doc) =>
      typeof doc === "object" && doc.access?.includes("apiKey")
    );
    return { file, admits, declares: routeOptions?.apiKey === true };
  });
  assert(
    routes.some((route) => route.file === "./routes/api/internships/index.ts" && route.admits),
    "ingest admits keys",
  );
  assertEquals(routes.filter((route) => route.admits !== route.declares), []);
});
