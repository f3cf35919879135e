/**
 * Listings leaving the read model when they close, and coming back (docs/decisions.md, Open and closed listings):
 * two handles on one KV file stand in for two processes, each with its own read model; the `close-listings` job runs
 * in one, and both answer from the archive afterwards.
 */
import { assert, assertEquals } from "@/tests/helpers/assert.ts";
import { internshipInput } from "@/tests/fixtures/internships.ts";
import { openKv } from "@/lib/kv.ts";
import { getInternship, InternshipQuerySchema, listInternships } from "@/lib/internships/internships.ts";
import { closeInternships, createInternships, deleteInternship, updateInternship } from "@/lib/internships/writes.ts";
import { internshipStore, SYNC_INTERVAL_MS } from "@/lib/internships/store.ts";
import { findJob } from "@/lib/jobs/registry.ts";
import { istToday } from "@/lib/dates.ts";
import { createUser, type User } from "@/lib/users/users.ts";

async function twoProcesses() {
  const dir = await Deno.makeTempDir({ prefix: "internships-closing-" });
  const path = `${dir}/kv.sqlite3`;
  const a = await openKv(path);
  const user = async (role: "member" | "admin") =>
    await createUser(a, { name: role, email: `${role}-${crypto.randomUUID()}@x.example`, emailVerified: true, role });
  const owner = await user("member");
  const admin = await user("admin");
  const b = await openKv(path);
  return {
    a,
    b,
    owner,
    admin,
    async [Symbol.asyncDispose]() {
      a.close();
      b.close();
      await Deno.remove(dir, { recursive: true });
    },
  };
}

const item = (title: string, deadline: string | null) => internshipInput({ title, deadline });
const waitForSync = () => new Promise((resolve) => setTimeout(resolve, SYNC_INTERVAL_MS + 50));
const noWait = () => Promise.resolve();

/** The ids of `listings` in list order: newest first, then id descending (a batch shares its creation time). */
const order = (...listings: { id: string; createdAt: string }[]) =>
  listings.toSorted((x, y) => x.createdAt !== y.createdAt ? (x.createdAt < y.createdAt ? 1 : -1) : x.id < y.id ? 1 : -1)
    .map((listing) => listing.id);

/** The ids of the first page (100) of `params` as `viewer` reads them on IST day `today`. */
async function ids(kv: Deno.Kv, params: Record<string, string>, today: string, viewer: User | null = null) {
  const query = InternshipQuerySchema.parse({ limit: "100", ...params });
  const page = await listInternships(kv, { query, viewer, today });
  assertEquals(page.pagination.total, page.internships.length);
  return page.internships.map((i) => i.id);
}

/** Whether `id` is in the read model of `kv`'s process. */
async function inModel(kv: Deno.Kv, id: string): Promise<boolean> {
  return (await internshipStore(kv)).model.slotOf(id) !== undefined;
}

Deno.test("a listing whose deadline passes leaves the default list and the read models after the job, and is listed with includeClosed in both processes", async () => {
  await using p = await twoProcesses();
  assert(findJob("close-listings"), "the job is registered");
  // Real today is years before 2031: every one is open when created.
  const [closing, lasting, undated] = await createInternships(p.a, p.owner, [
    item("Closing soon", "2031-03-10"),
    item("Lasting", "2031-12-31"),
    item("No deadline", null),
  ]);
  await waitForSync();
  for (const kv of [p.a, p.b]) {
    assertEquals(await ids(kv, {}, "2031-03-10"), order(undated, lasting, closing));
    assertEquals(await ids(kv, {}, "2031-03-11"), order(undated, lasting), "closed at midnight, before any job");
  }

  assertEquals(await closeInternships(p.a, { today: "2031-03-11", giveWay: noWait }), 1);
  assertEquals(await closeInternships(p.a, { today: "2031-03-11", giveWay: noWait }), 0, "a second run finds none");
  await waitForSync();
  for (const kv of [p.a, p.b]) {
    assertEquals(await inModel(kv, closing.id), false, "left the read model");
    assertEquals(await inModel(kv, lasting.id), true);
    assertEquals(await ids(kv, {}, "2031-03-11"), order(undated, lasting));
    assertEquals(await ids(kv, { includeClosed: "true" }, "2031-03-11"), order(undated, lasting, closing));
    assertEquals(await ids(kv, { includeClosed: "true", search: "closing" }, "2031-03-11"), [closing.id]);
    assertEquals(await ids(kv, { mine: "true" }, "2031-03-11", p.owner), order(undated, lasting, closing));
    assertEquals((await getInternship(kv, { id: closing.id, viewer: null, audience: "api" })).title, "Closing soon");
  }
  assertEquals(await closeInternships(p.b, { today: "2031-03-11", giveWay: noWait }), 0, "the other process too");
});

/** Runs `args` (a script and its arguments) as a process of its own on the KV file `path`; its last JSON line. */
async function processOn(path: string, args: string[]) {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", ...args],
    cwd: new URL("../../..", import.meta.url).pathname,
    env: { KV_PATH: path, LOG_LEVEL: "error", JOBS: "off" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  assertEquals(out.code, 0, new TextDecoder().decode(out.stderr));
  return JSON.parse(new TextDecoder().decode(out.stdout).trim().split("\n").at(-1)!);
}

Deno.test("the job in a process of its own closes a listing this process lists; extending it here reopens it there", async () => {
  const dir = await Deno.makeTempDir({ prefix: "internships-processes-" });
  const path = `${dir}/kv.sqlite3`;
  const kv = await openKv(path);
  try {
    const owner = await createUser(kv, { name: "o", email: "o@x.example", emailVerified: true, role: "member" });
    const [ending, lasting] = await createInternships(kv, owner, [item("Ending", "2099-03-10"), item("Lasting", null)]);
    // Its deadline passed while it was open: it is still in the read model, as on the morning after.
    const yesterday = new Date(Date.now() - 2 * 86_400_000).toISOString().slice(0, 10);
    const { writer } = await internshipStore(kv);
    await writer.update(ending.id, (record) => ({ ...record, deadline: yesterday }));
    assertEquals(await inModel(kv, ending.id), true);
    assertEquals(await ids(kv, {}, istToday()), [lasting.id], "closed by its date before any job");

    assertEquals((await processOn(path, ["scripts/job.ts", "close-listings"])).internships, 1);
    await waitForSync();
    assertEquals(await inModel(kv, ending.id), false, "this process learnt that it left");
    assertEquals(await ids(kv, {}, istToday()), [lasting.id]);
    assertEquals(await ids(kv, { includeClosed: "true" }, istToday()), order(lasting, ending));
    assertEquals(await ids(kv, { includeClosed: "true", search: "ending" }, istToday()), [ending.id]);

    await updateInternship(kv, { id: ending.id, actor: owner, patch: { deadline: "2099-04-30" } });
    const there = await processOn(path, ["tests/fixtures/internship_list_process.ts", "", ending.id]);
    assertEquals(there, { ids: order(lasting, ending), inModel: [ending.id] }, "back in the other process's model");
    assertEquals((await processOn(path, ["scripts/job.ts", "close-listings"])).internships, 0);
  } finally {
    kv.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("extending a closed listing's deadline brings it back into the read models and the default list", async () => {
  await using p = await twoProcesses();
  const [closing, other] = await createInternships(p.a, p.owner, [
    item("Closing soon", "2031-03-10"),
    item("Other", "2031-12-31"),
  ]);
  assertEquals(await closeInternships(p.a, { today: "2031-03-11", giveWay: noWait }), 1);
  await waitForSync();
  assertEquals(await inModel(p.b, closing.id), false);

  const extended = await updateInternship(p.b, { id: closing.id, actor: p.owner, patch: { deadline: "2031-04-30" } });
  assertEquals(extended.deadline, "2031-04-30");
  await waitForSync();
  for (const kv of [p.a, p.b]) {
    assertEquals(await inModel(kv, closing.id), true, "back in the read model");
    assertEquals(await ids(kv, {}, "2031-03-11"), order(other, closing));
    assertEquals(await ids(kv, { includeClosed: "true" }, "2031-03-11"), order(other, closing), "listed once");
  }
  // An edit that keeps an archived listing closed (its deadline is past in real time too) leaves it archived, changed.
  const [past] = await createInternships(p.a, p.owner, [item("Long gone", "2020-01-01")]);
  const renamed = await updateInternship(p.b, { id: past.id, actor: p.owner, patch: { title: "Renamed" } });
  assertEquals(renamed.title, "Renamed");
  await waitForSync();
  for (const kv of [p.a, p.b]) {
    assertEquals(await inModel(kv, past.id), false);
    assertEquals(await ids(kv, { includeClosed: "true", search: "renamed" }, "2031-03-11"), [past.id]);
    assertEquals(await ids(kv, { includeClosed: "true", search: "gone" }, "2031-03-11"), []);
  }
});

Deno.test("deleting moves a listing to the archive at once; a create already closed goes there directly", async () => {
  await using p = await twoProcesses();
  const [kept, doomed] = await createInternships(p.a, p.owner, [item("Kept", null), item("Doomed", null)]);
  const [past] = await createInternships(p.b, p.owner, [item("Long gone", "2020-01-01")]);
  await deleteInternship(p.a, { id: doomed.id, actor: p.owner });
  assertEquals(await inModel(p.a, doomed.id), false);
  assertEquals(await inModel(p.b, past.id), false);
  await waitForSync();
  const today = "2030-01-01";
  for (const kv of [p.a, p.b]) {
    assertEquals(await ids(kv, {}, today), [kept.id]);
    assertEquals(await ids(kv, { includeClosed: "true" }, today), order(past, kept));
    assertEquals(await ids(kv, { mine: "true" }, today, p.owner), order(past, kept));
    assertEquals(
      await ids(kv, { includeClosed: "true", includeDeleted: "true" }, today, p.admin),
      order(past, doomed, kept),
    );
  }
  const again = await deleteInternship(p.b, { id: doomed.id, actor: p.owner }).catch((error) => error);
  assertEquals(again?.name, "NotFoundError");
});

Deno.test("a batch of 100 with closed and open items is stored all together, each where it belongs", async () => {
  await using p = await twoProcesses();
  const items = Array.from(
    { length: 100 },
    (_, i) => item(`Batch ${i}`, i % 4 === 0 ? null : "2021-05-0" + (1 + i % 9)),
  );
  const created = await createInternships(p.a, p.owner, items);
  const open = created.filter((_, i) => i % 4 === 0);
  for (const { id } of open) assertEquals(await inModel(p.a, id), true);
  assertEquals(await inModel(p.a, created[1].id), false);
  const today = "2030-01-01";
  assertEquals(await ids(p.a, {}, today), order(...open));
  assertEquals((await ids(p.a, { includeClosed: "true" }, today)).length, 100);
});
