/**
 * The listings new in a window (`newInternships`), which the alerts digest tests each alert's filters against, match
 * exactly what the public list answers for the same filters, cut to the window: the same listings in the same order.
 */
import { InternshipQuerySchema, listInternships, newInternships } from "@/lib/internships/internships.ts";
import { generateInternships, importInternships } from "@/lib/internships/fixtures.ts";
import { istToday } from "@/lib/dates.ts";
import { createUser } from "@/lib/users/users.ts";
import { openKv } from "@/lib/kv.ts";
import { assert, assertEquals } from "@/tests/helpers/assert.ts";

const QUERIES = [
  {},
  { types: "remote" },
  { types: "hybrid,onsite", tags: "react" },
  { tags: "python,figma", minStipend: "10000" },
  { location: "pune", maxStipend: "20000" },
  { location: "Bombay" },
  { search: "data" },
  { search: "intern bangalore" },
  { search: "design", location: "Delhi", minStipend: "5000", maxStipend: "30000" },
];

Deno.test("the listings new in a window match each filter exactly as the list does", async () => {
  const kv = await openKv(":memory:");
  try {
    const owner = await createUser(kv, { name: "Owner", email: "o@x.example", emailVerified: true, role: "member" });
    const now = Date.now();
    await importInternships(kv, generateInternships(3000, [owner.id], { seed: 3, now, withHidden: true }));
    const after = now - 20 * 86_400_000, until = now - 2 * 86_400_000;
    const today = istToday();
    const fresh = await newInternships(kv, { after, until, today });
    assert(fresh.count > 100 && fresh.count < 1000, `${fresh.count} new listings`);
    let matched = 0;
    for (const params of QUERIES) {
      const query = InternshipQuerySchema.parse({ ...params, limit: "100" });
      const all = [];
      for (let offset = 0;; offset += 100) {
        const page = await listInternships(kv, { query: { ...query, offset }, viewer: null, today });
        all.push(...page.internships);
        if (!page.pagination.hasMore) break;
      }
      const expected = all.filter((i) => Date.parse(i.createdAt) > after && Date.parse(i.createdAt) <= until);
      const found = fresh.matching(query);
      assertEquals(found.map((i) => i.id), expected.map((i) => i.id), JSON.stringify(params));
      assert(found.every((i) => !i.isClosed));
      matched += found.length;
    }
    assert(matched > 0);
  } finally {
    kv.close();
  }
});
