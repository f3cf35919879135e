/** The demo opportunities: every type published, three awaiting review, one rejected; seeding again adds nothing. */
import { seedOpportunities } from "@/lib/demo/opportunities.ts";
import { AdminOpportunityQuerySchema, adminQueue, listOpportunities } from "@/lib/opportunities/opportunities.ts";
import { OpportunityQuerySchema } from "@/lib/opportunities/schema.ts";
import { assertEquals } from "@/tests/helpers/assert.ts";
import { createTestApp, createTestUser } from "@/tests/helpers/app.ts";

Deno.test("the demo opportunities cover every type and review state, once", async () => {
  await using t = await createTestApp();
  const posters = [(await createTestUser(t, "admin")).user, (await createTestUser(t, "member")).user];
  const students = [(await createTestUser(t)).user, (await createTestUser(t)).user];
  await seedOpportunities(t.kv, posters, students);
  assertEquals(await seedOpportunities(t.kv, posters, students), ["Opportunities: already there"]);
  const published = await listOpportunities(t.kv, OpportunityQuerySchema.parse({ limit: "100" }), null);
  assertEquals(new Set(published.opportunities.map((o) => o.type)).size, 4);
  const { counts } = await adminQueue(t.kv, AdminOpportunityQuerySchema.parse({}));
  assertEquals(counts, { pending: 3, approved: 7, rejected: 1, all: 11 });
});
