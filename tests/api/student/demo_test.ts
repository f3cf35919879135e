/**
 * The demo's student space (docs/decisions.md, Alerts; docs/decisions.md, Notifications; docs/decisions.md,
 * Recommendations; docs/decisions.md, Student space): the onboarded students have alerts, Sara a notification of her
 * rejected opportunity and a tracker of five listings at several stages, and both recommendations with reasons;
 * seeding again adds no alert and no saved listing.
 */
import { seedDemoData } from "@/lib/demo/seed.ts";
import { PLATFORM_TITLE } from "@/lib/demo/applications.ts";
import { listAlerts } from "@/lib/alerts/alerts.ts";
import { listNotifications } from "@/lib/notifications/notifications.ts";
import { recommend } from "@/lib/recommendations/recommendations.ts";
import { listSaved } from "@/lib/saved/saved.ts";
import { getUserByEmail } from "@/lib/users/users.ts";
import { assert, assertEquals } from "@/tests/helpers/assert.ts";
import { createTestApp } from "@/tests/helpers/app.ts";

Deno.test("demo students have alerts, a notification, a tracker and recommendations with reasons, once", async () => {
  await using t = await createTestApp();
  await seedDemoData(t.kv);
  await seedDemoData(t.kv);
  const sara = (await getUserByEmail(t.kv, "sara@demo.careers"))!;
  const rohan = (await getUserByEmail(t.kv, "rohan@demo.careers"))!;
  assertEquals((await listAlerts(t.kv, sara.id)).length, 2);
  assertEquals((await listAlerts(t.kv, rohan.id)).length, 1);
  const { notifications } = await listNotifications(t.kv, {
    userId: sara.id,
    query: { unread: false, limit: 10, offset: 0 },
  });
  assert(notifications.some((n) => n.title === "Your opportunity was not approved"), "the rejection is announced");
  const saved = (await listSaved(t.kv, sara.id, {})).items;
  // Four saved by hand at four stages, one opportunity, and the application she sent here (the tracker follows it).
  const applied = saved.filter((item) => item.listing?.title === PLATFORM_TITLE);
  assertEquals(applied.length, 1, "the application sent here is on the tracker");
  const byHand = saved.filter((item) => !applied.includes(item));
  assertEquals(byHand.map((item) => item.kind).toSorted(), [
    "internships",
    "internships",
    "internships",
    "internships",
    "opportunities",
  ]);
  assertEquals(new Set(byHand.map((item) => item.status)), new Set(["saved", "applied", "interviewing", "rejected"]));
  assert(byHand.every((item) => item.listing !== null && item.note !== ""), "open listings, each with a note");
  for (const user of [sara, rohan]) {
    const [best] = await recommend(t.kv, { user, kind: "internships", limit: 5 });
    assert(best.score > 0 && best.reasons.length > 0, `${user.name}: ${JSON.stringify(best?.reasons)}`);
  }
});
