import { assert, assertEquals } from "@/tests/helpers/assert.ts";
import { adminLogQuerySchema, listAdminLog } from "@/lib/admin_log/admin_log.ts";
import { DEMO_ACCOUNTS } from "@/lib/demo/accounts.ts";
import { seedDemoData } from "@/lib/demo/seed.ts";
import { needsOnboarding } from "@/lib/onboarding/onboarding.ts";
import { getUserByEmail } from "@/lib/users/users.ts";
import { adminUserListQuerySchema, listUsersForAdmin } from "@/lib/users/admin.ts";
import { SUSPENDED_EMAIL } from "@/lib/demo/suspension.ts";

Deno.test("demo accounts: every one but the new student has finished onboarding; a second seed changes none", async () => {
  using kv = await Deno.openKv(":memory:");
  await seedDemoData(kv);
  await seedDemoData(kv);
  const due: string[] = [];
  for (const account of DEMO_ACCOUNTS) {
    const user = await getUserByEmail(kv, account.email);
    if (await needsOnboarding(kv, user!)) due.push(account.email);
  }
  assertEquals(due, ["new@demo.careers"]);
  assertEquals(DEMO_ACCOUNTS.map((a) => a.role).sort(), ["admin", "member", "user", "user", "user"]);
  const sara = await getUserByEmail(kv, "sara@demo.careers");
  assertEquals(sara?.fieldInterests, ["Software development", "Data & AI"]);
});

Deno.test("the demo's admin log has the admin's seeded decisions, once however often it is seeded", async () => {
  using kv = await Deno.openKv(":memory:");
  await seedDemoData(kv);
  await seedDemoData(kv);
  const admin = await getUserByEmail(kv, "admin@demo.careers");
  const page = await listAdminLog(kv, adminLogQuerySchema.parse({}));
  const actions = page.entries.map((entry) => entry.action);
  assert(actions.includes("opportunity.review") && actions.includes("coupon.create"), actions.join());
  assert(page.entries.every((entry) => entry.adminId === admin!.id), "each names the demo admin");
  assertEquals(actions.filter((action) => action === "opportunity.review").length, 1);
});

Deno.test("the demo has one suspended account, not a demo login, listed by the suspended filter once", async () => {
  using kv = await Deno.openKv(":memory:");
  await seedDemoData(kv);
  await seedDemoData(kv);
  const suspended = await listUsersForAdmin(kv, adminUserListQuerySchema.parse({ suspended: "true" }));
  assertEquals(suspended.users.map((user) => user.email), [SUSPENDED_EMAIL]);
  assert(suspended.users[0].suspension?.reason, "with its reason");
  assert(!DEMO_ACCOUNTS.some((account) => account.email === SUSPENDED_EMAIL));
  const log = await listAdminLog(kv, adminLogQuerySchema.parse({ action: "user.suspend" }));
  assertEquals(log.entries.length, 1);
});
