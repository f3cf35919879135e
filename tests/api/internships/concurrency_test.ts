/**
 * Concurrent writes to the internship store with real KV files, real concurrency (`Promise.all`)
 * and a second handle on the same file (opened as the platform opens one, `openKv`) standing in for a second
 * process with its own read model.
 */
import { assert, assertEquals, assertRejects } from "@/tests/helpers/assert.ts";
import { internshipInput } from "@/tests/fixtures/internships.ts";
import { BusyError, NotFoundError } from "@/lib/errors.ts";
import { openKv } from "@/lib/kv.ts";
import {
  getInternship,
  type Internship,
  InternshipQuerySchema,
  type InternshipView,
  listInternships,
} from "@/lib/internships/internships.ts";
import { createInternships, deleteInternship, updateInternship } from "@/lib/internships/writes.ts";
import { internshipStore, SYNC_INTERVAL_MS } from "@/lib/internships/store.ts";
import { RETRY_BUDGET_MS } from "@/lib/kv/retry.ts";
import { createUser, type User } from "@/lib/users/users.ts";

/** Two handles on one temp KV file ("two processes"), the file's path, and an owner and an admin. */
async function twoProcesses() {
  const dir = await Deno.makeTempDir({ prefix: "internships-concurrency-" });
  const path = `${dir}/kv.sqlite3`;
  const a = await openKv(path);
  const user = async (role: "member" | "admin") =>
    await createUser(a, { name: role, email: `${role}-${crypto.randomUUID()}@x.example`, emailVerified: true, role });
  const owner = await user("member");
  const admin = await user("admin");
  // Opened once nothing writes: opening a KV file runs its own schema transaction.
  const b = await openKv(path);
  return {
    a,
    b,
    path,
    owner,
    admin,
    async [Symbol.asyncDispose]() {
      a.close();
      b.close();
      await Deno.remove(dir, { recursive: true });
    },
  };
}

const item = (title: string) => internshipInput({ title });

const waitForSync = () => new Promise((resolve) => setTimeout(resolve, SYNC_INTERVAL_MS + 50));

/** Every internship KV holds, read by a read model loaded afresh from the file (a third process). */
async function storedAll(path: string, admin: User): Promise<InternshipView[]> {
  const kv = await openKv(path);
  try {
    const all = InternshipQuerySchema.parse({ includeInactive: "true", includeDeleted: "true", limit: "100" });
    const out: InternshipView[] = [];
    for (let offset = 0;; offset += 100) {
      const page = await listInternships(kv, { query: { ...all, offset }, viewer: admin });
      out.push(...page.internships);
      if (!page.pagination.hasMore) return out;
    }
  } finally {
    kv.close();
  }
}

/** What KV holds for `id` (see `storedAll`). */
async function stored(path: string, admin: User, id: string): Promise<InternshipView | undefined> {
  return (await storedAll(path, admin)).find((i) => i.id === id);
}

Deno.test("concurrent updates of one listing from two processes, each to another field, all land", async () => {
  await using p = await twoProcesses();
  const [created] = await createInternships(p.a, p.owner, [item("Original")]);
  const patches = [
    { title: "New title" },
    { description: "New description" },
    { type: "remote" as const },
    { timing: "part_time" as const },
    { hiringManager: "Asha" },
    { stipend: 12000 },
    { duration: "3 months" },
    { experience: "None" },
    { location: "Pune" },
    { deadline: "2031-01-31" },
  ];
  const results = await Promise.all(
    patches.map((patch, i) => updateInternship(i % 2 ? p.b : p.a, { id: created.id, actor: p.owner, patch })),
  );
  assertEquals(results.length, patches.length);
  const expected = Object.assign({}, ...patches);
  const inKv = await stored(p.path, p.admin, created.id);
  assert(inKv);
  assertEquals({ ...inKv, ...expected }, inKv, "every field of every update is in KV");
  assertEquals(inKv.updatedAt, results.map((r) => r.updatedAt).sort().at(-1));
  await waitForSync();
  for (const kv of [p.a, p.b]) {
    assertEquals(await getInternship(kv, { id: created.id, viewer: null, audience: "api" }), inKv);
    const hit = await listInternships(
      kv,
      {
        query: InternshipQuerySchema.parse({
          types: "remote",
          location: "pune",
          minStipend: "12000",
          search: "new description",
        }),
        viewer: null,
      },
    );
    assertEquals(hit.internships.map((i) => i.id), [created.id]);
  }
});

Deno.test("concurrent creates in one process all land: appends queue, none loses a race", async () => {
  await using p = await twoProcesses();
  const { writer } = await internshipStore(p.a);
  // A lost race would be retried; with no time to retry, one would fail the test.
  writer.retryBudgetMs = 0;
  const created = await Promise.all(
    Array.from({ length: 200 }, (_, i) => createInternships(p.a, p.owner, [item(`Parallel ${i}`), item(`Twin ${i}`)])),
  );
  const ids = created.flat().map((i) => i.id).sort();
  assertEquals(new Set(ids).size, 400);
  const listed: string[] = [];
  for (let offset = 0; offset < ids.length; offset += 100) {
    const page = await listInternships(p.a, {
      query: InternshipQuerySchema.parse({ limit: "100", offset: `${offset}` }),
      viewer: null,
    });
    listed.push(...page.internships.map((i) => i.id));
  }
  assertEquals(listed.sort(), ids);
  assertEquals((await storedAll(p.path, p.admin)).map((i) => i.id).sort(), ids);
});

Deno.test("an update racing a delete from another process either lands first or fails with 404; the listing ends deleted", async () => {
  await using p = await twoProcesses();
  const created = await createInternships(p.a, p.owner, Array.from({ length: 6 }, (_, i) => item(`Race ${i}`)));
  for (const { id, title } of created) {
    const [update, remove] = await Promise.allSettled([
      updateInternship(p.a, { id, actor: p.owner, patch: { title: "Updated" } }),
      deleteInternship(p.b, { id, actor: p.owner }),
    ]);
    assertEquals(remove.status, "fulfilled");
    if (update.status === "rejected") assert(update.reason instanceof NotFoundError, String(update.reason));
    const inKv = await stored(p.path, p.admin, id);
    assert(inKv?.deletedAt, "deleted in KV");
    assertEquals(inKv.title, update.status === "fulfilled" ? "Updated" : title);
  }
  await waitForSync();
  for (const kv of [p.a, p.b]) {
    for (const { id } of created) {
      await assertRejects(() => getInternship(kv, { id, viewer: p.admin, audience: "api" }), NotFoundError);
    }
    const mine = await listInternships(kv, { query: InternshipQuerySchema.parse({ mine: "true" }), viewer: p.owner });
    assertEquals(mine.pagination.total, 0);
  }
});

Deno.test("an update that loses its race to a delete finds the listing gone to the archive, changing nothing", async () => {
  await using p = await twoProcesses();
  const [created] = await createInternships(p.a, p.owner, [item("Doomed")]);
  const { writer } = await internshipStore(p.a);
  let calls = 0;
  const result = await writer.update(created.id, async (record) => {
    calls++;
    await deleteInternship(p.b, { id: created.id, actor: p.owner });
    return { ...record, title: "Too late" };
  });
  assertEquals([result, calls], [null, 1]);
  const inKv = await stored(p.path, p.admin, created.id);
  assertEquals([inKv?.title, Boolean(inKv?.deletedAt)], ["Doomed", true]);
  await assertRejects(
    () => updateInternship(p.a, { id: created.id, actor: p.owner, patch: { title: "Too late" } }),
    NotFoundError,
  );
});

Deno.test("a race lost to another process is retried on the latest record and succeeds without undoing the other write", async () => {
  await using p = await twoProcesses();
  const [created] = await createInternships(p.a, p.owner, [item("Contested")]);
  const { writer, model } = await internshipStore(p.a);
  let calls = 0;
  const result = await writer.update(created.id, async (record) => {
    calls++;
    if (calls <= 3) await updateInternship(p.b, { id: created.id, actor: p.owner, patch: { stipend: 1000 * calls } });
    return { ...record, title: "Mine" };
  });
  assertEquals(calls, 4);
  assertEquals([result?.title, result?.stipend], ["Mine", 3000]);
  const inKv = await stored(p.path, p.admin, created.id);
  assertEquals([inKv?.title, inKv?.stipend], ["Mine", 3000]);
  const [inModel] = await model.recordsOf([model.slotOf(created.id)!]);
  assertEquals(inModel, result);
});

Deno.test("races lost for longer than the retry budget fail with BusyError and write nothing of their own", async () => {
  await using p = await twoProcesses();
  const [created, neighbour] = await createInternships(p.a, p.owner, [item("Hot"), item("Neighbour")]);
  const { writer } = await internshipStore(p.a);
  writer.retryBudgetMs = 300;
  let calls = 0;
  const change = async (record: Internship): Promise<Internship> => {
    calls++;
    await updateInternship(p.b, { id: created.id, actor: p.owner, patch: { stipend: calls } });
    return { ...record, title: "Never stored" };
  };
  await assertRejects(() => writer.update(created.id, change), BusyError, "nothing was written");
  writer.retryBudgetMs = RETRY_BUDGET_MS;
  assert(calls > 1, "lost races are retried");
  const inKv = await stored(p.path, p.admin, created.id);
  assertEquals([inKv?.title, inKv?.stipend], ["Hot", calls]);
  assertEquals((await stored(p.path, p.admin, neighbour.id))?.title, "Neighbour");
  await waitForSync();
  assertEquals(await getInternship(p.a, { id: created.id, viewer: null, audience: "api" }), inKv);
  const search = await listInternships(p.a, {
    query: InternshipQuerySchema.parse({ search: "never stored" }),
    viewer: null,
  });
  assertEquals(search.pagination.total, 0);
});

Deno.test("a process that writes itself still sees another process's interleaved writes within the sync interval", async () => {
  await using p = await twoProcesses();
  const all = InternshipQuerySchema.parse({ limit: "100" });
  assertEquals((await listInternships(p.b, { query: all, viewer: null })).pagination.total, 0);
  const [fromA] = await createInternships(p.a, p.owner, [item("From A")]);
  const [fromB] = await createInternships(p.b, p.owner, [item("From B")]);
  await updateInternship(p.a, { id: fromA.id, actor: p.owner, patch: { title: "From A, changed" } });
  await updateInternship(p.b, { id: fromB.id, actor: p.owner, patch: { title: "From B, changed" } });
  await waitForSync();
  for (const kv of [p.a, p.b]) {
    const titles = (await listInternships(kv, { query: all, viewer: null })).internships.map((i) => i.title).sort();
    assertEquals(titles, ["From A, changed", "From B, changed"]);
  }
  await deleteInternship(p.b, { id: fromA.id, actor: p.owner });
  await createInternships(p.a, p.owner, [item("Third")]);
  await waitForSync();
  for (const kv of [p.a, p.b]) {
    const titles = (await listInternships(kv, { query: all, viewer: null })).internships.map((i) => i.title).sort();
    assertEquals(titles, ["From B, changed", "Third"]);
  }
});
