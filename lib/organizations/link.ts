/**
 * The one-time link of stored internships to organizations (docs/decisions.md, Trust, "The organization link"): the
 * `organizations-link` job walks the internship chunks in order and then the archive's blocks of closed and deleted
 * listings in order and, one commit per chunk (per block, in writes of at most `ARCHIVE_BATCH` listings), sets
 * `organizationId` on every record without one (making the organizations its names need) by the rule of the live path
 * (a verified organization only for a listing its managers or an admin own), counts them toward their organization,
 * and holds those that ask applicants to pay (the never-pay rule applied to what was stored before it).
 * Its progress is one record, `["organizations_meta", "link"]`: where it stands and what was done, written after every
 * chunk and block with the lease of the process running it, so a run that stops anywhere is taken up by the next from
 * where it stopped, two processes never run it at once, and a finished link costs one read per run. Between chunks and
 * blocks it lets the server take in requests, and every 200 ms it waits for those in flight (`giveWay`).
 */
import { claim, type Claimable, type Lease } from "@/lib/jobs/lease.ts";
import type { Job, JobContext } from "@/lib/jobs/job.ts";
import { internshipStore } from "@/lib/internships/store.ts";
import type { Internship } from "@/lib/internships/schema.ts";
import { moderationOf, moderationOnCreate } from "@/lib/moderation/moderation.ts";
import { moderationQueueOps } from "@/lib/moderation/queue.ts";
import { intakeOps } from "@/lib/internships/intake.ts";
import { countOps } from "@/lib/stats/counters.ts";
import { ArchiveBlock } from "@/lib/kv/chunked/archive_block.ts";
import { canModerate } from "@/lib/internships/policy.ts";
import { getUsers } from "@/lib/users/users.ts";
import { organizationCounts, type OrganizationLink, organizationsForPoster } from "./store.ts";

/** The link's progress. */
export interface LinkProgress extends Claimable {
  /** The next chunk number to look at. */
  cursor: number;
  /** Which part it walks: the chunks of live listings, then the archive of closed and deleted ones. */
  phase?: "chunks" | "archive";
  /** In the archive: the key of the last block done (`[createdMs, id]`), null before the first. */
  archiveCursor?: [number, string] | null;
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
/** Chunk numbers or archive blocks listed per round trip. */
const LIST_BATCH = 100;
/** How often (ms of work) the link waits for the requests in flight. */
const GIVE_WAY_EVERY_MS = 200;
/** Archived listings written per commit (each a record and its check, within KV's 100 checks a commit). */
const ARCHIVE_BATCH = 80;

/** What a run did: listings linked, held on the way, and chunks and archive blocks walked. */
export interface LinkRun {
  linked: number;
  held: number;
  chunks: number;
}

/**
 * `record` linked to its organization (`links` by record id; null leaves it unlinked), marked with whether its owner
 * manages it or is an admin (`linkedByManager`; not for a forgotten owner, who can no longer be judged), and held when
 * it asks applicants to pay and nothing decided on it before; the same object when it is linked already, or stays
 * unlinked and not held.
 */
function linked(record: Internship, links: ReadonlyMap<string, OrganizationLink | null>, now: string): Internship {
  if (record.organizationId) return record;
  const link = links.get(record.id) ?? null;
  const next = link === null
    ? record
    : record.userId === null
    ? { ...record, organizationId: link.id }
    : { ...record, organizationId: link.id, linkedByManager: link.byManager };
  const moderation = record.moderation ?? moderationOnCreate(record, now);
  return moderation === moderationOf(record) ? next : { ...next, moderation };
}

/**
 * The organization each of `records` is linked to, by record id, as the live path links a listing its owner posts
 * (docs/decisions.md, Trust, "Who lists under a verified name"): `organizationsForPoster` for each owner, trusted when
 * an admin; a forgotten or unknown owner manages nothing. Null where a verified organization is not the owner's.
 * @throws BusyError after 20 lost races on one name.
 */
async function organizationsOfOwners(
  kv: Deno.Kv,
  records: readonly Internship[],
): Promise<Map<string, OrganizationLink | null>> {
  const byOwner = Map.groupBy(records, (record) => record.userId);
  const owners = await getUsers(kv, [...byOwner.keys()].filter((id) => id !== null));
  const ids = new Map<string, OrganizationLink | null>();
  await Promise.all([...byOwner].map(async ([userId, owned]) => {
    const owner = userId === null ? undefined : owners.get(userId);
    const organizations = await organizationsForPoster(kv, {
      names: owned.map((record) => record.hiringOrganization),
      poster: { userId: owner?.id ?? null, trusted: canModerate(owner) },
    });
    for (const record of owned) ids.set(record.id, organizations.get(record.hiringOrganization) ?? null);
  }));
  return ids;
}

/** `progress` after a step: `step`'s fields, what it `done`, and the lease renewed. */
function stepped(
  progress: LinkProgress,
  step: Partial<LinkProgress>,
  done?: { linked?: number; held: number },
): LinkProgress {
  return {
    ...progress,
    ...step,
    linked: progress.linked + (done?.linked ?? 0),
    held: progress.held + (done?.held ?? 0),
    lease: { holder: progress.lease!.holder, until: Date.now() + LEASE_MS },
  };
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
  /** Records the progress after a step (renewing the lease); false when the link was lost to another process. */
  const advance = async (step: Partial<LinkProgress>, done?: { linked: number; held: number }) => {
    const current = held!;
    const progress = stepped(current.value, step, done);
    const result = await kv.atomic().check(current).set(PROGRESS, progress).commit();
    if (!result.ok) return false;
    held = { key: PROGRESS, value: progress, versionstamp: result.versionstamp };
    if (done) {
      run.linked += done.linked;
      run.held += done.held;
      run.chunks++;
      await pause();
    }
    return true;
  };
  /**
   * Between steps: a timer turn (the server takes in new connections; a step's synchronous part is a few ms), and
   * every `GIVE_WAY_EVERY_MS` a full `giveWay`, which waits for the requests in flight (at most 50 ms): steady reads
   * slow the link by a bounded share instead of 50 ms a chunk.
   */
  let gaveWayAt = performance.now();
  const pause = async () => {
    if (performance.now() - gaveWayAt < GIVE_WAY_EVERY_MS) {
      await new Promise((resolve) => setTimeout(resolve, 0));
      return;
    }
    await ctx.requests.giveWay();
    gaveWayAt = performance.now();
  };
  /** What a listing's write adds: its organization count and its place in the moderation queue. */
  const also = (counter: { held: number; linked: number }) =>
  (
    op: Deno.AtomicOperation,
    next: Internship,
    previous: Internship,
  ) => {
    countOps(op, organizationCounts(previous), organizationCounts(next));
    moderationQueueOps(op, "internships", previous, next);
    intakeOps(op, next);
    if (next.organizationId) counter.linked++;
    if (moderationOf(next).status === "held" && moderationOf(previous).status !== "held") counter.held++;
  };
  /** The mapper that links the records of `records` without an organization, as their owners may be linked. */
  const linker = async (records: readonly Internship[]) => {
    const ids = await organizationsOfOwners(kv, records.filter((record) => !record.organizationId));
    const now = new Date().toISOString();
    return (record: Internship) => linked(record, ids, now);
  };

  // The chunks of live listings, in order.
  while ((held.value.phase ?? "chunks") === "chunks") {
    const numbers: number[] = [];
    const iter = kv.list({ prefix: keys.stamps, start: keys.stamp(held.value.cursor) }, { limit: LIST_BATCH });
    for await (const stamp of iter) numbers.push(stamp.key[1] as number);
    if (numbers.length === 0) {
      if (!await advance({ phase: "archive", archiveCursor: null })) return run;
      break;
    }
    for (const n of numbers) {
      // Still the link's holder? (Its lease renews with every chunk, so this fails only after a stall of minutes.)
      const current = await kv.get<LinkProgress>(PROGRESS);
      if (current.versionstamp !== held.versionstamp) return run;
      const counter = { held: 0, linked: 0 };
      let progress: LinkProgress | null = null;
      const changed = await store.writer.updateChunk(
        n,
        async (records) => {
          counter.held = counter.linked = 0;
          return await linker(records);
        },
        also(counter),
        (op) => {
          // The progress goes in the chunk's own commit (one write a chunk, not two).
          progress = stepped(held!.value, { cursor: n + 1 }, counter);
          op.set(PROGRESS, progress);
        },
      );
      if (progress && changed > 0) {
        held = await kv.get<LinkProgress>(PROGRESS) as Deno.KvEntry<LinkProgress>;
        run.linked += counter.linked;
        run.held += counter.held;
        run.chunks++;
        await pause();
      } else if (!await advance({ cursor: n + 1 }, { linked: 0, held: 0 })) return run;
    }
  }

  // The archive's blocks of closed and deleted listings, in key order.
  const { archive } = store;
  for (;;) {
    const after = held.value.archiveCursor ?? null;
    const blocks: { key: [number, string]; value: Uint8Array }[] = [];
    const selector = after
      ? { prefix: archive.keys.blocks, start: [...archive.keys.blocks, after[0], after[1], ""] }
      : { prefix: archive.keys.blocks };
    for await (const entry of kv.list<Uint8Array>(selector, { limit: LIST_BATCH })) {
      blocks.push({ key: [entry.key[1] as number, entry.key[2] as string], value: entry.value });
    }
    if (blocks.length === 0) break;
    for (const { key, value } of blocks) {
      const block = new ArchiveBlock(value);
      const ids = Array.from({ length: block.count }, (_, i) => block.id(i));
      const done = { linked: 0, held: 0 };
      for (let i = 0; i < ids.length; i += ARCHIVE_BATCH) {
        const records = [...(await archive.records(ids.slice(i, i + ARCHIVE_BATCH))).values()];
        const mapper = await linker(records);
        const pairs = records.map((record) => [mapper(record), record] as const).filter(([n, p]) => n !== p);
        if (pairs.length === 0) continue;
        const counter = { held: 0, linked: 0 };
        await archive.write({ put: pairs.map(([next]) => next) }, (op) => {
          counter.held = counter.linked = 0;
          for (const [next, previous] of pairs) also(counter)(op, next, previous);
        });
        done.linked += counter.linked;
        done.held += counter.held;
      }
      if (!await advance({ archiveCursor: key }, done)) return run;
    }
  }
  const finished: LinkProgress = { ...held.value, done: true, finishedAt: new Date().toISOString(), lease: null };
  await kv.atomic().check(held).set(PROGRESS, finished).commit();
  return run;
}

/**
 * Records the link as done without walking the listings, for data stored linked from the start (every listing with its
 * `organizationId` and counted; a benchmark's seed): the job then costs one read a run, as after a finished link.
 */
export async function markLinked(kv: Deno.Kv, { linked, now }: { linked: number; now: Date }): Promise<void> {
  const at = now.toISOString();
  const done: LinkProgress = {
    cursor: 0,
    phase: "archive",
    archiveCursor: null,
    linked,
    held: 0,
    done: true,
    startedAt: at,
    finishedAt: at,
    lease: null,
  };
  await kv.set(PROGRESS, done);
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
