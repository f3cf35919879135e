/**
 * Opportunities that ended leave the read model for the archive (docs/decisions.md, Open and closed listings,
 * "Opportunities"), and the lists answer the same before and after: the public order (open ones by soonest end, then
 * closed ones by latest end), `includeClosed=false`, `mine`, and the admin queue with its counts, in two processes on
 * one KV file. A review of an archived one, and a resubmission that opens it again, land where they belong.
 */
import { assert, assertEquals } from "@/tests/helpers/assert.ts";
import { istToday } from "@/lib/dates.ts";
import { openKv } from "@/lib/kv.ts";
import {
  AdminOpportunityQuerySchema,
  adminQueue,
  closeOpportunities,
  getOpportunity,
  listOpportunities,
  type Opportunity,
  OpportunityCreateSchema,
  OpportunityQuerySchema,
  resubmitOpportunity,
  reviewOpportunity,
  submitOpportunity,
} from "@/lib/opportunities/opportunities.ts";
import { opportunityStore } from "@/lib/opportunities/store.ts";
import { SYNC_INTERVAL_MS } from "@/lib/kv/chunked/read_model.ts";
import { createUser } from "@/lib/users/users.ts";
import { NEXT_YEAR } from "@/tests/fixtures/opportunities.ts";

const waitForSync = () => new Promise((resolve) => setTimeout(resolve, SYNC_INTERVAL_MS + 50));
const body = (title: string, startDate: string, endDate: string) =>
  OpportunityCreateSchema.parse({ title, type: "hackathon", startDate, endDate, description: `About ${title}` });

Deno.test("ended opportunities move to the archive; every list answers as before, in both processes", async () => {
  const dir = await Deno.makeTempDir({ prefix: "opportunities-closing-" });
  const a = await openKv(`${dir}/kv.sqlite3`);
  const admin = await createUser(a, { name: "Admin", email: "admin@x.example", emailVerified: true, role: "admin" });
  const student = await createUser(a, { name: "S", email: "s@x.example", emailVerified: true, role: "user" });
  const b = await openKv(`${dir}/kv.sqlite3`);
  try {
    const later = await submitOpportunity(a, admin, body("Later", `${NEXT_YEAR}-01-01`, `${NEXT_YEAR}-12-31`));
    const sooner = await submitOpportunity(a, admin, body("Sooner", `${NEXT_YEAR}-01-01`, `${NEXT_YEAR}-06-30`));
    const ended = await submitOpportunity(a, admin, body("Ended at submission", "2020-01-01", "2020-02-01"));
    // Stored before the archive existed: ended, yet in the read model until the job moves them.
    const now = new Date().toISOString();
    const legacy = (title: string, endDate: string, fields: Partial<Opportunity>): Opportunity => ({
      ...body(title, "2021-05-01", endDate),
      id: crypto.randomUUID(),
      userId: student.id,
      isVerified: true,
      isActive: true,
      createdAt: now,
      updatedAt: now,
      ...fields,
    });
    const legacyPublished = legacy("Legacy published", "2021-05-05", {});
    const legacyPending = legacy("Legacy pending", "2021-05-06", { isVerified: false });
    await (await opportunityStore(a)).writer.insert([legacyPublished, legacyPending]);
    await waitForSync();

    const publicIds = async (kv: Deno.Kv, params: Record<string, string> = {}) =>
      (await listOpportunities(kv, OpportunityQuerySchema.parse(params), null)).opportunities.map((o) => o.id);
    const snapshot = async (kv: Deno.Kv) => ({
      all: await publicIds(kv),
      open: await publicIds(kv, { includeClosed: "false" }),
      paged: [
        ...await publicIds(kv, { limit: "2" }),
        ...await publicIds(kv, { limit: "2", offset: "2" }),
        ...await publicIds(kv, { limit: "2", offset: "4" }),
      ],
      mine: (await listOpportunities(kv, OpportunityQuerySchema.parse({ mine: "true" }), student)).opportunities
        .map((o) => o.id),
      queue: await adminQueue(kv, AdminOpportunityQuerySchema.parse({ status: "all" })),
    });
    const expectedPublic = [sooner.id, later.id, legacyPublished.id, ended.id];
    for (const kv of [a, b]) {
      const before = await snapshot(kv);
      assertEquals(before.all, expectedPublic);
      assertEquals(before.paged, expectedPublic);
      assertEquals(before.open, [sooner.id, later.id]);
    }
    const before = await snapshot(a);

    assertEquals(await closeOpportunities(a, { today: istToday(), giveWay: () => Promise.resolve() }), 2);
    assertEquals(await closeOpportunities(b, { today: istToday(), giveWay: () => Promise.resolve() }), 0);
    await waitForSync();
    for (const kv of [a, b]) {
      const { model } = await opportunityStore(kv);
      assertEquals(model.slotOf(legacyPublished.id), undefined, "left the read model");
      assertEquals(model.slotOf(legacyPending.id), undefined);
      const after = await snapshot(kv);
      assertEquals(after.all, before.all);
      assertEquals(after.paged, before.all);
      assertEquals(after.open, before.open);
      assertEquals(after.mine, before.mine);
      assertEquals(after.queue.counts, before.queue.counts);
      assertEquals(after.queue.opportunities.map((o) => o.id), before.queue.opportunities.map((o) => o.id));
      assertEquals((await getOpportunity(kv, legacyPublished.id, null)).title, "Legacy published");
    }
    assertEquals(before.queue.counts, { pending: 1, approved: 4, rejected: 0, all: 5 });

    // Approving the archived pending one publishes it where it stays: first among the closed ones (latest end).
    await reviewOpportunity(b, { id: legacyPending.id, review: { action: "approve", reason: null } });
    await waitForSync();
    for (const kv of [a, b]) {
      assertEquals(await publicIds(kv), [sooner.id, later.id, legacyPending.id, legacyPublished.id, ended.id]);
      assertEquals((await adminQueue(kv, AdminOpportunityQuerySchema.parse({}))).counts.approved, 5);
    }
    // Rejected, then resubmitted with a later end: it opens again and comes back into the read model.
    await reviewOpportunity(a, { id: legacyPending.id, review: { action: "reject", reason: "Dates" } });
    const again = await resubmitOpportunity(b, {
      user: student,
      id: legacyPending.id,
      input: body("Legacy pending", `${NEXT_YEAR}-02-01`, `${NEXT_YEAR}-02-02`),
    });
    assertEquals(again.endDate, `${NEXT_YEAR}-02-02`);
    await waitForSync();
    for (const kv of [a, b]) {
      assert((await opportunityStore(kv)).model.slotOf(legacyPending.id) !== undefined, "back in the read model");
      const pending = await adminQueue(kv, AdminOpportunityQuerySchema.parse({ status: "pending" }));
      assertEquals(pending.opportunities.map((o) => o.id), [legacyPending.id]);
    }
  } finally {
    a.close();
    b.close();
    await Deno.remove(dir, { recursive: true });
  }
});
