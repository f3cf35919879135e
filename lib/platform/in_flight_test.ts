import { GIVE_WAY_MAX_MS, InFlightRequests } from "./in_flight.ts";
import { assert, assertEquals } from "@/tests/helpers/assert.ts";

Deno.test("giveWay waits while a request is answered, and not for the request a job runs in", async () => {
  const requests = new InFlightRequests();
  const answer = Promise.withResolvers<string>();
  const answered = requests.track(() => answer.promise);
  assertEquals(requests.count, 1);
  let gaveWay = false;
  const waiting = requests.giveWay().then(() => gaveWay = true);
  await new Promise((resolve) => setTimeout(resolve, 10));
  assert(!gaveWay, "gave way while a request was in flight");
  answer.resolve("done");
  assertEquals(await answered, "done");
  await waiting;
  assertEquals(requests.count, 0);

  // A job run by hand runs aside from its own request: that request is not counted, so giving way does not wait.
  const byHand = requests.track(() =>
    requests.aside(async () => {
      const counted = requests.count;
      await requests.giveWay();
      return counted;
    })
  );
  assertEquals(await byHand, 0);
  assertEquals(requests.count, 0);
});

Deno.test("giveWay waits at most GIVE_WAY_MAX_MS for steady traffic", async () => {
  const requests = new InFlightRequests();
  const answer = Promise.withResolvers<void>();
  const answered = requests.track(() => answer.promise);
  const started = performance.now();
  await requests.giveWay();
  assert(performance.now() - started >= GIVE_WAY_MAX_MS - 1);
  answer.resolve();
  await answered;
});
