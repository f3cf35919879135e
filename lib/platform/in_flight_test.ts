import { GIVE_WAY_MAX_MS, InFlightRequests, type JobTurns } from "./in_flight.ts";
import { serveBehindGate } from "./server.ts";
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

/**
 * A job's pieces separated by `turns().next()`, with a request sent to a server of this process as the job starts:
 * how many pieces ran before the answer came.
 */
async function piecesUntilAnswered(
  turn: (turns: JobTurns) => Promise<void>,
  { gate = false } = {},
): Promise<number> {
  const requests = new InFlightRequests();
  await using turns = requests.turns();
  const app = { fetch: () => requests.track(() => Promise.resolve(new Response("answered"))) };
  await using server = gate
    ? serveBehindGate(app, { hostname: "127.0.0.1", port: 0, onBytes: () => requests.moved() }, () => {})
    : Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, app.fetch);
  const url = `http://127.0.0.1:${server.addr.port}/`;
  // The client's connection is open and kept alive: the request measured is a kept-alive connection's next one.
  await (await fetch(url)).text();
  let answered = false;
  const asked = fetch(url).then(async (res) => {
    answered = (await res.text()) === "answered";
  });
  let pieces = 0;
  for (; !answered && pieces < 5_000; pieces++) {
    // A piece of work: about 0.1 ms of CPU.
    let sum = 0;
    for (let i = 0; i < 100_000; i++) sum += i % 7;
    if (sum < 0) throw new Error("unreachable");
    await turn(turns);
  }
  await asked;
  return pieces;
}

Deno.test("a job's turns let the server take in a request between two pieces", async () => {
  // Each turn looks at the sockets: the request, its answer and the client's reading of it take a few turns. Turns
  // that do not (setImmediate) leave the sockets unread for dozens of pieces at a time.
  const pieces = await piecesUntilAnswered((turns) => turns.next());
  assert(pieces <= 30, `${pieces} pieces ran before the request was answered`);
});

Deno.test("through the header gate, a request passes between two pieces of a job", async () => {
  // The client's request, the gate passing it on, the answer and the gate passing it back each need a look at the
  // sockets; while each look brings the request on, the next is taken before the job's next piece (5 pieces before).
  const pieces = await piecesUntilAnswered((turns) => turns.next(), { gate: true });
  assert(pieces <= 3, `${pieces} pieces ran before the request was answered`);
});
