import { assertEquals } from "@/tests/helpers/assert.ts";
import { addNotification, droppedMembers, GROUP_KEPT, groupKey, readNotificationGroup } from "./notifications.ts";

const member = (id: string, from: string) => ({ id, from });

Deno.test("a full group drops the oldest of the source holding the most, the newcomer counted", () => {
  const spread = ["a", "b", "c", "a", "b", "c", "a", "b", "c", "s"].map((from, i) => member(`n${i}`, from));
  assertEquals(droppedMembers(spread, "s"), [spread[0]], "a, b and c hold 3 as s does now: the oldest of them");
  const flooded = [...spread.slice(0, 9), member("n9", "s"), member("n10", "s"), member("n11", "s")].slice(2);
  assertEquals(droppedMembers(flooded, "s"), [flooded[7]], "s holds the most: its own oldest");
  assertEquals(droppedMembers(spread.slice(1), "s"), [], "a place is free");
});

Deno.test("a group stored as bare ids reads each as its own source and is rewritten as members", async () => {
  using kv = await Deno.openKv(":memory:");
  const userId = "asha";
  const ids: string[] = [];
  const at = (i: number) => new Date(Date.now() - 60_000 + i);
  for (let i = 0; i < GROUP_KEPT; i++) {
    const op = kv.atomic();
    ids.push(
      addNotification(op, { userId, type: "comment_reply", title: `Reply ${i}`, url: "/", bellOnly: true }, at(i)).id,
    );
    await op.commit();
  }
  await kv.set(groupKey(userId, "replies:p"), ids);
  const op = kv.atomic();
  const group = await readNotificationGroup(kv, { userId, group: "replies:p", from: "ravi" });
  const added = addNotification(
    op,
    { userId, type: "comment_reply", title: "New", url: "/", bellOnly: true, group },
    at(99),
  );
  assertEquals((await op.commit()).ok, true);
  const kept = await Array.fromAsync(kv.list<{ id: string }>({ prefix: ["notifications", userId] }));
  assertEquals(kept.map((entry) => entry.value.id), [...ids.slice(1), added.id], "the oldest went");
  assertEquals(
    (await kv.get(groupKey(userId, "replies:p"))).value,
    [...ids.slice(1).map((id) => ({ ...member(id, id), told: true })), member(added.id, "ravi")],
  );
});
