import { assertEquals, assertRejects } from "@/tests/helpers/assert.ts";
import { RateLimitedError } from "@/lib/errors.ts";
import { sha256Hex } from "@/lib/ids.ts";
import { hitRateLimit } from "./rate_limit.ts";

const RULE = { name: "test_rule", limit: 2, windowMs: 60_000 };

Deno.test("hitRateLimit keeps a subject only as its SHA-256 and still counts it", async () => {
  await using kv = await Deno.openKv(":memory:");
  const subject = "asha@example.com|203.0.113.7";
  await hitRateLimit(kv, { rule: RULE, subject });
  await hitRateLimit(kv, { rule: RULE, subject });
  await assertRejects(() => hitRateLimit(kv, { rule: RULE, subject }), RateLimitedError);
  const entries = await Array.fromAsync(kv.list<number>({ prefix: ["rate_limits"] }));
  assertEquals(entries.map((e) => [e.key.slice(0, 3), e.value]), [[
    ["rate_limits", RULE.name, await sha256Hex(subject)],
    2,
  ]]);
  await hitRateLimit(kv, { rule: RULE, subject: "another@example.com" });
});
