import { assert, assertEquals } from "@/tests/helpers/assert.ts";
import { createTestApp, createTestUser, postForm, type TestApp, type TestUser } from "@/tests/helpers/app.ts";
import { getUser, updateUser } from "@/lib/users/users.ts";
import { ROLE_SENTENCE } from "@/lib/users/admin.ts";
import { platformInternship } from "@/tests/fixtures/applications.ts";
import { htmlDocument } from "@/tests/fixtures/html.ts";

const ROW_KEYS = ["commentRemoval", "createdAt", "email", "emailVerified", "id", "image", "name", "role", "suspension"];

async function list(t: TestApp, admin: TestUser, query = ""): Promise<Response> {
  return await t.fetch(`/api/admin/users${query}`, { headers: admin.headers });
}

async function patch(t: TestApp, admin: TestUser, id: string, body: unknown): Promise<Response> {
  return await t.json("PATCH", `/api/admin/users/${encodeURIComponent(id)}`, {
    body,
    headers: { cookie: admin.cookie },
  });
}

/** Creates users one millisecond apart so that newest-first order is defined. */
async function createUsers(t: TestApp, specs: { name: string; email: string; role?: "user" | "member" | "admin" }[]) {
  const made: TestUser[] = [];
  for (const spec of specs) {
    made.push(await createTestUser(t, spec.role ?? "user", spec));
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
  return made;
}

Deno.test("guests get 401 and users and members 403 on the admin user endpoints", async () => {
  await using t = await createTestApp();
  const target = await createTestUser(t);
  const guestList = await t.fetch("/api/admin/users");
  assertEquals(guestList.status, 401);
  assertEquals(guestList.headers.get("content-type"), "application/json");
  assertEquals(await guestList.json(), { error: "Unauthorized" });
  assertEquals((await t.json("PATCH", `/api/admin/users/${target.user.id}`, { body: { role: "admin" } })).status, 401);
  for (const role of ["user", "member"] as const) {
    const who = await createTestUser(t, role);
    const res = await list(t, who);
    assertEquals(res.status, 403, role);
    assertEquals(await res.json(), { error: "Forbidden" });
    assertEquals((await patch(t, who, target.user.id, { role: "admin" })).status, 403, role);
    assertEquals((await patch(t, who, who.user.id, { role: "admin" })).status, 403, role);
  }
  assertEquals((await getUser(t.kv, target.user.id))?.role, "user");
});

Deno.test("admins list users newest first with exactly the row fields and pagination", async () => {
  await using t = await createTestApp();
  const [a, b] = await createUsers(t, [
    { name: "Asha", email: "asha@example.com" },
    { name: "Bilal", email: "bilal@example.com", role: "member" },
  ]);
  const admin = await createTestUser(t, "admin", { name: "Root", email: "root@example.com" });
  const res = await list(t, admin);
  assertEquals(res.status, 200);
  assertEquals(res.headers.get("content-type"), "application/json");
  const body = await res.json();
  assertEquals(Object.keys(body).sort(), ["more", "pagination", "users"]);
  assertEquals(body.pagination, { limit: 50, offset: 0, total: 3, hasMore: false });
  assertEquals(body.more, false);
  assertEquals(body.users.map((u: { email: string }) => u.email), [admin.user.email, b.user.email, a.user.email]);
  for (const row of body.users) assertEquals(Object.keys(row).sort(), ROW_KEYS);
  assertEquals(body.users[1], {
    id: b.user.id,
    name: "Bilal",
    email: "bilal@example.com",
    role: "member",
    image: null,
    createdAt: b.user.createdAt,
    emailVerified: true,
    suspension: null,
    commentRemoval: null,
  });
});

Deno.test("search matches the name or the e-mail, case-insensitively, every word", async () => {
  await using t = await createTestApp();
  await createUsers(t, [
    { name: "Asha Rao", email: "asha@college.edu" },
    { name: "Bilal Khan", email: "bk@startup.io" },
    { name: "Chitra Rao", email: "chitra@startup.io" },
  ]);
  const admin = await createTestUser(t, "admin", { name: "Root", email: "root@example.com" });
  const names = async (query: string) => {
    const res = await list(t, admin, query);
    assertEquals(res.status, 200, query);
    const body = await res.json();
    assertEquals(body.pagination.total, body.users.length, query);
    return body.users.map((u: { name: string }) => u.name);
  };
  assertEquals(await names("?search=rao"), ["Chitra Rao", "Asha Rao"]);
  assertEquals(await names("?search=STARTUP.IO"), ["Chitra Rao", "Bilal Khan"]);
  assertEquals(await names("?search=chitra%20startup"), ["Chitra Rao"]);
  assertEquals(await names("?search=%20%20"), ["Root", "Chitra Rao", "Bilal Khan", "Asha Rao"]);
  assertEquals(await names("?search=nobody"), []);
});

Deno.test("role filters the list and combines with search", async () => {
  await using t = await createTestApp();
  await createUsers(t, [
    { name: "Asha", email: "asha@example.com", role: "member" },
    { name: "Bilal", email: "bilal@example.com" },
    { name: "Ashok", email: "ashok@example.com" },
  ]);
  const admin = await createTestUser(t, "admin", { name: "Root", email: "root@example.com" });
  const names = async (query: string) =>
    (await (await list(t, admin, query)).json()).users.map((u: { name: string }) => u.name);
  assertEquals(await names("?role=member"), ["Asha"]);
  assertEquals(await names("?role=user"), ["Ashok", "Bilal"]);
  assertEquals(await names("?role=admin"), ["Root"]);
  assertEquals(await names("?role=user&search=ash"), ["Ashok"]);
});

Deno.test("the /admin/users page renders the search, role and offset of its query; a refused value, the first page", async () => {
  await using t = await createTestApp();
  await createUsers(t, [
    { name: "Asha Rao", email: "asha@example.com", role: "member" },
    { name: "Bilal Khan", email: "bilal@example.com" },
    { name: "Ashok Nair", email: "ashok@example.com" },
  ]);
  const admin = await createTestUser(t, "admin", { name: "Root", email: "root@example.com" });
  const page = async (query: string) => {
    const res = await t.fetch(`/admin/users${query}`, { headers: admin.headers });
    assertEquals(res.status, 200, query);
    const html = await res.text();
    return ["Asha Rao", "Bilal Khan", "Ashok Nair"].filter((name) => html.includes(`>${name}<`));
  };
  assertEquals(await page("?search=ash"), ["Asha Rao", "Ashok Nair"]);
  assertEquals(await page("?search=ash&role=user"), ["Ashok Nair"]);
  assertEquals(await page("?offset=3"), ["Asha Rao"]);
  for (const refused of ["?role=superadmin", "?offset=-1", `?search=${"x".repeat(101)}`]) {
    assertEquals(await page(refused), ["Asha Rao", "Bilal Khan", "Ashok Nair"], refused);
  }
});

Deno.test("/admin/users links and forms carry no default offset: the first page's address has none", async () => {
  await using t = await createTestApp();
  await createUsers(
    t,
    Array.from({ length: 25 }, (_, i) => ({ name: `Student ${i}`, email: `student${i}@example.com` })),
  );
  const admin = await createTestUser(t, "admin");
  const addresses = async (query: string) => {
    const res = await t.fetch(`/admin/users${query}`, { headers: admin.headers });
    assertEquals(res.status, 200, query);
    const doc = htmlDocument(await res.text());
    const main = doc.querySelector("main")!;
    return {
      all: [...main.querySelectorAll("a[href], form[action]")].map((e) =>
        e.getAttribute("href") ?? e.getAttribute("action")
      ),
      next: main.querySelector('a[rel="next"]')?.getAttribute("href"),
      prev: main.querySelector('a[rel="prev"]')?.getAttribute("href"),
    };
  };
  for (const query of ["", "?role=user", "?search=student", "?suspended=1"]) {
    const { all } = await addresses(query);
    assert(all.length > 0 && all.every((address) => !/[?&]offset=0(&|$)/.test(address!)), `${query}: ${all}`);
  }
  const first = await addresses("?role=user");
  assertEquals(first.next, "/admin/users?role=user&offset=20");
  const second = await addresses("?role=user&offset=20");
  assertEquals(second.prev, "/admin/users?role=user");
  const forms = (await addresses("?offset=20")).all.filter((address) => address!.includes("offset"));
  assert(forms.length > 0 && forms.every((address) => address === "/admin/users?offset=20"), `${forms}`);
});

Deno.test("limit and offset page through the matches; total and hasMore describe the rest", async () => {
  await using t = await createTestApp();
  const made = await createUsers(
    t,
    Array.from({ length: 5 }, (_, i) => ({ name: `Student ${i}`, email: `s${i}@example.com` })),
  );
  const admin = await createTestUser(t, "admin", { name: "Root", email: "root@example.com" });
  const page = async (query: string) => await (await list(t, admin, `?search=student&${query}`)).json();
  const first = await page("limit=2");
  assertEquals(first.pagination, { limit: 2, offset: 0, total: 5, hasMore: true });
  assertEquals(first.users.map((u: { id: string }) => u.id), [made[4].user.id, made[3].user.id]);
  const last = await page("limit=2&offset=4");
  assertEquals(last.pagination, { limit: 2, offset: 4, total: 5, hasMore: false });
  assertEquals(last.users.map((u: { id: string }) => u.id), [made[0].user.id]);
  const beyond = await page("limit=2&offset=50");
  assertEquals([beyond.users, beyond.pagination.hasMore, beyond.pagination.total], [[], false, 5]);
  assertEquals((await page("limit=100")).users.length, 5);
});

Deno.test("an invalid list query is 400 with the zod issue array", async () => {
  await using t = await createTestApp();
  const admin = await createTestUser(t, "admin");
  for (
    const [query, path] of [
      ["limit=0", "limit"],
      ["limit=101", "limit"],
      ["limit=abc", "limit"],
      ["limit=1.5", "limit"],
      ["limit=-1", "limit"],
      ["limit=", "limit"],
      ["offset=-1", "offset"],
      ["offset=x", "offset"],
      [`offset=${"9".repeat(400)}`, "offset"],
      ["role=superadmin", "role"],
      [`search=${"x".repeat(101)}`, "search"],
    ]
  ) {
    const res = await list(t, admin, `?${query}`);
    assertEquals(res.status, 400, query);
    assertEquals(res.headers.get("content-type"), "application/json");
    const { error } = await res.json();
    assert(Array.isArray(error) && error.length > 0, query);
    assertEquals(Object.keys(error[0]).sort(), ["code", "message", "path"]);
    assertEquals(error[0].path, [path], query);
  }
});

Deno.test("an admin changes another user's role and gets {user: {id, name, email, role}, closedListings, finishing}", async () => {
  await using t = await createTestApp();
  const admin = await createTestUser(t, "admin");
  const target = await createTestUser(t, "user", { name: "Asha", email: "asha@example.com" });
  for (const role of ["member", "admin", "user"]) {
    const res = await patch(t, admin, target.user.id, { role });
    assertEquals(res.status, 200, role);
    assertEquals(res.headers.get("content-type"), "application/json");
    const user = { id: target.user.id, name: "Asha", email: "asha@example.com", role };
    assertEquals(await res.json(), { user, closedListings: 0, finishing: false });
    assertEquals((await getUser(t.kv, target.user.id))?.role, role);
  }
});

Deno.test("the new role applies at the target's next request on the same session", async () => {
  await using t = await createTestApp();
  const admin = await createTestUser(t, "admin");
  const target = await createTestUser(t, "user");
  assertEquals((await list(t, target)).status, 403);
  assertEquals((await patch(t, admin, target.user.id, { role: "admin" })).status, 200);
  assertEquals((await list(t, target)).status, 200);
  assertEquals((await patch(t, admin, target.user.id, { role: "member" })).status, 200);
  assertEquals((await list(t, target)).status, 403);
});

Deno.test("an admin cannot change their own role", async () => {
  await using t = await createTestApp();
  const admin = await createTestUser(t, "admin");
  for (const role of ["user", "member", "admin"]) {
    const res = await patch(t, admin, admin.user.id, { role });
    assertEquals(res.status, 403, role);
    assertEquals(res.headers.get("content-type"), "application/json");
    assertEquals(await res.json(), { error: "You cannot change your own role" });
  }
  assertEquals((await getUser(t.kv, admin.user.id))?.role, "admin");
});

Deno.test("an unknown user id is 404 User not found", async () => {
  await using t = await createTestApp();
  const admin = await createTestUser(t, "admin");
  for (const id of [crypto.randomUUID(), "nope", "x".repeat(900)]) {
    const res = await patch(t, admin, id, { role: "member" });
    assertEquals(res.status, 404, id.slice(0, 20));
    assertEquals(res.headers.get("content-type"), "application/json");
    assertEquals(await res.json(), { error: "User not found" });
  }
});

Deno.test("a missing or bad role is 400 naming the allowed roles, and nothing changes", async () => {
  await using t = await createTestApp();
  const admin = await createTestUser(t, "admin");
  const target = await createTestUser(t, "member");
  for (
    const body of [
      {},
      { role: "superadmin" },
      { role: "Admin" },
      { role: "" },
      { role: null },
      { role: ["admin"] },
      [],
      null,
    ]
  ) {
    const res = await patch(t, admin, target.user.id, body);
    assertEquals(res.status, 400, JSON.stringify(body));
    assertEquals(res.headers.get("content-type"), "application/json");
    const fields = Array.isArray(body) || body === null ? {} : {
      fields: [{
        field: "role",
        message: "Choose one of the roles: user, member or admin.",
        messageKey: ROLE_SENTENCE.key,
      }],
    };
    assertEquals(await res.json(), { error: "Role must be one of: user, member, admin", ...fields });
  }
  assertEquals((await getUser(t.kv, target.user.id))?.role, "member");
});

Deno.test("/admin/users changes a role with a plain form: 303 back with its notice, or the refusal at the row", async () => {
  await using t = await createTestApp();
  const admin = await createTestUser(t, "admin");
  const asha = await createTestUser(t, "user", { name: "Asha Rao" });
  const change = (userId: string, role: string, headers = {}, page = "/admin/users") =>
    postForm(t, admin, page, { userId, action: "role", role }, headers);

  const done = await change(asha.user.id, "member");
  assertEquals([done.status, done.headers.get("location")], [303, `/admin/users?done=role&user=${asha.user.id}`]);
  assertEquals((await getUser(t.kv, asha.user.id))?.role, "member");
  const page = (lang: string) => t.fetch(`${done.headers.get("location")}&lang=${lang}`, { headers: admin.headers });
  assert((await (await page("en")).text()).includes("Asha Rao is now a member."));
  assert((await (await page("hi")).text()).includes("Asha Rao अब मेंबर हैं।"));
  await platformInternship(t, asha);
  const back = await change(asha.user.id, "user", {}, "/admin/users?suspended=1");
  const closed = `/admin/users?done=role&user=${asha.user.id}&closed=1&suspended=1`;
  assertEquals(back.headers.get("location"), closed, "made a user, her listing taking applications closed");
  const said = async (lang: string) =>
    await (await t.fetch(`${closed}&lang=${lang}`, { headers: admin.headers })).text();
  assert((await said("en")).includes("1 open listing of theirs that takes applications here was closed"));
  assert((await said("hi")).includes("यहाँ आवेदन लेने वाली उनकी 1 खुली लिस्टिंग बंद कर दी गई"));
  const again = await change(asha.user.id, "user");
  assertEquals(again.headers.get("location"), `/admin/users?done=role&user=${asha.user.id}`, "nothing left to close");

  const bad = await change(asha.user.id, "superadmin");
  assertEquals(bad.status, 400);
  const badPage = await bad.text();
  assert(badPage.includes(`id="role-${asha.user.id}-error"`) && badPage.includes("Choose one of the roles"));
  const own = await change(admin.user.id, "user");
  assertEquals(own.status, 403);
  assert((await own.text()).includes("You cannot change your own role"));
  const nobody = await change(crypto.randomUUID(), "member");
  assertEquals(nobody.status, 404);
  await nobody.body?.cancel();
  await updateUser(t.kv, asha.user.id, { suspension: { at: new Date().toISOString(), reason: "A scam", by: null } });
  const hindi = await change(asha.user.id, "admin", { "accept-language": "hi-IN,hi;q=0.9" });
  assertEquals(hindi.status, 409);
  const hindiPage = await hindi.text();
  assert(hindiPage.includes("रोल नहीं बदला") && hindiPage.includes(`id="role-${asha.user.id}-error"`), "in Hindi");
  assertEquals((await getUser(t.kv, asha.user.id))?.role, "user", "nothing changed by a refused form");
});

Deno.test("malformed JSON on a role change is 400 Invalid JSON body", async () => {
  await using t = await createTestApp();
  const admin = await createTestUser(t, "admin");
  const target = await createTestUser(t);
  const res = await t.fetch(`/api/admin/users/${target.user.id}`, {
    method: "PATCH",
    headers: { ...admin.headers, "content-type": "application/json" },
    body: "{role:",
  });
  assertEquals(res.status, 400);
  assertEquals(await res.json(), { error: "Invalid JSON body" });
});

Deno.test("a role change from a foreign origin with the admin's cookie is refused", async () => {
  await using t = await createTestApp();
  const admin = await createTestUser(t, "admin");
  const target = await createTestUser(t);
  const res = await t.fetch(`/api/admin/users/${target.user.id}`, {
    method: "PATCH",
    headers: { cookie: admin.cookie, origin: "https://evil.example", "content-type": "application/json" },
    body: JSON.stringify({ role: "admin" }),
  });
  assertEquals(res.status, 403);
  assertEquals(await res.json(), { error: "Invalid origin" });
  assertEquals((await getUser(t.kv, target.user.id))?.role, "user");
});

Deno.test("other methods on the admin user paths are 405", async () => {
  await using t = await createTestApp();
  const admin = await createTestUser(t, "admin");
  const res = await t.json("DELETE", `/api/admin/users/${admin.user.id}`, { headers: { cookie: admin.cookie } });
  assertEquals(res.status, 405);
  assertEquals(await res.json(), { error: "Method not allowed" });
  assertEquals((await t.json("POST", "/api/admin/users", { body: {}, headers: { cookie: admin.cookie } })).status, 405);
});

Deno.test("two admins demoting each other at the same moment: one wins, the other gets 403, an admin remains (50 runs)", async () => {
  await using t = await createTestApp();
  for (let run = 0; run < 50; run++) {
    const [a, b] = [await createTestUser(t, "admin"), await createTestUser(t, "admin")];
    const statuses = await Promise.all([
      patch(t, a, b.user.id, { role: "user" }),
      patch(t, b, a.user.id, { role: "member" }),
    ].map(async (res) => {
      const response = await res;
      await response.body?.cancel();
      return response.status;
    }));
    assertEquals(statuses.toSorted(), [200, 403], `run ${run}`);
    const roles = [(await getUser(t.kv, a.user.id))!.role, (await getUser(t.kv, b.user.id))!.role];
    assertEquals(roles.filter((role) => role === "admin").length, 1, `run ${run}: ${roles}`);
  }
});

Deno.test("three admins demoting each other in a ring at the same moment leave at least one admin (30 runs)", async () => {
  await using t = await createTestApp();
  for (let run = 0; run < 30; run++) {
    const admins = [
      await createTestUser(t, "admin"),
      await createTestUser(t, "admin"),
      await createTestUser(t, "admin"),
    ];
    const responses = await Promise.all(
      admins.map((admin, i) => patch(t, admin, admins[(i + 1) % 3].user.id, { role: "user" })),
    );
    for (const res of responses) await res.body?.cancel();
    const roles = await Promise.all(admins.map(async (admin) => (await getUser(t.kv, admin.user.id))!.role));
    assert(roles.includes("admin"), `run ${run}: ${roles}`);
    const won = responses.filter((res) => res.status === 200).length;
    assertEquals(won, roles.filter((role) => role !== "admin").length, `run ${run}`);
  }
});
