/**
 * A submitter's own list (`GET /api/opportunities?mine=true`, `/opportunities/mine`) reads their ended opportunities
 * through the archive's owner index once the `closed-owners-index` backfill is done (docs/decisions.md, Open and closed
 * listings, "Reading closed listings"): what it reads grows with the submitter's opportunities, not with the archive,
 * and it answers what the test of every archive block answered before, with every filter and page. Counts of keys
 * read, never timings.
 */
import { assert, assertEquals } from "@/tests/helpers/assert.ts";
import { createTestApp, createTestUser, type TestApp, type TestUser } from "@/tests/helpers/app.ts";
import { kvReads, recordingReads } from "@/tests/helpers/kv_reads.ts";
import {
  listOpportunities,
  type Opportunity,
  OPPORTUNITY_TYPES,
  OpportunityCreateSchema,
  OpportunityQuerySchema,
  submitOpportunity,
} from "@/lib/opportunities/opportunities.ts";
import { opportunityStore } from "@/lib/opportunities/store.ts";
import { findJob, runJob } from "@/lib/jobs/registry.ts";
import { NEXT_YEAR } from "@/tests/fixtures/opportunities.ts";

/** Ended opportunities of other submitters in the archive. */
const OTHERS = 2000;

/** The queries of a submitter's own list checked before and after the backfill, as URL queries after `mine=true`. */
const QUERIES = [
  "",
  "&limit=2",
  "&limit=2&offset=2",
  "&limit=3&offset=6",
  "&limit=2&offset=12",
  "&type=hackathon",
  "&type=grant,ideathon&limit=2&offset=1",
  "&search=robotics",
  "&search=campus&limit=3&offset=2",
  "&includeClosed=false",
];

/** `OTHERS` ended opportunities of someone else, created a day apart a year ago. */
function othersEnded(): Opportunity[] {
  const start = Date.UTC(NEXT_YEAR - 2, 0, 1);
  return Array.from({ length: OTHERS }, (_, i) => {
    const createdAt = new Date(start + i * 3_600_000).toISOString();
    return {
      id: crypto.randomUUID(),
      title: `Campus event ${i}`,
      description: "Robotics and more",
      location: null,
      type: OPPORTUNITY_TYPES[i % OPPORTUNITY_TYPES.length],
      startDate: `${NEXT_YEAR - 2}-02-01`,
      endDate: `${NEXT_YEAR - 2}-02-02`,
      link: null,
      organizer: null,
      userId: "someone-else",
      isVerified: true,
      isActive: true,
      createdAt,
      updatedAt: createdAt,
    };
  });
}

/**
 * A test app with `OTHERS` ended opportunities of someone else and 12 of a student, 8 of them ended (archived as they
 * are submitted) and 4 open, types and titles in turn; the archive's owner index emptied, as for opportunities archived
 * before it, and its backfill not yet run.
 */
async function seeded(): Promise<{ t: TestApp; student: TestUser; ended: string[] }> {
  const t = await createTestApp();
  const student = await createTestUser(t);
  await (await opportunityStore(t.kv)).archive.seed(othersEnded());
  const ended: string[] = [];
  for (let i = 0; i < 12; i++) {
    const year = i % 3 === 2 ? NEXT_YEAR : NEXT_YEAR - 2;
    const input = OpportunityCreateSchema.parse({
      title: `${["Robotics", "Campus", "Design"][i % 3]} challenge ${i}`,
      type: OPPORTUNITY_TYPES[i % OPPORTUNITY_TYPES.length],
      startDate: `${year}-03-01`,
      endDate: `${year}-03-02`,
    });
    const submitted = await submitOpportunity(t.kv, student.user, input);
    if (year < NEXT_YEAR) ended.push(submitted.id);
  }
  for await (const { key } of t.kv.list({ prefix: ["opportunities_closed_by_owner"] })) await t.kv.delete(key);
  return { t, student, ended };
}

/** The ids and pagination `GET /api/opportunities?mine=true{query}` answers `who`. */
async function mine(t: TestApp, who: TestUser, query: string) {
  const res = await t.fetch(`/api/opportunities?mine=true${query}`, { headers: who.headers });
  const body = await res.json();
  assertEquals(res.status, 200, JSON.stringify(body));
  return { ids: body.opportunities.map((o: { id: string }) => o.id), pagination: body.pagination };
}

/** Every query of `QUERIES` as `who`, by query. */
async function answers(t: TestApp, who: TestUser) {
  const all: Record<string, unknown> = {};
  for (const query of QUERIES) all[query] = await mine(t, who, query);
  return all;
}

Deno.test("opportunities' mine reads the submitter's ended ones by the owner index, not every archive block", async () => {
  const { t, student, ended } = await seeded();
  await using _ = t;
  const all = (await mine(t, student, "&limit=100")).ids;
  assertEquals(all.length, 12);
  await runJob(findJob("closed-owners-index")!, t.services);

  const reads = kvReads();
  const far = recordingReads(t.kv, reads);
  await opportunityStore(far);
  Object.assign(reads, kvReads());
  const page = await listOpportunities(far, OpportunityQuerySchema.parse({ mine: "true", limit: "100" }), student.user);
  assertEquals(page.opportunities.map((o) => o.id), all);

  const listedPrefixes = reads.lists.map(({ selector }) => ("prefix" in selector ? selector.prefix : selector.start)!);
  const touched = [...reads.keys, ...listedPrefixes].map((key) => String(key[0]));
  for (const part of ["opportunities_closed_blocks", "opportunities_closed_dir"]) {
    assert(!touched.includes(part), `no archive block or directory entry is read: ${touched.join(", ")}`);
  }
  assertEquals(reads.listed, ended.length, "their owner index entries only");
  assertEquals(touched.filter((part) => part === "opportunities_closed").length, ended.length, "their records only");
  assert(reads.keys.length <= ended.length + 10, `a bounded number of keys: ${reads.keys.length}`);
});

Deno.test("opportunities' mine answers the same filters and pages before, during and after the owner index backfill", async () => {
  const { t, student } = await seeded();
  await using _ = t;
  const before = await answers(t, student);
  const { archive } = await opportunityStore(t.kv);
  // Half done (a run stopped after its first batch): the scan still answers.
  const stop = () => Promise.reject(new Error("stopped"));
  await archive.indexOwners({ giveWay: stop, until: Infinity }).catch(() => {});
  assertEquals((await t.kv.get<{ done: boolean }>(archive.keys.ownerIndex)).value?.done, false);
  assertEquals(await answers(t, student), before, "while the backfill is not done");
  await runJob(findJob("closed-owners-index")!, t.services);
  assertEquals((await t.kv.get<{ done: boolean }>(archive.keys.ownerIndex)).value?.done, true);
  assertEquals(await answers(t, student), before, "read through the owner index");
});
