import { assertEquals } from "@/tests/helpers/assert.ts";
import { UserSummaryCache } from "./summary_cache.ts";
import { createUser, deleteUserOps, updateUser, type User, userKey } from "./users.ts";

/** `kv` with a count of the user records it read. */
function counted(kv: Deno.Kv): { kv: Deno.Kv; userReads: () => number } {
  let reads = 0;
  const proxy = new Proxy(kv, {
    get(target, prop) {
      if (prop === "getMany") {
        return (keys: Deno.KvKey[]) => {
          reads += keys.filter((key) => key[0] === "users").length;
          return target.getMany(keys);
        };
      }
      const value = Reflect.get(target, prop);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  return { kv: proxy, userReads: () => reads };
}

Deno.test("a summary is read again once the marker moved: a rename shows, a deleted account's user is forgotten", async () => {
  using kv = await Deno.openKv(":memory:");
  const user = await createUser(kv, { name: "Asha", email: "asha@example.com", emailVerified: true, role: "member" });
  const cache = new UserSummaryCache(kv, 0);
  assertEquals((await cache.of([user.id])).get(user.id)?.name, "Asha");
  await updateUser(kv, user.id, { name: "Asha R" });
  const before = cache.version;
  await cache.refresh();
  assertEquals([(await cache.of([])).get(user.id)?.name, cache.version > before], ["Asha R", true]);
  // The account's deletion removes the user record first; its listings are forgotten by a later step.
  const entry = await kv.get<User>(userKey(user.id));
  const op = kv.atomic();
  deleteUserOps(op, entry as Deno.KvEntry<User>);
  await op.commit();
  await cache.refresh();
  assertEquals((await cache.of([])).has(user.id), false, "no name shown for a deleted account");
});

Deno.test("a check reads no user while no name, image or role changed, and other fields move nothing", async () => {
  using raw = await Deno.openKv(":memory:");
  const { kv, userReads } = counted(raw);
  const users = await Promise.all(
    [1, 2, 3].map((n) =>
      createUser(raw, { name: `U${n}`, email: `u${n}@x.example`, emailVerified: true, role: "member" })
    ),
  );
  const cache = new UserSummaryCache(kv, 0);
  await cache.of(users.map((user) => user.id));
  const read = userReads();
  await updateUser(raw, users[0].id, { language: "hi", collegeInstitute: "IIT" });
  await cache.refresh();
  await cache.refresh();
  assertEquals(userReads(), read, "the marker alone was read");
  await updateUser(raw, users[1].id, { role: "admin" });
  await cache.refresh();
  assertEquals([userReads() - read, (await cache.of([])).get(users[1].id)?.role], [3, "admin"]);
});
