/**
 * The `organizations-unlink` job (docs/decisions.md, Trust, "Who lists under a verified name"): once an organization
 * is verified (a claim followed, or an admin's edit), the listings linked to it whose owner is neither one of its
 * managers nor an admin (an ingest key's listings are its admin's) are unlinked, as `organizationsForPoster` would have
 * posted them, and their applications stop counting toward its track record; kept are a listing posted after its
 * `verifiedAt`, one whose owner managed it or was an admin when it was linked (`linkedByManager`), and one whose owner
 * is forgotten unless its mark says they were neither then and no run found them so since. A listing kept because its
 * owner manages it or is an admin now is marked so (`linkedByManager`), so a later verification keeps it too.
 *
 * The write that verifies an organization queues it (`["organizations_unlink", id]`, `store.ts`). Every minute a run
 * works through the queue: per organization it reads its listings (the read model's postings and the archive's blocks)
 * and their owners once, and unlinks each stranger's listing in a write of its own, live or archived, with the
 * organization's listing count and a note that the listing's applications still count
 * (`["organizations_unlinked", organizationId, internshipId]`); then, per note at least a minute old (an application
 * that read the listing still linked has committed by then), it takes those applications off the track record
 * (`stopCounting`: writes of at most 20, each checked against its records) and drops the note. The organization leaves
 * the queue once nothing is left, checked against its entry as read (a verification meanwhile keeps it queued). An organization un-verified before its turn keeps its listings (an unverified one links anyone's), but
 * the applications of listings already unlinked are still taken off. A run does at most 200 listings and 2,000
 * applications and gives way to requests between writes; the next run goes on from what is stored. Each write judges
 * the record as stored and is checked, so two runs at once do some work twice at worst and never count twice.
 *
 * Organizations verified before this rule are queued by the first run (`["organizations_unlink_meta"]` says so).
 *
 * Keys (owned by this module only):
 * - `["organizations_unlinked", organizationId, internshipId]` → `{at}`: a listing unlinked (when) whose applications
 *   may still count toward the organization
 * - `["organizations_unlink_meta"]` → `{at}`: when the organizations verified before the rule were queued
 */
import { stopCounting } from "@/lib/applications/applications.ts";
import { internshipsOfOrganization } from "@/lib/internships/internships.ts";
import { canModerate } from "@/lib/internships/policy.ts";
import { markLinkedByManager, unlinkInternship } from "@/lib/internships/writes.ts";
import type { Job, JobContext } from "@/lib/jobs/job.ts";
import { getUsers } from "@/lib/users/users.ts";
import { linkVerdict, postedSinceVerified } from "./link_verdict.ts";
import { RaceLost, RETRY_BUDGET_MS, retrying } from "@/lib/kv/retry.ts";
import {
  checkNotManagerOps,
  dropFromUnlinkQueue,
  getOrganization,
  isManager,
  managersOf,
  queueUnlinkOps,
  unlinkQueue,
  verifiedOrganizations,
} from "./store.ts";

/** Most listings one run unlinks or marks (each its own write), and most applications it takes off a track record. */
const LISTINGS_PER_RUN = 200;
const APPLICATIONS_PER_RUN = 2_000;
/** Queued organizations read at once. */
const QUEUE_PAGE = 20;
/** Organizations queued per write by the first run. */
const QUEUE_WRITE = 100;

const noteKey = (organizationId: string, internshipId: string): Deno.KvKey => [
  "organizations_unlinked",
  organizationId,
  internshipId,
];
const META: Deno.KvKey = ["organizations_unlink_meta"];
/**
 * How long (ms) after a listing was unlinked its applications are taken off: an application sent meanwhile read the
 * listing while it was still linked and may commit just after, so they are walked by a run at least a minute later.
 */
const SETTLE_MS = 60_000;

/**
 * What a run did: organizations done (off the queue), listings unlinked, listings marked their managers' or an
 * admin's (`linkedByManager`), applications no longer counted.
 */
export interface UnlinkRun {
  organizations: number;
  listings: number;
  marked: number;
  applications: number;
}

/** What a run may still do. */
interface Budget {
  listings: number;
  applications: number;
}

/** Queues every organization verified before the rule, once (the first run). */
async function queueVerifiedBefore(kv: Deno.Kv, now: Date): Promise<void> {
  const meta = await kv.get(META);
  if (meta.value) return;
  const ids = (await verifiedOrganizations(kv)).map((organization) => organization.id);
  for (let i = 0; i < ids.length; i += QUEUE_WRITE) {
    const op = kv.atomic();
    for (const id of ids.slice(i, i + QUEUE_WRITE)) queueUnlinkOps(op, id, now);
    await op.commit();
  }
  await kv.atomic().check(meta).set(META, { at: now.toISOString() }).commit();
}

/**
 * Unlinks internship `id`, owned by `userId` (null: forgotten), from organization `organizationId` with a note stamped
 * `at` (ISO), in one write that checks `userId` is still not its manager. The write gives up on a lost race
 * (`onLostRace`): it stops when they now are a manager, else tries again (`retrying`).
 * @returns whether it was unlinked. @throws BusyError `PLATFORM_REFUSALS.busy` after 30 s of lost races.
 */
async function unlinkStranger(
  kv: Deno.Kv,
  { id, organizationId, userId, at }: { id: string; organizationId: string; userId: string | null; at: string },
): Promise<boolean> {
  const also = (op: Deno.AtomicOperation) => {
    if (userId !== null) checkNotManagerOps(op, organizationId, userId);
    op.set(noteKey(organizationId, id), { at });
  };
  let unlinked = false;
  await retrying(async () => {
    try {
      unlinked = await unlinkInternship(kv, { id, organizationId, also, onLostRace: "give-up" });
      return true;
    } catch (error) {
      if (!(error instanceof RaceLost)) throw error;
      return userId !== null && await isManager(kv, organizationId, userId);
    }
  }, RETRY_BUDGET_MS);
  return unlinked;
}

/**
 * Unlinks the listings of organization `organizationId` (verified since `verifiedAt`, ISO) whose owner is neither one
 * of its managers nor an admin, and was neither when the listing was linked (`linkedByManager`), each in its own write
 * noting it for `uncountNoted`, within `budget`. Kept are a listing posted after `verifiedAt` (the live path judged its
 * owner then) and one whose owner is forgotten (a deleted account: the organization's own HR who left would otherwise
 * lose its history) unless its mark says they managed nothing when they posted it and no run found them a manager
 * since; a listing kept for an owner who manages it or is an admin now is marked so, in a write of its own. Each unlink
 * write checks that the owner is still not a manager (`["organization_managers", …]` absent), so a claim confirmed
 * during the run keeps its listing (`unlinkStranger`).
 * @returns whether every such listing was seen.
 * @throws BusyError when a write keeps losing races.
 */
async function unlinkListings(
  ctx: Pick<JobContext, "kv" | "requests" | "now">,
  { organizationId, verifiedAt, budget, run }: {
    organizationId: string;
    verifiedAt: string | null;
    budget: Budget;
    run: UnlinkRun;
  },
): Promise<boolean> {
  const { kv } = ctx;
  const [records, managers] = await Promise.all([
    internshipsOfOrganization(kv, organizationId),
    managersOf(kv, organizationId),
  ]);
  const managerIds = new Set(managers.map((manager) => manager.userId));
  const judged = records.filter((record) => !postedSinceVerified(record, verifiedAt));
  const owners = await getUsers(kv, judged.flatMap((record) => record.userId ?? []));
  const verdicts = judged.map((record) => {
    const ownerManages = record.userId !== null &&
      (canModerate(owners.get(record.userId)) || managerIds.has(record.userId));
    return { record, verdict: linkVerdict(record, { verifiedAt, ownerManages }) };
  }).filter(({ verdict }) => verdict !== "keep");
  for (const { record: { id, userId }, verdict } of verdicts) {
    if (budget.listings === 0) return false;
    budget.listings--;
    if (verdict === "mark") {
      if (await markLinkedByManager(kv, { id, organizationId })) run.marked++;
    } else if (await unlinkStranger(kv, { id, organizationId, userId, at: ctx.now.toISOString() })) run.listings++;
    await ctx.requests.giveWay();
  }
  return true;
}

/**
 * Takes the applications of each listing noted for `organizationId` at least a minute before the run (`SETTLE_MS`)
 * off its track record (`stopCounting`) and drops the note, within `budget`. @returns whether no note is left.
 */
async function uncountNoted(
  ctx: Pick<JobContext, "kv" | "requests" | "now">,
  { organizationId, budget, run }: { organizationId: string; budget: Budget; run: UnlinkRun },
): Promise<boolean> {
  const { kv } = ctx;
  const notes = await Array.fromAsync(kv.list<{ at: string }>({ prefix: ["organizations_unlinked", organizationId] }));
  let left = false;
  for (const note of notes) {
    if (Date.parse(note.value.at) > ctx.now.getTime() - SETTLE_MS) {
      left = true;
      continue;
    }
    if (budget.applications <= 0) return false;
    const internshipId = note.key[2] as string;
    const { changed, done } = await stopCounting(kv, { internshipId, organizationId, limit: budget.applications });
    budget.applications -= changed;
    run.applications += changed;
    if (!done) return false;
    await kv.delete(note.key);
    await ctx.requests.giveWay();
  }
  return !left;
}

/**
 * One run of the job: the queued organizations in turn, until the queue is empty or the run's budget is spent.
 * @returns what it did (`UnlinkRun`).
 * @throws BusyError when a write keeps losing races (what was done stays done; the next run goes on).
 */
export async function unlinkStrangers(ctx: Pick<JobContext, "kv" | "requests" | "now">): Promise<UnlinkRun> {
  const { kv } = ctx;
  const run: UnlinkRun = { organizations: 0, listings: 0, marked: 0, applications: 0 };
  await queueVerifiedBefore(kv, ctx.now);
  const budget: Budget = { listings: LISTINGS_PER_RUN, applications: APPLICATIONS_PER_RUN };
  for (const entry of await unlinkQueue(kv, QUEUE_PAGE)) {
    const organizationId = entry.key[1] as string;
    const organization = (await getOrganization(kv, organizationId)).value;
    const listed = !organization?.isVerified ||
      await unlinkListings(ctx, { organizationId, verifiedAt: organization.verifiedAt, budget, run });
    const uncounted = await uncountNoted(ctx, { organizationId, budget, run });
    if (listed && uncounted && await dropFromUnlinkQueue(kv, entry)) run.organizations++;
    if (budget.listings === 0 || budget.applications <= 0) break;
  }
  return run;
}

/**
 * The `organizations-unlink` job: every minute (two short reads when the queue is empty). A run by hand
 * (`POST /api/admin/jobs/organizations-unlink/run`, `deno task job organizations-unlink`) does the same.
 */
export const organizationsUnlinkJob: Job = {
  name: "organizations-unlink",
  schedule: "* * * * *",
  run: async (ctx) => ({ ...await unlinkStrangers(ctx) }),
};
