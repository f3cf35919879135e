/**
 * KV data written before internship and opportunity index entries kept `updatedAt` and the closing dates
 * (docs/decisions.md, Search engines and sharing): the store's first load writes those index chunks again from their
 * records, so a closed internship leaves the list and the sitemap, and `lastmod` is the last update, without waiting
 * for a write to the chunk.
 */
import { assert, assertEquals } from "@/tests/helpers/assert.ts";
import { internshipInput } from "@/tests/fixtures/internships.ts";
import { openKv } from "@/lib/kv.ts";
import { istToday } from "@/lib/dates.ts";
import { createUser } from "@/lib/users/users.ts";
import { DEFAULT_QUERY, listInternships, openInternshipStamps } from "@/lib/internships/internships.ts";
import { createInternships, updateInternship } from "@/lib/internships/writes.ts";
import { publishedOpportunityStamps, submitOpportunity } from "@/lib/opportunities/opportunities.ts";
import { OpportunityCreateSchema } from "@/lib/opportunities/schema.ts";
import { NEXT_YEAR } from "@/tests/fixtures/opportunities.ts";

const DAY_MS = 24 * 60 * 60 * 1000;

/** Rewrites every index chunk under `prefix` as an older version wrote it: each entry cut to its first `fields`. */
async function writeAsOlderIndexes(kv: Deno.Kv, prefix: string, fields: number): Promise<number> {
  let rewritten = 0;
  for await (const index of kv.list<Uint8Array>({ prefix: [`${prefix}_index`] })) {
    const n = index.key[1] as number;
    const chunk = await kv.get<Uint8Array>([`${prefix}_chunks`, n]);
    const text = new TextDecoder().decode(index.value);
    const cut = text.indexOf("\0");
    const json = JSON.parse(cut === -1 ? text : text.slice(0, cut));
    json.entries = json.entries.map((entry: unknown[]) => entry.slice(0, fields));
    const older = new TextEncoder().encode(JSON.stringify(json) + (cut === -1 ? "" : text.slice(cut)));
    // The chunk is written again in the same commit, so index and chunk keep sharing a versionstamp.
    await kv.atomic().set(chunk.key, chunk.value!).set(index.key, older).commit();
    rewritten++;
  }
  return rewritten;
}

async function storedEntryLengths(kv: Deno.Kv, prefix: string): Promise<number[]> {
  const lengths: number[] = [];
  for await (const index of kv.list<Uint8Array>({ prefix: [`${prefix}_index`] })) {
    const text = new TextDecoder().decode(index.value);
    const cut = text.indexOf("\0");
    for (const entry of JSON.parse(cut === -1 ? text : text.slice(0, cut)).entries) lengths.push(entry.length);
  }
  return lengths;
}

Deno.test("index chunks written before updatedAt and deadlines were kept are written anew at load", async () => {
  const dir = await Deno.makeTempDir();
  const path = `${dir}/kv.sqlite3`;
  const yesterday = istToday(new Date(Date.now() - DAY_MS));
  try {
    let ids: { open: string; closed: string; edited: string; opportunity: string };
    /** The entry lengths the current code writes, before they are cut to an older layout. */
    let current: { internships: number; opportunities: number };
    {
      await using kv = await openKv(path);
      const owner = await createUser(kv, {
        name: "Mihir",
        email: "mihir@example.com",
        emailVerified: true,
        role: "admin",
      });
      const [open, closed, edited] = await createInternships(kv, owner, [
        internshipInput({ title: "Intern" }),
        internshipInput({ title: "Closed", deadline: yesterday }),
        internshipInput({ title: "Edited" }),
      ]);
      await new Promise((resolve) => setTimeout(resolve, 5));
      await updateInternship(kv, { id: edited.id, actor: owner, patch: { title: "Edited again" } });
      const opportunity = await submitOpportunity(
        kv,
        owner,
        OpportunityCreateSchema.parse({
          title: "Hack",
          type: "hackathon",
          startDate: `${NEXT_YEAR}-01-01`,
          endDate: `${NEXT_YEAR}-01-02`,
        }),
      );
      ids = { open: open.id, closed: closed.id, edited: edited.id, opportunity: opportunity.id };
      current = {
        internships: (await storedEntryLengths(kv, "internships"))[0],
        opportunities: (await storedEntryLengths(kv, "opportunities"))[0],
      };
      assert(current.internships > 8 && current.opportunities > 5, "the current layout has more fields");
      assert(await writeAsOlderIndexes(kv, "internships", 8) > 0);
      assert(await writeAsOlderIndexes(kv, "opportunities", 5) > 0);
    }
    await using kv = await openKv(path);
    const listed = (await listInternships(kv, { query: DEFAULT_QUERY, viewer: null })).internships.map((i) => i.id)
      .sort();
    assertEquals(listed, [ids.open, ids.edited].sort(), "the closed internship is out of the list");
    const stamps = await openInternshipStamps(kv, istToday());
    assertEquals(stamps.map((s) => s.id).sort(), [ids.open, ids.edited].sort(), "and out of the sitemap");
    const records = new Map(
      (await listInternships(kv, { query: DEFAULT_QUERY, viewer: null })).internships.map((
        i,
      ) => [i.id, Date.parse(i.updatedAt)]),
    );
    const edited = stamps.find((s) => s.id === ids.edited)!;
    assertEquals(edited.updatedMs, records.get(ids.edited), "lastmod is the last update");
    assert(
      edited.updatedMs >
        Date.parse((await listInternships(kv, { query: DEFAULT_QUERY, viewer: null })).internships[0].createdAt),
    );
    assert(
      (await storedEntryLengths(kv, "internships")).every((length) => length === current.internships),
      "stored anew",
    );
    const [opportunity] = await publishedOpportunityStamps(kv);
    assertEquals(opportunity.id, ids.opportunity);
    assert(
      (await storedEntryLengths(kv, "opportunities")).every((length) => length === current.opportunities),
      "stored anew",
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
