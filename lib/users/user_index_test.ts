import { assert, assertEquals } from "@/tests/helpers/assert.ts";
import { type KvReads, kvReads, recordingReads } from "@/tests/helpers/kv_reads.ts";
import { InFlightRequests } from "@/lib/platform/in_flight.ts";
import { createUser, deleteUserOps, otherAdmin, takeOverUnverifiedUser, updateUser, type User } from "./users.ts";
import { listUsersForAdmin } from "./admin.ts";
import { adminIds, indexExistingUsers, USER_COUNT_LIMIT, wordsOf } from "./user_index.ts";

/** How many lists of `reads` read keys whose first part is `part`. */
const listsOf = (reads: KvReads, part: string) =>
  reads.lists.filter(({ selector }) => ("prefix" in selector ? selector.prefix : selector.start)[0] === part).length;

const requests = new InFlightRequests();

/** The index entries as stored, and as the user records say they should be, as sorted JSON lines. */
async function indexes(kv: Deno.Kv): Promise<{ stored: string[]; expected: string[] }> {
  const stored: string[] = [];
  for (const prefix of ["users_by_role", "users_by_word"]) {
    for await (const { key, value } of kv.list({ prefix: [prefix] })) stored.push(JSON.stringify([key, value]));
  }
  const expected: string[] = [];
  for await (const { value: u } of kv.list<User>({ prefix: ["users"] })) {
    expected.push(JSON.stringify([["users_by_role", u.role, u.createdAt, u.id], null]));
    for (const word of wordsOf(u)) expected.push(JSON.stringify([["users_by_word", word, u.createdAt, u.id], u.role]));
  }
  return { stored: stored.sort(), expected: expected.sort() };
}

const student = (i: number, role: User["role"] = "user") => ({
  name: `Student ${i}`,
  email: `student${i}@example.in`,
  emailVerified: true,
  role,
  createdAt: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString(),
});

Deno.test("wordsOf: the name's words and parts, the address, its part before @ and its domain", () => {
  assertEquals(wordsOf({ name: "Mary-Jane  D'Souza", email: "MJ.Dsouza@College.edu" }), [
    "mary-jane",
    "d'souza",
    "mary",
    "jane",
    "d",
    "souza",
    "mj.dsouza@college.edu",
    "mj.dsouza",
    "college.edu",
  ]);
  assertEquals(wordsOf({ name: "राहुल शर्मा", email: "r@x.in" }), ["राहुल", "शर्मा", "r@x.in", "r", "x.in"]);
});

Deno.test("every write of a user keeps the indexes equal to its records: create, rename, role, take-over, delete", async () => {
  using kv = await Deno.openKv(":memory:");
  const [a, b] = [await createUser(kv, student(1)), await createUser(kv, student(2, "admin"))];
  await updateUser(kv, a.id, { name: "Asha Rao" });
  await updateUser(kv, b.id, { role: "member" });
  await updateUser(kv, a.id, { role: "admin", name: "Asha R" });
  await updateUser(kv, a.id, { language: "hi" });
  const c = await createUser(kv, { ...student(3), emailVerified: false });
  const taken = await takeOverUnverifiedUser(kv, {
    id: c.id,
    patch: { name: "Owner", role: "member" },
    extend: () => {},
  });
  assertEquals(taken?.name, "Owner");
  let { stored, expected } = await indexes(kv);
  assertEquals(stored, expected);
  assertEquals(await adminIds(kv), [a.id]);
  const entry = await kv.get<User>(["users", a.id]);
  const op = kv.atomic();
  deleteUserOps(op, entry as Deno.KvEntry<User>);
  assert((await op.commit()).ok);
  ({ stored, expected } = await indexes(kv));
  assertEquals(stored, expected, "a deleted user leaves no entry");
  assertEquals(await adminIds(kv), []);
});

Deno.test("indexExistingUsers indexes users stored before the indexes, from its cursor, once", async () => {
  using kv = await Deno.openKv(":memory:");
  const users: User[] = [];
  for (let i = 0; i < 60; i++) {
    const user = await createUser(kv, student(i, i % 20 === 0 ? "admin" : "user"));
    users.push(user);
  }
  // As an earlier version stored them: records only.
  for await (const { key } of kv.list({ prefix: ["users_by_role"] })) await kv.delete(key);
  for await (const { key } of kv.list({ prefix: ["users_by_word"] })) await kv.delete(key);
  assertEquals((await listUsersForAdmin(kv, { limit: 10, offset: 0 })).users, []);
  await updateUser(kv, users[5].id, { name: "Renamed Meanwhile" });
  assertEquals(await indexExistingUsers({ kv, requests }), { indexed: 60 });
  const { stored, expected } = await indexes(kv);
  assertEquals(stored, expected);
  assertEquals((await adminIds(kv)).length, 3);
  assertEquals(await indexExistingUsers({ kv, requests }), { indexed: 0 }, "done: nothing more");
  const page = await listUsersForAdmin(kv, { limit: 2, offset: 0, search: "renamed" });
  assertEquals(page.users.map((u) => u.id), [users[5].id]);
});

Deno.test("indexExistingUsers keeps each write within KV's 1,000 mutations, however many words names have", async () => {
  using kv = await Deno.openKv(":memory:");
  const name = Array.from({ length: 45 }, (_, i) => `w${i}`).join(" ");
  for (let i = 0; i < 30; i++) {
    const at = new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString();
    const user = { ...student(i), id: `u${i}`, name, image: null, createdAt: at, updatedAt: at } as unknown as User;
    await kv.set(["users", user.id], user);
  }
  assertEquals(await indexExistingUsers({ kv, requests }), { indexed: 30 });
  const { stored, expected } = await indexes(kv);
  assertEquals(stored, expected);
});

Deno.test("the admin user list reads the indexes and its page's records, never every user", async () => {
  using memory = await Deno.openKv(":memory:");
  const n = USER_COUNT_LIMIT + 100;
  for (let i = 0; i < n; i++) await createUser(memory, student(i, i < 2 ? "admin" : "user"));
  const reads = kvReads();
  const kv = recordingReads(memory, reads);
  const page = await listUsersForAdmin(kv, { limit: 50, offset: 0 });
  assertEquals(page.users[0].name, `Student ${n - 1}`, "newest first");
  assertEquals(page.pagination, { limit: 50, offset: 0, total: USER_COUNT_LIMIT, hasMore: true });
  assertEquals(page.more, true);
  assertEquals(listsOf(reads, "users"), 0, "no scan of the records");
  assertEquals(reads.keys.filter((key) => key[0] === "users").length, 50);
  reads.keys.length = reads.lists.length = 0;
  const admins = await listUsersForAdmin(kv, { limit: 50, offset: 0, role: "admin" });
  assertEquals(admins.users.map((u) => u.name), ["Student 1", "Student 0"]);
  assertEquals([admins.pagination.total, admins.more], [2, false]);
  reads.keys.length = reads.lists.length = 0;
  const search = await listUsersForAdmin(kv, { limit: 50, offset: 0, search: "STUDENT 7" });
  assertEquals(search.pagination.total, 111, "7, 70–79 and 700–799");
  assertEquals(search.users.slice(0, 2).map((u) => u.name), ["Student 799", "Student 798"]);
  assertEquals(search.more, false);
  assert(reads.keys.filter((key) => key[0] === "users").length <= 111 + 50, "the candidates' and the page's records");
  assertEquals(listsOf(reads, "users"), 0);
  const everyone = await listUsersForAdmin(kv, { limit: 10, offset: 0, search: "student" });
  assertEquals([everyone.pagination.total, everyone.more], [USER_COUNT_LIMIT, true], "too many: counted to 1,000");
});

Deno.test("a search whose every word starts over 1,000 users' words lists the newest matches", async () => {
  using kv = await Deno.openKv(":memory:");
  const n = USER_COUNT_LIMIT + 10;
  for (let i = 0; i < n; i++) await createUser(kv, { ...student(i), email: `student${i}@gmail.com` });
  await createUser(kv, { ...student(n), name: "Other Person", email: "other@example.in" });
  for (const search of ["gmail.com", "STUDENT gmail"]) {
    const page = await listUsersForAdmin(kv, { limit: 5, offset: 0, search });
    assertEquals(page.users.map((u) => u.email).slice(0, 2), [
      `student${n - 1}@gmail.com`,
      `student${n - 2}@gmail.com`,
    ]);
    assertEquals([page.pagination.total, page.more], [USER_COUNT_LIMIT, true], search);
    const last = await listUsersForAdmin(kv, { limit: 5, offset: USER_COUNT_LIMIT - 5, search });
    assertEquals(last.users.at(-1)?.email, `student${n - USER_COUNT_LIMIT}@gmail.com`, "the newest 1,000");
  }
  const admins = await listUsersForAdmin(kv, { limit: 5, offset: 0, search: "gmail.com", role: "admin" });
  assertEquals([admins.users.length, admins.more], [0, false]);
});

Deno.test("otherAdmin reads the admins' index, never every user; it scans only while older users are unindexed", async () => {
  using memory = await Deno.openKv(":memory:");
  const reads = kvReads();
  const kv = recordingReads(memory, reads);
  for (let i = 0; i < 600; i++) await createUser(memory, student(i));
  const me = await createUser(memory, student(600, "admin"));
  const unverified = await createUser(memory, { ...student(601, "admin"), emailVerified: false });
  await indexExistingUsers({ kv: memory, requests });
  assertEquals(await otherAdmin(kv, me.id), null, "an admin whose address is not verified does not count");
  assertEquals(listsOf(reads, "users"), 0, "no scan of the records");
  assertEquals(reads.keys.filter((key) => key[0] === "users").map((key) => key[1]), [unverified.id]);
  const other = await createUser(memory, student(602, "admin"));
  const found = await otherAdmin(kv, me.id);
  assertEquals(found?.value.id, other.id);
  assert(found && (await memory.atomic().check(found).commit()).ok, "as read, for a checked write");
  assertEquals(listsOf(reads, "users"), 0);
  // A database from before the indexes: records only, the job not finished.
  await memory.delete(["users_meta", "index"]);
  for await (const { key } of memory.list({ prefix: ["users_by_role"] })) await memory.delete(key);
  assertEquals((await otherAdmin(kv, me.id))?.value.id, other.id, "found by the scan meanwhile");
});
