/**
 * The one-time link of stored internships to organizations (docs/decisions.md, Trust, "The organization link"): the
 * `organizations-link` job walks the internship chunks in order and, one commit per chunk, sets `organizationId` on
 * every record without one (making the organizations its names need), counts them toward their organization, and holds
 * those that ask applicants to pay (the never-pay rule applied to what was stored before it). Its progress is one
 * record, `["organizations_meta", "link"]`: the next chunk and what was done, written after every chunk with the lease
 * of the process running it, so a run that stops anywhere is taken up by the next from where it stopped, two processes
 * never run it at once, and a finished link costs one read per run. Between chunks it gives way to requests.
 */
import { claim, type Claimable, type Lease } from "@/lib/jobs/lease.ts";
import type { Job, JobContext } from "@/lib/jobs/job.ts";
import { internshipStore } from "@/lib/internships/store.ts";
import type { Internship } from "@/lib/internships/schema.ts";
import { moderationOf, moderationOnCreate } from "@/lib/moderation/moderation.ts";
import { moderationQueueOps } from "@/lib/moderation/queue.ts";
import { countOps } from "@/lib/stats/counters.ts";
import { organizationCounts, resolveOrganizations } from "./store.ts";

/** The link's progress. */
export interface LinkProgress extends Claimable {
  /** The next chunk number to look at. */
  cursor: number;
  /** Records linked so far, and held by the never-pay rule on the way. */
  linked: number;
  held: number;
  /** Set once a run found nothing left to link. */
  done: boolean;
  startedAt: string;
  finishedAt: string | null;
  lease?: Lease | null;
}

const PROGRESS: Deno.KvKey = ["organizations_meta", "link"];
/** How long a run holds the link (ms); renewed after every chunk. */
const LEASE_MS = 2 * 60 * 1000;
/** Chunk numbers listed per round trip. */
const LIST_BATCH = 100;

/** What a run did. */
export interface LinkRun {
  linked: number;
  held: number;
  chunks: number;
}

/**
 * `record` linked to its organization (`ids` by name), and held when it asks applicants to pay and nothing decided on
 * it before; the same object when it is linked already.
 */
function linked(record: Internship, ids: ReadonlyMap<string, string>, now: string): Internship {
  if (record.organizationId) return record;
  const organizationId = ids.get(record.hiringOrganization);
  if (!organizationId) return record;
  const moderation = record.moderation ?? moderationOnCreate(record, now);
  return moderation === moderationOf(record)
    ? { ...record, organizationId }
    : { ...record, organizationId, moderation };
}

/**
 * Runs the link from where it stands until every chunk was seen (or the lease was lost to another process), giving
 * way to requests between chunks. Returns what this run did; nothing when the link is done or another process runs it.
 */
export async function linkOrganizations(
  ctx: Pick<JobContext, "kv" | "requests" | "now">,
): Promise<LinkRun> {
  const { kv } = ctx;
  const run: LinkRun = { linked: 0, held: 0, chunks: 0 };
  let entry = await kv.get<LinkProgress>(PROGRESS);
  if (entry.value?.done) return run;
  if (!entry.value) {
    const start: LinkProgress = {
      cursor: 0,
      linked: 0,
      held: 0,
      done: false,
      startedAt: ctx.now.toISOString(),
      finishedAt: null,
      lease: null,
    };
    await kv.atomic().check(entry).set(PROGRESS, start).commit();
    entry = await kv.get<LinkProgress>(PROGRESS);
  }
  let held = await claim(kv, entry, { now: Date.now(), leaseMs: LEASE_MS });
  if (!held) return run;
  const store = await internshipStore(kv);
  const { keys } = store.model;
  for (;;) {
    const numbers: number[] = [];
    const iter = kv.list({ prefix: keys.stamps, start: keys.stamp(held.value.cursor) }, { limit: LIST_BATCH });
    for await (const stamp of iter) numbers.push(stamp.key[1] as number);
    if (numbers.length === 0) break;
    for (const n of numbers) {
      let heldNow = 0;
      const changed = await store.writer.updateChunk(n, async (records) => {
        heldNow = 0;
        const names = records.filter((record) => !record.organizationId).map((record) => record.hiringOrganization);
        const ids = names.length > 0 ? await resolveOrganizations(kv, names) : new Map<string, string>();
        const now = new Date().toISOString();
        return (record) => linked(record, ids, now);
      }, (op, next, previous) => {
        countOps(op, organizationCounts(previous), organizationCounts(next));
        moderationQueueOps(op, "internships", previous, next);
        if (moderationOf(next).status === "held" && moderationOf(previous).status !== "held") heldNow++;
      });
      run.linked += changed;
      run.held += heldNow;
      run.chunks++;
      const progress: LinkProgress = {
        ...held.value,
        cursor: n + 1,
        linked: held.value.linked + changed,
        held: held.value.held + heldNow,
        lease: { holder: held.value.lease!.holder, until: Date.now() + LEASE_MS },
      };
      const result = await kv.atomic().check(held).set(PROGRESS, progress).commit();
      if (!result.ok) return run;
      held = { key: PROGRESS, value: progress, versionstamp: result.versionstamp };
      await ctx.requests.giveWay();
    }
  }
  const finished: LinkProgress = { ...held.value, done: true, finishedAt: new Date().toISOString(), lease: null };
  await kv.atomic().check(held).set(PROGRESS, finished).commit();
  return run;
}

/** The link's progress as stored, or null before the first run. */
export async function linkProgress(kv: Deno.Kv): Promise<LinkProgress | null> {
  return (await kv.get<LinkProgress>(PROGRESS)).value;
}

/**
 * The `organizations-link` job: every minute until the link is done (then one read a run). A run by hand
 * (`POST /api/admin/jobs/organizations-link/run`, `deno task job organizations-link`) does the same.
 */
export const organizationsLinkJob: Job = {
  name: "organizations-link",
  schedule: "* * * * *",
  run: async (ctx) => ({ ...await linkOrganizations(ctx) }),
};
