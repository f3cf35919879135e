import { assertEquals, assertRejects } from "@/tests/helpers/assert.ts";
import { RateLimitedError } from "@/lib/errors.ts";
import { sha256Hex } from "@/lib/ids.ts";
import { RateLimits } from "./rate_limits.ts";

const RULE = { name: "test_rule", limit: 2, windowMs: 60_000 };

Deno.test("a rate limit keeps a subject only as its SHA-256 and still counts it", async () => {
  await using kv = await Deno.openKv(":memory:");
  const limits = new RateLimits(kv, true);
  const subject = "asha@example.com|203.0.113.7";
  await limits.hit(RULE, subject);
  await limits.hit(RULE, subject);
  await assertRejects(() => limits.hit(RULE, subject), RateLimitedError);
  const entries = await Array.fromAsync(kv.list<number>({ prefix: ["rate_limits"] }));
  assertEquals(entries.map((e) => [e.key.slice(0, 3), e.value]), [[
    ["rate_limits", RULE.name, await sha256Hex(subject)],
    2,
  ]]);
  await limits.hit(RULE, "another@example.com");
});

Deno.test("rate limits turned off count nothing and refuse nothing", async () => {
  await using kv = await Deno.openKv(":memory:");
  const limits = new RateLimits(kv, false);
  for (let i = 0; i < 3; i++) await limits.hit(RULE, "asha@example.com");
  assertEquals((await Array.fromAsync(kv.list({ prefix: ["rate_limits"] }))).length, 0);
});

Deno.test("a rule marked always holds with rate limits turned off", async () => {
  await using kv = await Deno.openKv(":memory:");
  const limits = new RateLimits(kv, false);
  const always = { ...RULE, always: true };
  await limits.hit(always, "asha@example.com");
  await limits.hit(always, "asha@example.com");
  await assertRejects(() => limits.hit(always, "asha@example.com"), RateLimitedError);
});
