import { kvFailingCommits } from "@/tests/fixtures/failing_kv.ts";
import { assertEquals } from "@/tests/helpers/assert.ts";
import { commitPacked, WriteUnit } from "./packed_writes.ts";

Deno.test("commitPacked sends 250 checked writes as 3 commits of at most 100 checks, in order", async () => {
  await using kv = await Deno.openKv(":memory:");
  for (let i = 0; i < 250; i++) await kv.set(["record", i], { n: i });
  const entries = await Array.fromAsync(kv.list<{ n: number }>({ prefix: ["record"] }));
  const { kv: counted, commits } = kvFailingCommits(kv, () => false);
  const units = entries.map((entry) =>
    new WriteUnit().check(entry).set(entry.key, { n: entry.value.n + 1 }).sum(["total"], 1n)
  );
  assertEquals(await commitPacked(counted, units), units.map(() => true));
  assertEquals(commits(), 3);
  assertEquals((await kv.get<Deno.KvU64>(["total"])).value?.value, 250n);
  assertEquals((await kv.get(["record", 249])).value, { n: 250 });
});

Deno.test("commitPacked writes all but the unit whose record changed since it was read", async () => {
  await using kv = await Deno.openKv(":memory:");
  for (let i = 0; i < 5; i++) await kv.set(["record", i], "old");
  const entries = await Array.fromAsync(kv.list<string>({ prefix: ["record"] }));
  await kv.set(["record", 2], "changed meanwhile");
  const units = entries.map((entry) => new WriteUnit().check(entry).delete(entry.key));
  assertEquals(await commitPacked(kv, units), [true, true, false, true, true]);
  assertEquals((await Array.fromAsync(kv.list<string>({ prefix: ["record"] }))).map((e) => e.value), [
    "changed meanwhile",
  ]);
});

Deno.test("commitPacked keeps each commit under KV's 80 KiB of keys and 800 KiB in all", async () => {
  await using kv = await Deno.openKv(":memory:");
  const { kv: counted, commits } = kvFailingCommits(kv, () => false);
  // 60 units of 1.9 KB keys (114 KB of keys), then 40 of 40 KB values (1.6 MB): each over one commit's room.
  const long = "k".repeat(1900);
  const keyed = Array.from({ length: 60 }, (_, i) => new WriteUnit().set([long, i], true));
  const heavy = Array.from({ length: 40 }, (_, i) => new WriteUnit().set(["heavy", i], "v".repeat(20_000)));
  assertEquals(await commitPacked(counted, [...keyed, ...heavy]), [...keyed, ...heavy].map(() => true));
  assertEquals(commits(), 2 + 2);
});
