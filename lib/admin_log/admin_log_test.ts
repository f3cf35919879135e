import { assertEquals } from "@/tests/helpers/assert.ts";
import { kvReads, recordingReads } from "@/tests/helpers/kv_reads.ts";
import { InFlightRequests } from "@/lib/platform/in_flight.ts";
import {
  type AdminAction,
  adminLogOf,
  appendAdminLogOps,
  forgetPersonInLog,
  indexExistingEntries,
  listAdminLog,
} from "./admin_log.ts";

/** Appends `count` entries of `action` by `adminId`, a minute apart from `from`, 100 a write. */
async function append(kv: Deno.Kv, { adminId, action, count, from }: {
  adminId: string;
  action: AdminAction;
  count: number;
  from: number;
}) {
  for (let start = 0; start < count; start += 100) {
    const op = kv.atomic();
    for (let i = start; i < Math.min(count, start + 100); i++) {
      appendAdminLogOps(
        op,
        { adminId, action, targetKind: "internship", targetId: `i${i}` },
        new Date(from + i * 60_000),
      );
    }
    await op.commit();
  }
}

Deno.test("admin and action: a busy admin's rare action is one range read of its page, not their whole year", async () => {
  using kv = await Deno.openKv(":memory:");
  const reads = kvReads();
  const counted = recordingReads(kv, reads);
  const day = Date.now() - 24 * 60 * 60_000;
  await append(kv, { adminId: "asha", action: "moderation.decide", count: 2_000, from: day });
  await append(kv, { adminId: "asha", action: "user.suspend", count: 3, from: day + 30 * 60_000 });
  await append(kv, { adminId: "bilal", action: "user.suspend", count: 5, from: day });
  // Deployed since the index: its backfill has run (it finds every entry indexed already).
  await indexExistingEntries({ kv, requests: new InFlightRequests() });

  const page = await listAdminLog(counted, { adminId: "asha", action: "user.suspend", limit: 50 });
  assertEquals(page.entries.map((entry) => entry.targetId), ["i2", "i1", "i0"]);
  assertEquals(page.nextCursor, null);
  assertEquals(
    [reads.listed, reads.keys.length],
    [3, 4],
    "3 index entries and 3 entries read, and once whether the backfill is done; not 2,003",
  );

  // Pages by cursor within the index.
  const first = await listAdminLog(kv, { adminId: "asha", action: "moderation.decide", limit: 50 });
  const second = await listAdminLog(kv, {
    adminId: "asha",
    action: "moderation.decide",
    limit: 50,
    cursor: first.nextCursor!,
  });
  assertEquals([first.entries[0].targetId, second.entries[0].targetId, second.entries.length], ["i1999", "i1949", 50]);

  // Forgetting the admin takes their entries off this index too.
  await forgetPersonInLog(kv, "asha");
  assertEquals((await listAdminLog(kv, { adminId: "asha", action: "user.suspend", limit: 50 })).entries, []);
  assertEquals(await adminLogOf(kv, "asha"), []);
});

Deno.test("entries appended before the admin-and-action index are indexed once", async () => {
  using kv = await Deno.openKv(":memory:");
  const from = Date.now() - 60 * 60_000;
  await append(kv, { adminId: "asha", action: "user.suspend", count: 150, from });
  // As appended before the index: drop its entries.
  for await (const { key } of kv.list({ prefix: ["admin_log_by_admin_action"] })) await kv.delete(key);
  // Until the job is done, the admin's own index is read, kept to the action: nothing is missing meanwhile.
  const before = await listAdminLog(kv, { adminId: "asha", action: "user.suspend", limit: 10 });
  assertEquals([before.entries.length, before.entries[0].targetId, before.nextCursor !== null], [10, "i149", true]);

  const requests = new InFlightRequests();
  assertEquals(await indexExistingEntries({ kv, requests }), { indexed: 150 });
  assertEquals(await indexExistingEntries({ kv, requests }), { indexed: 0 });
  const page = await listAdminLog(kv, { adminId: "asha", action: "user.suspend", limit: 10 });
  assertEquals(page.entries.map((entry) => entry.targetId).slice(0, 2), ["i149", "i148"]);
  assertEquals(page.entries.length, 10);
});
