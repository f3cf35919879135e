import { IoTurns, openLoopback, TIMER_TURN_EVERY_MS } from "./io_turn.ts";
import { assert, assertEquals } from "@/tests/helpers/assert.ts";

/** About 0.1 ms of CPU. */
function piece(): void {
  let sum = 0;
  for (let i = 0; i < 100_000; i++) sum += i % 7;
  if (sum < 0) throw new Error("unreachable");
}

Deno.test("openLoopback: what the first end writes, the second reads", async () => {
  const pair = await openLoopback();
  assert(pair, "a loopback connection where Deno.listen is allowed");
  const [writer, reader] = pair;
  await writer.write(new Uint8Array([7]));
  const buffer = new Uint8Array(4);
  assertEquals(await reader.read(buffer), 1);
  assertEquals(buffer[0], 7);
  writer.close();
  reader.close();
});

Deno.test("IoTurns without a loopback connection: a timer turn at most every TIMER_TURN_EVERY_MS, not one a turn", async () => {
  const realSetTimeout = globalThis.setTimeout;
  let timerTurns = 0;
  globalThis.setTimeout = ((callback: () => void, ms?: number) => {
    timerTurns++;
    return realSetTimeout(callback, ms);
  }) as typeof setTimeout;
  const started = performance.now();
  try {
    await using turns = new IoTurns(() => Promise.resolve(null));
    for (let i = 0; i < 1_000; i++) {
      piece();
      await turns.next();
    }
  } finally {
    globalThis.setTimeout = realSetTimeout;
  }
  const elapsed = performance.now() - started;
  assert(timerTurns >= 1, "the sockets are polled now and then");
  assert(
    timerTurns <= elapsed / TIMER_TURN_EVERY_MS + 1,
    `${timerTurns} timer turns in ${elapsed.toFixed(0)} ms: more than one every ${TIMER_TURN_EVERY_MS} ms`,
  );
});
