/**
 * Background cleanups against a far KV (docs/performance.md, Cleanups against a far KV): on Deno Deploy what costs
 * a job time is the number of KV round trips made one after another, about 90 ms each from Europe to the primary. Each
 * case runs in process on an in-memory KV whose round trips (a get, a getMany, each batch of a list, a commit, a set or
 * a delete) are made to take `BENCH_LATENCY` ms (default 5), and prints its time, that time in round trips (as long as
 * one takes here: timers run late on a loaded machine), and its KV calls by kind:
 *
 * - forgetting the author of 1,000 replies (`forgetCommentAuthor`, account deletion's "comments" step; each reply
 *   notified its parent's author);
 * - dropping the kept bodies of 20,000 sent mails (`dropKeptBodies`, once after an upgrade), every run to the end;
 * - the deadline reminders of 1,000 internships due tomorrow, saved by 100 people (`runDeadlineReminders`); here only
 *   the lists of each due listing's savers are slow, the part that grows with the listings due;
 * - the close of a poster's 100 open listings taking applications here (`closeUnansweredInternships`: a demotion's, a
 *   suspension's hide), the read model loaded before.
 *
 * `deno run -A bench/cleanups.ts` (under a minute; the code before these cleanups were batched took 8); `BENCH_LATENCY=<ms>` sets the round trip.
 */
import { runDeadlineReminders } from "@/lib/alerts/reminders.ts";
import { createComment } from "@/lib/comments/comments.ts";
import { forgetCommentAuthor } from "@/lib/comments/store.ts";
import { istToday } from "@/lib/dates.ts";
import { KvObjectStore } from "@/lib/files/kv_store.ts";
import { generateInternships, importInternships } from "@/lib/internships/fixtures.ts";
import { closeUnansweredInternships } from "@/lib/internships/writes.ts";
import { internshipStore } from "@/lib/internships/store.ts";
import type { JobContext } from "@/lib/jobs/job.ts";
import { createLogger } from "@/lib/log.ts";
import { dropKeptBodies } from "@/lib/mail/delivery.ts";
import type { OutboxMail } from "@/lib/mail/outbox.ts";
import { createPost, PostCreateSchema } from "@/lib/ungatekeep/posts.ts";
import { createUser } from "@/lib/users/users.ts";

const LATENCY = Number(Deno.env.get("BENCH_LATENCY") ?? 5);
const REPLIES = 1000;
const MAILS = 20_000;
const DUE = 1000;
const CLOSED = 100;

const wait = () => new Promise((resolve) => setTimeout(resolve, LATENCY));

/** What one round trip takes here (ms), timers being late on a loaded machine: the mean of 200 waits in a row. */
async function roundTripMs(): Promise<number> {
  const started = performance.now();
  for (let i = 0; i < 200; i++) await wait();
  return (performance.now() - started) / 200;
}
const ROUND_TRIP_MS = await roundTripMs();

/** KV calls by kind. */
type Calls = Record<"get" | "getMany" | "listBatches" | "commit" | "set" | "delete", number>;

/**
 * `kv` with each round trip taking `LATENCY` ms and counted in `calls`; `slowList(selector)` says which lists are slow
 * (each of their batches is a round trip), all by default.
 */
function far(kv: Deno.Kv, slowList: (selector: Deno.KvListSelector) => boolean = () => true) {
  const calls: Calls = { get: 0, getMany: 0, listBatches: 0, commit: 0, set: 0, delete: 0 };
  const late = <A extends unknown[], R>(name: keyof Calls, call: (...args: A) => Promise<R>) => async (...args: A) => {
    calls[name]++;
    await wait();
    return await call(...args);
  };
  const list = <T>(selector: Deno.KvListSelector, options?: Deno.KvListOptions) => {
    const inner = kv.list<T>(selector, options);
    if (!slowList(selector)) return inner;
    const batch = Math.min(options?.batchSize ?? 100, 500, options?.limit ?? Infinity);
    const outer = (async function* () {
      let seen = 0;
      calls.listBatches++;
      await wait();
      for await (const entry of inner) {
        if (seen > 0 && seen % batch === 0) {
          calls.listBatches++;
          await wait();
        }
        seen++;
        yield entry;
      }
    })();
    return Object.defineProperty(outer, "cursor", { get: () => inner.cursor });
  };
  const atomic = () => {
    const op = kv.atomic();
    op.commit = late("commit", op.commit.bind(op));
    return op;
  };
  const farKv = new Proxy(kv, {
    get(target, name) {
      if (name === "get" || name === "getMany" || name === "set" || name === "delete") {
        return late(name, (target[name] as (...args: unknown[]) => Promise<unknown>).bind(target));
      }
      if (name === "list") return list;
      if (name === "atomic") return atomic;
      const value = Reflect.get(target, name, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  return { kv: farKv, calls };
}

/**
 * Runs `work` on `kv` made far, and prints `label`, its time, that time in round trips, and its calls; `before` runs
 * first on the far KV, neither timed nor counted.
 */
async function measure(
  label: string,
  kv: Deno.Kv,
  work: (kv: Deno.Kv) => Promise<unknown>,
  { slow, before }: {
    slow?: (selector: Deno.KvListSelector) => boolean;
    before?: (kv: Deno.Kv) => Promise<unknown>;
  } = {},
) {
  const { kv: farKv, calls } = far(kv, slow);
  await before?.(farKv);
  for (const name of Object.keys(calls) as (keyof Calls)[]) calls[name] = 0;
  const started = performance.now();
  await work(farKv);
  const ms = performance.now() - started;
  const counted = Object.entries(calls).filter(([, n]) => n > 0).map(([name, n]) => `${n} ${name}`).join(", ");
  console.log(`${label}: ${(ms / 1000).toFixed(2)} s, about ${Math.round(ms / ROUND_TRIP_MS)} round trips; ${counted}`);
}

async function forgetting(): Promise<void> {
  await using kv = await Deno.openKv(":memory:");
  const person = (name: string, role: "admin" | "user") =>
    createUser(kv, { name, email: `${name.toLowerCase()}@bench.example`, emailVerified: true, role });
  const [admin, asha, ravi] = [
    await person("Admin", "admin"),
    await person("Asha", "user"),
    await person("Ravi", "user"),
  ];
  const input = PostCreateSchema.parse({
    title: "Post",
    content: "Text. ".repeat(40),
    tag: "company_experience",
    isPublished: true,
  });
  const post = await createPost(kv, { files: new KvObjectStore(kv), author: admin, input });
  const write = (author: typeof asha, content: string, parentId?: string) =>
    createComment(kv, { postId: post.id, author, input: { content, parentId }, appUrl: "http://bench.example" });
  const top = (await write(asha, "Any tips for the OA?")).comment;
  for (let i = 0; i < REPLIES; i++) {
    if (i % 10 === 0) await kv.delete(["comment_rate", ravi.id]); // past the limit of 10 a minute
    await write(ravi, `Reply ${i}: ${"a tip ".repeat(30)}`, top.id);
  }
  await measure(`forgetCommentAuthor, ${REPLIES} replies`, kv, (far) => forgetCommentAuthor(far, ravi.id));
}

async function droppingBodies(): Promise<void> {
  await using kv = await Deno.openKv(":memory:");
  const at = Date.now() - 86_400_000;
  const text = "Your daily internships\n".repeat(60);
  for (let i = 0; i < MAILS; i += 100) {
    const op = kv.atomic();
    for (let j = i; j < i + 100; j++) {
      const id = crypto.randomUUID();
      const sentAt = new Date(at + j).toISOString();
      const mail: OutboxMail = {
        id,
        to: `s${j}@bench.example`,
        subject: "Your daily internships",
        text,
        html: `<p>${text}</p>`,
        link: "https://bench.example/x",
        userId: null,
        status: "sent",
        attempts: 1,
        lastError: null,
        createdAt: sentAt,
        dueAt: null,
        sentAt,
        lease: null,
      };
      op.set(["outbox", id], mail).set(["outbox_status", "sent", at + j, id], { to: mail.to });
    }
    await op.commit();
  }
  await measure(`dropKeptBodies, ${MAILS} kept mails`, kv, async (far) => {
    while ((await kv.get(["outbox_kept_bodies_dropped"])).value === null) await dropKeptBodies(far);
  });
}

async function reminding(): Promise<void> {
  await using kv = await Deno.openKv(":memory:");
  const owner = await createUser(kv, { name: "Owner", email: "o@bench.example", emailVerified: true, role: "member" });
  const people: { id: string }[] = [];
  for (let i = 0; i < 100; i++) {
    people.push(
      await createUser(kv, { name: `P${i}`, email: `p${i}@bench.example`, emailVerified: true, role: "user" }),
    );
  }
  const tomorrow = istToday(new Date(Date.now() + 86_400_000));
  const records = generateInternships(DUE, [owner.id])
    .map((record) => ({ ...record, deadline: tomorrow, isActive: true, deletedAt: null }));
  await importInternships(kv, records);
  for (let i = 0; i < records.length; i += 200) {
    const op = kv.atomic();
    records.slice(i, i + 200).forEach((record, j) =>
      op.set(["saved_by_listing", "internships", record.id, people[(i + j) % 100].id], "saved")
    );
    await op.commit();
  }
  const log = createLogger("error");
  const requests = { giveWay: () => Promise.resolve() };
  await measure(
    `deadline reminders, ${DUE} due listings (savers lists only)`,
    kv,
    (far) =>
      runDeadlineReminders(
        { kv: far, config: { appUrl: "http://bench.example" }, log, now: new Date(), requests } as JobContext,
      ),
    { slow: (selector) => "prefix" in selector && selector.prefix[0] === "saved_by_listing" },
  );
}

async function closing(): Promise<void> {
  await using kv = await Deno.openKv(":memory:");
  const owner = await createUser(kv, { name: "Owner", email: "o@bench.example", emailVerified: true, role: "user" });
  const deadline = istToday(new Date(Date.now() + 30 * 86_400_000));
  const question = { id: "q1", text: "Why this internship?", required: true };
  const records = generateInternships(CLOSED, [owner.id]).map((record) => ({
    ...record,
    deadline,
    isActive: true,
    deletedAt: null,
    closedAt: undefined,
    organizationId: undefined,
    applyMode: "platform" as const,
    questions: [question],
  }));
  await importInternships(kv, records);
  await measure(
    `closeUnansweredInternships, ${CLOSED} listings taking applications here`,
    kv,
    (far) => closeUnansweredInternships(far, owner.id),
    { before: internshipStore },
  );
}

console.log(
  `Round trips of ${LATENCY} ms, ${ROUND_TRIP_MS.toFixed(2)} ms as timed (${new Date().toISOString()}, load ${
    Deno.loadavg()[0]
  })`,
);
await forgetting();
await droppingBodies();
await reminding();
await closing();
