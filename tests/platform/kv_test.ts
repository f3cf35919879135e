/**
 * Two connections to one KV file (two processes, in production) writing at once: every commit
 * lands, although SQLite refuses some of them with "database is locked" on the first try.
 */
import { assertEquals } from "@/tests/helpers/assert.ts";
import { openKv } from "@/lib/kv.ts";

Deno.test("two connections to one KV file commit concurrently without 'database is locked'", async () => {
  const dir = await Deno.makeTempDir();
  const a = await openKv(`${dir}/kv.sqlite3`);
  const b = await openKv(`${dir}/kv.sqlite3`);
  try {
    const perConnection = 400;
    const results = await Promise.all([a, b].map(async (kv, connection) => {
      let ok = 0;
      for (let i = 0; i < perConnection; i++) {
        const key = ["item", connection, i];
        const result = await kv.atomic().check({ key, versionstamp: null }).set(key, i).sum(["count"], 1n).commit();
        if (result.ok) ok++;
      }
      return ok;
    }));
    assertEquals(results, [perConnection, perConnection]);
    assertEquals((await a.get<Deno.KvU64>(["count"])).value?.value, BigInt(2 * perConnection));
  } finally {
    a.close();
    b.close();
    await Deno.remove(dir, { recursive: true });
  }
});
