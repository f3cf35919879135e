/**
 * A poster's own list (`GET /api/internships?mine=true`, `/internships/mine`) reads their closed listings through the
 * archive's owner index once the `closed-owners-index` backfill is done (docs/decisions.md, Open and closed listings,
 * "Reading closed listings"): what it reads grows with the poster's listings, not with the archive (up to
 * `OWNED_READ_MAX` of them; a poster of more is answered by that test as before), and it answers what the test of every
 * archive block answered before, with every filter, sort and page. Counts of keys read, never timings.
 */
import { assert, assertEquals } from "@/tests/helpers/assert.ts";
import { createTestApp, createTestUser, type TestApp, type TestUser } from "@/tests/helpers/app.ts";
import { kvReads, recordingReads } from "@/tests/helpers/kv_reads.ts";
import { type Internship, InternshipQuerySchema, listInternships } from "@/lib/internships/internships.ts";
import { generateInternships, importInternships } from "@/lib/internships/fixtures.ts";
import { internshipStore } from "@/lib/internships/store.ts";
import { findJob, runJob } from "@/lib/jobs/registry.ts";
import { OWNED_READ_MAX } from "@/lib/kv/chunked/archive.ts";

/** Closed listings of other posters in the archive: a year's worth for a small site. */
const OTHERS = 2000;

/** The queries of a poster's own list checked before and after the backfill, as URL queries after `mine=true`. */
const QUERIES = [
  "",
  "&limit=3",
  "&limit=3&offset=3",
  "&limit=3&offset=9",
  "&limit=4&offset=14",
  "&sort=deadline",
  "&sort=deadline&limit=5&offset=4",
  "&sort=stipend",
  "&sort=stipend&limit=2&offset=6",
  "&includeDeleted=true",
  "&includeDeleted=true&limit=4&offset=4",
  "&types=remote,hybrid",
  "&tags=content,finance",
  "&tags=excel&limit=2&offset=1",
  "&search=finance",
  "&search=mentors&limit=2&offset=1",
  "&location=jaipur",
  "&location=remote&sort=stipend",
  "&paidOnly=true",
  "&minStipend=10000&maxStipend=20000",
  "&verifiedOnly=true",
  "&includeClosed=false&includeInactive=true",
];

/**
 * A test app with `OTHERS` closed listings of someone else and 24 of a member and an admin (every other one each):
 * 16 archived (one of each poster's deleted, one inactive), 8 in the read model, their creation times interleaved. The
 * archive's owner index is emptied, as for listings archived before it, and its backfill not yet run.
 */
async function seeded(): Promise<{ t: TestApp; posters: TestUser[]; listings: Internship[] }> {
  const t = await createTestApp();
  const posters = [await createTestUser(t, "member"), await createTestUser(t, "admin")];
  const listings = generateInternships(24, posters.map((p) => p.user.id), { seed: 9 });
  const archived = listings.slice(0, 16).map((record, i) =>
    i < 2 ? { ...record, deletedAt: record.createdAt } : i < 4 ? { ...record, isActive: false } : record
  );
  const { archive } = await internshipStore(t.kv);
  await archive.seed([...generateInternships(OTHERS, ["someone-else"], { seed: 5 }), ...archived]);
  assertEquals(await importInternships(t.kv, listings.slice(16)), 8);
  for await (const { key } of t.kv.list({ prefix: ["internships_closed_by_owner"] })) await t.kv.delete(key);
  return { t, posters, listings: [...archived, ...listings.slice(16)] };
}

/** The ids and pagination `GET /api/internships?mine=true{query}` answers `who`. */
async function mine(t: TestApp, who: TestUser, query: string) {
  const res = await t.fetch(`/api/internships?mine=true${query}`, { headers: who.headers });
  const body = await res.json();
  assertEquals(res.status, 200, JSON.stringify(body));
  return { ids: body.internships.map((i: { id: string }) => i.id), pagination: body.pagination };
}

/** Every query of `QUERIES` as each poster, by poster and query. */
async function answers(t: TestApp, posters: TestUser[]) {
  const all: Record<string, unknown> = {};
  for (const who of posters) for (const query of QUERIES) all[`${who.user.role} ${query}`] = await mine(t, who, query);
  return all;
}

/** Newest first (creation time, then id, both descending), as every list orders. */
const newest = (records: Internship[]) =>
  records.toSorted((a, b) => b.createdAt.localeCompare(a.createdAt) || (a.id < b.id ? 1 : -1)).map((r) => r.id);

Deno.test("mine reads the poster's closed listings by the owner index, not every archive block", async () => {
  const { t, posters: [member], listings } = await seeded();
  await using _ = t;
  const theirs = listings.filter((r) => r.userId === member.user.id);
  const shown = newest(theirs.filter((r) => !r.deletedAt));
  assertEquals((await mine(t, member, "&limit=100")).ids, shown, "before the backfill: the scan's answer");
  await runJob(findJob("closed-owners-index")!, t.services);

  // A new process (an isolate that has read no block yet), reading through a KV that records what it reads.
  const reads = kvReads();
  const far = recordingReads(t.kv, reads);
  await internshipStore(far);
  Object.assign(reads, kvReads());
  const query = InternshipQuerySchema.parse({ mine: "true", limit: "100" });
  const page = await listInternships(far, { query, viewer: member.user });
  assertEquals(page.internships.map((i) => i.id), shown);
  assertEquals(page.pagination.total, shown.length);

  const listedPrefixes = reads.lists.map(({ selector }) => ("prefix" in selector ? selector.prefix : selector.start)!);
  const touched = [...reads.keys, ...listedPrefixes].map((key) => String(key[0]));
  for (const part of ["internships_closed_blocks", "internships_closed_dir"]) {
    assert(!touched.includes(part), `no archive block or directory entry is read: ${touched.join(", ")}`);
  }
  const archivedTheirs = theirs.filter((r) => listings.indexOf(r) < 16).length;
  assertEquals(reads.listed, archivedTheirs, "their owner index entries only");
  assertEquals(touched.filter((part) => part === "internships_closed").length, archivedTheirs, "their records only");
  assert(reads.keys.length <= archivedTheirs + 10, `a bounded number of keys: ${reads.keys.length}`);
});

Deno.test("mine answers the same filters, sorts and pages before, during and after the owner index backfill", async () => {
  const { t, posters } = await seeded();
  await using _ = t;
  const before = await answers(t, posters);
  // Half done (a run stopped after its first batch): the scan still answers.
  const { archive } = await internshipStore(t.kv);
  const stop = () => Promise.reject(new Error("stopped"));
  await archive.indexOwners({ giveWay: stop, until: Infinity }).catch(() => {});
  assertEquals((await t.kv.get<{ done: boolean }>(archive.keys.ownerIndex)).value?.done, false);
  assert((await Array.fromAsync(t.kv.list({ prefix: ["internships_closed_by_owner"] }))).length > 0, "some indexed");
  assertEquals(await answers(t, posters), before, "while the backfill is not done");
  await runJob(findJob("closed-owners-index")!, t.services);
  assertEquals((await t.kv.get<{ done: boolean }>(archive.keys.ownerIndex)).value?.done, true);
  assertEquals(await answers(t, posters), before, "read through the owner index");
});

Deno.test("a poster with more closed listings than the owner index reads at a time is answered by the scan", async () => {
  await using t = await createTestApp();
  const member = await createTestUser(t, "member");
  const theirs = generateInternships(OWNED_READ_MAX + 5, [member.user.id], { seed: 9 });
  const { archive } = await internshipStore(t.kv);
  await archive.seed([...generateInternships(OTHERS, ["someone-else"], { seed: 5 }), ...theirs]);
  await runJob(findJob("closed-owners-index")!, t.services);
  // All closed: after the open ones in the order asked (none), the closed ones newest first.
  const expected = { ids: newest(theirs).slice(95, 105), total: OWNED_READ_MAX + 5 };
  const answered = await mine(t, member, "&limit=10&offset=95&sort=stipend");
  assertEquals({ ids: answered.ids, total: answered.pagination.total }, expected);

  const reads = kvReads();
  const far = recordingReads(t.kv, reads);
  await internshipStore(far);
  Object.assign(reads, kvReads());
  const params = { mine: "true", limit: "10", offset: "95", sort: "stipend" };
  const page = await listInternships(far, { query: InternshipQuerySchema.parse(params), viewer: member.user });
  assertEquals(page.internships.map((i) => i.id), expected.ids);
  const indexLists = reads.lists.filter(({ selector }) =>
    "prefix" in selector && selector.prefix[0] === "internships_closed_by_owner"
  );
  assertEquals(indexLists.map(({ options }) => options.limit), [OWNED_READ_MAX + 1], "one bounded list of the index");
  const records = reads.keys.filter((key) => key[0] === "internships_closed");
  assertEquals(records.length, 10, "only the page's records, by id");
});
