import { assertEquals, assertRejects } from "@/tests/helpers/assert.ts";
import { BusyError } from "@/lib/errors.ts";
import { RaceLost, retrying } from "./retry.ts";

Deno.test("retrying tries a lost race again until it succeeds", async () => {
  let attempts = 0;
  await retrying(() => Promise.resolve(++attempts === 3), 1_000);
  assertEquals(attempts, 3);
});

Deno.test("retrying gives up with BusyError once the budget ran out, after two tries at least", async () => {
  let attempts = 0;
  await assertRejects(() => retrying(() => Promise.resolve(++attempts < 0), 0), BusyError);
  assertEquals(attempts, 2);
});

Deno.test("retrying asked to give up tries once and throws RaceLost for a lost race", async () => {
  let attempts = 0;
  await assertRejects(() => retrying(() => Promise.resolve(++attempts < 0), 1_000, "give-up"), RaceLost);
  assertEquals(attempts, 1);
  await retrying(() => Promise.resolve(true), 1_000, "give-up");
});
