import { assertEquals } from "@/tests/helpers/assert.ts";
import { DEMO_ACCOUNTS } from "@/lib/demo/accounts.ts";
import { seedDemoData } from "@/lib/demo/seed.ts";
import { needsOnboarding } from "@/lib/onboarding/onboarding.ts";
import { getUserByEmail } from "@/lib/users/users.ts";

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
