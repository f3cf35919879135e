/**
 * The requests in flight (docs/decisions.md, Open and closed listings, "Serving while loading"): `idle` resolves at
 * once without requests, waits for the ones being answered, and stops waiting after its bound under steady traffic.
 */
import { assertEquals } from "@/tests/helpers/assert.ts";
import { InFlightRequests } from "@/lib/platform/in_flight.ts";

Deno.test("idle waits for the requests being answered, at most its bound", async () => {
  const requests = new InFlightRequests();
  await requests.idle(60_000);

  const answer = Promise.withResolvers<void>();
  const answered = requests.track(() => answer.promise);
  let idle = false;
  const waited = requests.idle(60_000).then(() => idle = true);
  await new Promise((resolve) => setTimeout(resolve, 20));
  assertEquals([requests.count, idle], [1, false], "a request is being answered");
  answer.resolve();
  await answered;
  await waited;
  assertEquals([requests.count, idle], [0, true]);

  // A request that does not end: the wait ends at its bound with the request still in flight.
  const endless = Promise.withResolvers<void>();
  const running = requests.track(() => endless.promise);
  await requests.idle(10);
  assertEquals(requests.count, 1);
  endless.resolve();
  await running;
});
