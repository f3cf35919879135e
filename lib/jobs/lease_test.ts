import { assert, assertEquals } from "@/tests/helpers/assert.ts";
import { claimEach, claimTime, HOLDER, settleEach } from "./lease.ts";
import type { Lease } from "./lease.ts";

type Task = { name: string; lease: Lease | null };

const NOW = 1_000_000;
const LEASE = { now: NOW, leaseMs: 60_000 };

/** Three tasks stored in a fresh in-memory KV, read back as entries. */
async function tasks(kv: Deno.Kv, leases: (Lease | null)[]): Promise<Deno.KvEntry<Task>[]> {
  for (const [i, lease] of leases.entries()) await kv.set(["tasks", i], { name: `t${i}`, lease });
  return (await kv.getMany<Task[]>(leases.map((_, i) => ["tasks", i]))) as Deno.KvEntry<Task>[];
}

Deno.test("claimEach: one write claims every free record; a live lease is left alone", async () => {
  using kv = await Deno.openKv(":memory:");
  const read = await tasks(kv, [null, { holder: "other", until: NOW + 1 }, { holder: "gone", until: NOW - 1 }]);
  const claimed = await claimEach(kv, read, LEASE);
  assertEquals(claimed.map((entry) => entry?.value.name ?? null), ["t0", null, "t2"]);
  assertEquals(claimed[0]!.versionstamp, claimed[2]!.versionstamp, "claimed in one write");
  const stored = await kv.getMany<Task[]>(read.map((entry) => entry.key));
  assertEquals(stored.map((entry) => entry.value!.lease?.holder), [HOLDER, "other", HOLDER]);
  assertEquals(stored[0].versionstamp, claimed[0]!.versionstamp, "the claim's versionstamp is the record's");
});

Deno.test("claimEach: after a lost race each record is claimed on its own, the changed one missed", async () => {
  using kv = await Deno.openKv(":memory:");
  const read = await tasks(kv, [null, null, null]);
  await kv.set(read[1].key, { name: "t1", lease: { holder: "other", until: NOW + 60_000 } });
  const claimed = await claimEach(kv, read, LEASE);
  assertEquals(claimed.map((entry) => entry?.value.name ?? null), ["t0", null, "t2"]);
  assertEquals((await kv.get<Task>(read[1].key)).value!.lease?.holder, "other");
});

Deno.test("settleEach: one write records every claim; after a lost claim the others are recorded on their own", async () => {
  using kv = await Deno.openKv(":memory:");
  const claimed = (await claimEach(kv, await tasks(kv, [null, null, null]), LEASE)) as Deno.KvEntry<Task>[];
  const done = (entry: Deno.KvEntry<Task>) => ({
    claimed: entry,
    write: (op: Deno.AtomicOperation) =>
      op.set(entry.key, { ...entry.value, name: `${entry.value.name} done`, lease: null }),
  });
  assertEquals(await settleEach(kv, claimed.slice(0, 2).map(done)), [true, true]);
  const stored = await kv.getMany<Task[]>(claimed.map((entry) => entry.key));
  assertEquals(stored.map((entry) => entry.value!.name), ["t0 done", "t1 done", "t2"]);
  assertEquals(stored[0].versionstamp, stored[1].versionstamp, "recorded in one write");
  // t0 was settled already: its claim is stale, so only t2 is recorded.
  assertEquals(await settleEach(kv, [done(claimed[0]), done(claimed[2])]), [false, true]);
  const after = await kv.getMany<Task[]>(claimed.map((entry) => entry.key));
  assertEquals(after.map((entry) => entry.value!.name), ["t0 done", "t1 done", "t2 done"]);
});

Deno.test("claimTime: a claim counts from the clock, not from a run's earlier time; a later run's time is kept", () => {
  const clock = Date.now();
  assert(claimTime(clock - 6 * 60_000) >= clock, "a run that began 6 minutes ago claims at the clock");
  const later = clock + 60 * 60_000;
  assertEquals(claimTime(later), later);
});
