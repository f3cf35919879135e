import { assertEquals } from "@/tests/helpers/assert.ts";
import { UserSummaryCache } from "./summary_cache.ts";
import { userKey } from "./users.ts";

Deno.test("a summary is read again once due: a rename shows, and a user whose record is gone is forgotten", async () => {
  using kv = await Deno.openKv(":memory:");
  const user = { id: "u1", name: "Asha", image: null, role: "member", email: "asha@example.com" };
  await kv.set(userKey("u1"), user);
  const cache = new UserSummaryCache(kv, 0);
  assertEquals((await cache.of(["u1"])).get("u1")?.name, "Asha");
  await kv.set(userKey("u1"), { ...user, name: "Asha R" });
  const before = cache.version;
  await cache.refresh(() => ["u1"]);
  assertEquals([(await cache.of([])).get("u1")?.name, cache.version > before], ["Asha R", true]);
  // The account's deletion removes the user record first; its listings are forgotten by a later step.
  await kv.delete(userKey("u1"));
  await cache.refresh(() => ["u1"]);
  assertEquals((await cache.of([])).has("u1"), false, "no name shown for a deleted account");
});
