/**
 * The match cache of the list filters (`lib/internships/filters.ts`) brings a kept match list up
 * to date with new listings instead of making a new pass, and answers exactly what a fresh read
 * model answers.
 */
import { InternshipQuerySchema, listInternships } from "@/lib/internships/internships.ts";
import { createInternships, updateInternship } from "@/lib/internships/writes.ts";
import { internshipStore } from "@/lib/internships/store.ts";
import { typeCode } from "@/lib/internships/columns.ts";
import { createUser, type User } from "@/lib/users/users.ts";
import { openKv } from "@/lib/kv.ts";
import { assert, assertEquals } from "@/tests/helpers/assert.ts";
import { internshipInput } from "@/tests/fixtures/internships.ts";

const TYPES = ["remote", "onsite", "hybrid", null] as const;

/** The `i`th listing: its type, stipend, location and tags cycle at different rates. */
const listing = (i: number) =>
  internshipInput({
    title: `Listing ${i}`,
    type: TYPES[i % 4],
    stipend: i % 5 === 0 ? null : (i % 7) * 5_000,
    location: ["Pune", "Bengaluru", "Remote"][i % 3],
    tags: [["python"], ["react", "design"], []][i % 3],
  });

const QUERIES = [
  {},
  { types: "remote" },
  { types: "hybrid,onsite", tags: "react" },
  { tags: "python", minStipend: "10000" },
  { location: "pune", maxStipend: "20000" },
  { search: "listing 1" },
  { mine: "true" },
  { includeInactive: "true" },
];

/** Waits until `Date.now()` passes `ms`, so that a listing created next is the newest. */
async function after(ms: number): Promise<void> {
  while (Date.now() <= ms) await new Promise((resolve) => setTimeout(resolve, 1));
}

async function pages(kv: Deno.Kv, users: User[]): Promise<unknown[]> {
  return await Promise.all(QUERIES.flatMap((query) =>
    users.map(async (user) => {
      const page = await listInternships(kv, {
        query: InternshipQuerySchema.parse({ ...query, limit: "100" }),
        viewer: user,
      });
      return [query, user.id, page.pagination.total, page.internships.map((internship) => internship.id)];
    })
  ));
}

Deno.test("new listings are taken into kept match lists; every filter answers what a fresh read model does", async () => {
  const dir = await Deno.makeTempDir();
  const kv = await openKv(`${dir}/kv.sqlite3`);
  try {
    const member = await createUser(kv, { name: "M", email: "m@x.example", emailVerified: true, role: "member" });
    const admin = await createUser(kv, { name: "A", email: "a@x.example", emailVerified: true, role: "admin" });
    for (let i = 0; i < 60; i++) await createInternships(kv, i % 2 ? member : admin, [listing(i)]);
    const { model } = await internshipStore(kv);
    await pages(kv, [member, admin]);
    const [epoch, seen] = [model.columns.epoch, model.columns.newest.length];
    for (let i = 60; i < 90; i++) {
      await after(Date.now());
      await createInternships(kv, i % 2 ? member : admin, [listing(i)]);
      const fresh = await openKv(`${dir}/kv.sqlite3`);
      try {
        assertEquals(await pages(kv, [member, admin]), await pages(fresh, [member, admin]), `after listing ${i}`);
      } finally {
        fresh.close();
      }
    }
    assertEquals([model.columns.epoch, model.columns.newest.length], [epoch, seen + 30]);
    const [latest] =
      (await listInternships(kv, { query: InternshipQuerySchema.parse({ limit: "1" }), viewer: null })).internships;
    await updateInternship(kv, { id: latest.id, actor: admin, patch: { stipend: 123_456 } });
    assert(model.columns.epoch > epoch, "a stipend change kept the epoch");
    const fresh = await openKv(`${dir}/kv.sqlite3`);
    try {
      assertEquals(await pages(kv, [member, admin]), await pages(fresh, [member, admin]));
    } finally {
      fresh.close();
    }
  } finally {
    kv.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("after a new listing a kept match list is extended, not listed again by a pass", async () => {
  await using kv = await Deno.openKv(":memory:");
  const owner = await createUser(kv, { name: "O", email: "o@x.example", emailVerified: true, role: "member" });
  for (let i = 0; i < 8; i++) await createInternships(kv, owner, [listing(i)]);
  const remote = InternshipQuerySchema.parse({ types: "remote" });
  const before = await listInternships(kv, { query: remote, viewer: null });
  const { model } = await internshipStore(kv);
  // Changed behind the model's back in the public view that a pass reads (a write re-applies
  // the columns, not the view): a pass would now drop this listing from the remote ones.
  const poked = model.slotOf(before.internships[0].id)!;
  const view = model.columns.publicView();
  view.types[view.slots.indexOf(poked)] = typeCode("onsite");
  await after(Date.now());
  await createInternships(kv, owner, [listing(8)]);
  const next = await listInternships(kv, { query: remote, viewer: null });
  assertEquals(next.internships.map((internship) => internship.title), [
    "Listing 8",
    ...before.internships.map((internship) => internship.title),
  ]);
});
