import { assert, assertEquals } from "@/tests/helpers/assert.ts";
import { internshipInput } from "@/tests/fixtures/internships.ts";
import { getInternship, InternshipQuerySchema, listInternships } from "@/lib/internships/internships.ts";
import { createInternships, updateInternship } from "@/lib/internships/writes.ts";
import { internshipStore, SYNC_INTERVAL_MS } from "@/lib/internships/store.ts";
import { ACTIVE } from "@/lib/internships/columns.ts";
import { createUser, updateUser, type User } from "@/lib/users/users.ts";
import { openKv } from "@/lib/kv.ts";

async function owner(kv: Deno.Kv): Promise<User> {
  return await createUser(kv, {
    name: "Owner",
    email: `o-${crypto.randomUUID()}@x.example`,
    emailVerified: true,
    role: "member",
  });
}

const item = (title: string, description?: string) => internshipInput({ title, description });

Deno.test("two processes on one KV store see each other's writes after the sync interval", async () => {
  const dir = await Deno.makeTempDir();
  const a = await openKv(`${dir}/kv.sqlite3`);
  const b = await openKv(`${dir}/kv.sqlite3`);
  try {
    const user = await owner(a);
    const all = InternshipQuerySchema.parse({});
    assertEquals((await listInternships(b, { query: all, viewer: null })).pagination.total, 0);
    const [created] = await createInternships(a, user, [item("From A")]);
    await new Promise((resolve) => setTimeout(resolve, SYNC_INTERVAL_MS + 50));
    assertEquals((await getInternship(b, { id: created.id, viewer: null, audience: "api" })).title, "From A");
    await updateInternship(b, { id: created.id, actor: user, patch: { title: "Changed by B" } });
    const [second] = await createInternships(b, user, [item("From B")]);
    await new Promise((resolve) => setTimeout(resolve, SYNC_INTERVAL_MS + 50));
    const seen = await listInternships(a, { query: InternshipQuerySchema.parse({ search: "changed" }), viewer: null });
    assertEquals(seen.internships.map((i) => i.id), [created.id]);
    assertEquals((await getInternship(a, { id: second.id, viewer: null, audience: "api" })).title, "From B");
    const mine = await listInternships(a, { query: InternshipQuerySchema.parse({ mine: "true" }), viewer: user });
    assertEquals(mine.internships.map((i) => i.id), [second.id, created.id]);
  } finally {
    a.close();
    b.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("records that outgrow their chunk move without loss; chunk values stay under the KV limit", async () => {
  using kv = await Deno.openKv(":memory:");
  const user = await owner(kv);
  const created = await createInternships(
    kv,
    user,
    Array.from({ length: 60 }, (_, i) => item(`Item ${i}`, "d".repeat(600))),
  );
  for (const internship of created.slice(0, 20)) {
    await updateInternship(kv, {
      id: internship.id,
      actor: user,
      patch: { description: `${internship.title} `.repeat(300).slice(0, 5000) },
    });
  }
  const page = await listInternships(kv, { query: InternshipQuerySchema.parse({ limit: "100" }), viewer: null });
  assertEquals(page.pagination.total, 60);
  assertEquals(new Set(page.internships.map((i) => i.id)).size, 60);
  const mine = await listInternships(kv, {
    query: InternshipQuerySchema.parse({ mine: "true", limit: "100" }),
    viewer: user,
  });
  assertEquals(mine.internships.map((i) => i.id), page.internships.map((i) => i.id));
  const hit = await listInternships(kv, { query: InternshipQuerySchema.parse({ search: "item 7" }), viewer: null });
  assertEquals(hit.internships.map((i) => i.title).sort(), [
    "Item 17",
    "Item 27",
    "Item 37",
    "Item 47",
    "Item 57",
    "Item 7",
  ]);
  for await (const entry of kv.list<Uint8Array>({ prefix: ["internships_chunks"] })) {
    assert(entry.value.byteLength < 65536);
  }
});

Deno.test("a new listing is written in front of the public view instead of rebuilding it, and the view stays exact", async () => {
  await using kv = await Deno.openKv(":memory:");
  const user = await owner(kv);
  const { model } = await internshipStore(kv);
  const columns = model.columns;
  const rebuilt = () => columns.view(model.slots.order.filter((slot) => columns.flags[slot] === ACTIVE));
  await createInternships(kv, user, [item("First")]);
  columns.publicView();
  // More listings than the 1,024 positions of room made by the first one, so the room is used up
  // and made again. Each listing is created in a later millisecond than the one before, so it is
  // the newest (ties go by id).
  for (let i = 0, last = Date.now(); i < 1_100; i++, last = Date.now()) {
    while (Date.now() === last) await new Promise((resolve) => setTimeout(resolve, 1));
    await createInternships(kv, user, [item(`Listing ${i}`)]);
    assert(columns["publicBuffers"] !== null, `the view was dropped after listing ${i}`);
  }
  assertEquals(columns.publicView(), rebuilt());
  const [latest] =
    (await listInternships(kv, { query: InternshipQuerySchema.parse({ limit: "1" }), viewer: null })).internships;
  assertEquals(latest.title, "Listing 1099");
  await updateInternship(kv, { id: latest.id, actor: user, patch: { title: "Edited" } });
  assert(columns["publicBuffers"] !== null, "a title edit dropped the view");
  await updateInternship(kv, { id: latest.id, actor: user, patch: { stipend: 12_345 } });
  assertEquals(columns["publicBuffers"], null);
  assertEquals(columns.publicView(), rebuilt());
  assertEquals(
    (await listInternships(kv, { query: InternshipQuerySchema.parse({}), viewer: null })).pagination.total,
    1_101,
  );
});

Deno.test("a read shows the known owners without waiting for their check, and the next read shows a rename", async () => {
  await using raw = await Deno.openKv(":memory:");
  let release = () => {};
  let held: Promise<void> | null = null;
  // The users' change marker and records, read through a KV that holds them back once `held` is set.
  const kv = new Proxy(raw, {
    get(target, prop) {
      const value = Reflect.get(target, prop);
      if (prop !== "get" && prop !== "getMany") return typeof value === "function" ? value.bind(target) : value;
      return async (key: Deno.KvKey | Deno.KvKey[], options?: { consistency?: Deno.KvConsistencyLevel }) => {
        const keys = (prop === "get" ? [key] : key) as Deno.KvKey[];
        if (held && keys.some((k) => k[0] === "users" || k[0] === "users_changed")) await held;
        return prop === "get" ? target.get(key as Deno.KvKey, options) : target.getMany(key as Deno.KvKey[], options);
      };
    },
  });
  const user = await owner(raw);
  const [created] = await createInternships(raw, user, [item("Owned")]);
  const read = () => getInternship(kv, { id: created.id, viewer: null, audience: "api" });
  assertEquals((await read()).user?.name, "Owner");
  await updateUser(raw, user.id, { name: "Owner Renamed" });
  held = new Promise((resolve) => release = resolve);
  const realNow = Date.now;
  Date.now = () => realNow() + 6_000;
  try {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const waited = new Promise<"waited">((resolve) => timer = setTimeout(resolve, 2_000, "waited"));
    const answer = await Promise.race([read(), waited]);
    clearTimeout(timer);
    assert(answer !== "waited", "the read waited for the owners' check");
    assertEquals(answer.user?.name, "Owner");
    release();
    await (await internshipStore(kv)).owners.refresh();
    assertEquals((await read()).user?.name, "Owner Renamed");
  } finally {
    Date.now = realNow;
    release();
  }
});
