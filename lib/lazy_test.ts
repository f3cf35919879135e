import { assertEquals, assertRejects } from "@/tests/helpers/assert.ts";
import { onFirstUse } from "./lazy.ts";

Deno.test("onFirstUse makes the value once for concurrent first calls and keeps it", async () => {
  let made = 0;
  const value = onFirstUse(async () => {
    made++;
    await new Promise((resolve) => setTimeout(resolve, 5));
    return { made };
  });
  const [a, b] = await Promise.all([value(), value()]);
  assertEquals(made, 1);
  assertEquals(a, b);
  assertEquals(await value(), a);
  assertEquals(made, 1);
});

Deno.test("onFirstUse does not keep a failure: the next call makes the value again", async () => {
  let attempts = 0;
  const value = onFirstUse(() => {
    attempts++;
    return attempts === 1 ? Promise.reject(new Error("module not reachable")) : Promise.resolve("loaded");
  });
  await assertRejects(() => value(), Error, "module not reachable");
  assertEquals(await value(), "loaded");
  assertEquals(attempts, 2);
});
