/**
 * The `listing-changes` job (docs/decisions.md, Applications, "Terms changed after applying"): tells each applicant
 * whose application is still open (applied, shortlisted, interview, offer) that the listing they applied to was
 * renamed, put under another organization's name, moved, or changed for the worse since they applied: a notification
 * `listing_changed` and, unless they turned that e-mail off, an e-mail through the outbox in their language. An edit
 * only records the change in its own write (`termsChangeOps`, `lib/internships/terms.ts`), so an edit of a listing with
 * thousands of applicants costs one key more.
 *
 * A pass over a listing takes the changes recorded when it starts (up to `upTo`) and walks the listing's open
 * applications sent before the last of them, oldest first, 10 a write: each applicant is compared from the terms
 * before the first of those changes made after they applied (`termsBefore`: a part a change recorded before it was
 * kept lacks is taken from the next change that has it) to the terms after the last, and told what is worse and still
 * is now (a stipend lowered and raised back tells nobody), so several edits before a run tell each once. Each
 * write adds the notifications and e-mails and moves the pass's place, checked against the pass as read and each
 * applicant's user record (one who deleted their account meanwhile is told nothing); the last drops the pass and the
 * changes it told. A change recorded during a pass waits for the next. A run walks at most 2,000 applications, writes
 * no new page after 20 s (`BUDGET_MS`) and gives way to requests between writes; the next run goes on from the stored
 * place.
 *
 * Nobody hears what an admin has not let students read: a listing held by moderation (an edit that added a never-pay
 * phrase, students' reports) waits, its changes kept, until an admin approves it; a rejected or deleted one drops them.
 * Else a title rewritten to ask applicants to pay would reach every applicant's inbox while the listing is held.
 *
 * A listing's applicants hear of its changes at most once a day (`TELL_EVERY_MS`): a pass that told anyone stamps the
 * listing when it ends, and no pass of it starts within a day of that stamp, so a poster who rewords a question before
 * every minute's run sends one notice a day, not one a minute; the changes recorded meanwhile wait and are told
 * together. A run passes over at most `LISTINGS_SCANNED` listings, waiting ones included, starting after the last one
 * the run before looked at and coming round to it, so a run never looks only at the same waiting listings.
 *
 * Keys (owned by this module only):
 * - `["listing_change_runs", internshipId]` → `TermsPass`: a pass under way
 * - `["listing_change_told", internshipId]` → `{at}`: when a pass that told anyone ended (expires after a day)
 * - `["listing_change_scan"]` → `{after}`: the listing the last run looked at last; the next starts after it
 */
import type { Job, JobContext } from "@/lib/jobs/job.ts";
import { internshipRecord } from "@/lib/internships/internships.ts";
import {
  changesOf,
  dropChangesOps,
  isWorse,
  listingsWithChanges,
  stillWorse,
  termsBefore,
  termsOf,
  worseTerms,
} from "@/lib/internships/terms.ts";
import { BusyError } from "@/lib/errors.ts";
import { isWithheld, moderationOf } from "@/lib/moderation/moderation.ts";
import { PLATFORM_REFUSALS } from "@/lib/refusals.ts";
import { recipientEntry } from "./applications.ts";
import { tellTermsChangedOps } from "./notices.ts";
import { readApplications, sentPage, type SentPlace } from "./store.ts";
import type { ApplicationStatus } from "./schema.ts";

/** The statuses of an application still open to a change of terms. */
const OPEN: readonly ApplicationStatus[] = ["applied", "shortlisted", "interview", "offer"];
/** Applications read and told per write. */
const PAGE = 10;
/** Most applications one run walks, and most listings it starts. */
const APPLICATIONS_PER_RUN = 2_000;
const LISTINGS_PER_RUN = 50;
/**
 * How long (ms) a run works when not told: it writes no new page after that (one at least), so the jobs sharing its
 * every-minute cron (the push outbox among them) wait little; the next run goes on from the stored place.
 */
const BUDGET_MS = 20_000;
/** Most listings with changes one run looks at, those waiting for their day included. */
export const LISTINGS_SCANNED = 200;
/** How long after a pass that told anyone the listing's next pass may start (ms): a day. */
export const TELL_EVERY_MS = 24 * 60 * 60 * 1000;
/** Told changes dropped per write ahead of a pass's last one (KV takes 1,000 mutations a commit). */
const DROP_BATCH = 500;
/** Tries of one write lost to an applicant's account deletion before the run gives up. */
const TRIES = 5;

/**
 * A pass under way: the last change it tells, the last application it walked (null: none yet), and whether a write of
 * it told anyone (absent: none yet).
 */
interface TermsPass {
  upTo: string;
  after: SentPlace | null;
  told?: true;
}

const passKey = (internshipId: string): Deno.KvKey => ["listing_change_runs", internshipId];
const toldKey = (internshipId: string): Deno.KvKey => ["listing_change_told", internshipId];
/** Where the next run starts looking: after the listing the last run looked at last. */
const SCAN_KEY: Deno.KvKey = ["listing_change_scan"];

/** What a run did: applicants told, listings whose changes were all told, listings waiting for their day. */
export interface TermsRun {
  told: number;
  listings: number;
  waiting: number;
}

/** What a run may still do: applications it may walk, and the `performance.now()` ms after which it writes no page. */
interface RunBudget {
  applications: number;
  until: number;
  /** Pages the run wrote (or lost) so far. */
  pages: number;
}

/** Whether `budget` is spent: no application left, or a page written and the time up. */
function spent(budget: RunBudget): boolean {
  return budget.applications <= 0 || (budget.pages > 0 && performance.now() >= budget.until);
}

/**
 * Goes on with the pass over `internshipId` (starting one when none is stored, unless a pass that told anyone ended
 * less than `TELL_EVERY_MS` before the run: then it waits) within `budget`. A listing held by moderation
 * waits too; a deleted or rejected one drops its pass and changes, telling nobody.
 * @returns how many applicants it told, whether the pass ended, and whether it waits.
 * @throws BusyError when a write keeps failing.
 */
async function tellListing(
  ctx: Pick<JobContext, "kv" | "requests" | "now" | "config">,
  internshipId: string,
  budget: RunBudget,
): Promise<{ told: number; ended: boolean; waiting?: true }> {
  const { kv, now } = ctx;
  const [stored, lastTold] = await kv.getMany<[TermsPass, { at: string }]>([
    passKey(internshipId),
    toldKey(internshipId),
  ]);
  let pass = stored;
  if (!pass.value && lastTold.value && now.getTime() - Date.parse(lastTold.value.at) < TELL_EVERY_MS) {
    return { told: 0, ended: false, waiting: true };
  }
  const changes = await changesOf(kv, internshipId, pass.value?.upTo ?? null);
  const found = await internshipRecord(kv, internshipId);
  let told = 0;
  const end = async (toldAny: boolean) => {
    const ids = changes.map((entry) => entry.changeId);
    // Changes that waited a day can pass a commit's mutations: the oldest go first (the pass still stands).
    while (ids.length > DROP_BATCH) {
      const op = kv.atomic();
      dropChangesOps(op, internshipId, ids.splice(0, DROP_BATCH));
      await op.commit();
    }
    const op = kv.atomic().check(pass).delete(passKey(internshipId));
    dropChangesOps(op, internshipId, ids);
    if (toldAny) op.set(toldKey(internshipId), { at: now.toISOString() }, { expireIn: TELL_EVERY_MS });
    return { told, ended: (await op.commit()).ok };
  };
  if (changes.length === 0 || !found || found.record.deletedAt || moderationOf(found.record).status === "rejected") {
    return await end(false);
  }
  // Held by moderation (a never-pay phrase, students' reports): its words wait for an admin's approval.
  if (isWithheld(found.record)) return { told, ended: false, waiting: true };
  const last = changes.at(-1)!;
  let state: TermsPass = pass.value ?? { upTo: last.changeId, after: null };
  const current = termsOf(found.record);
  for (let tries = 0; !spent(budget);) {
    const page = await sentPage(kv, {
      internshipId,
      statuses: OPEN,
      after: state.after,
      beforeMs: Date.parse(last.change.at),
      limit: PAGE,
    });
    if (page.length === 0) return await end(state.told === true);
    const records = await readApplications(kv, page.map((place) => place.id));
    const tells = [...records.values()].flatMap(({ value: record }) => {
      const sent = Date.parse(record.createdAt);
      const since = changes.filter(({ change }) => Date.parse(change.at) > sent).map(({ change }) => change);
      if (!record.applicantId || !OPEN.includes(record.status) || since.length === 0) return [];
      const before = termsBefore(since);
      const worse = stillWorse(worseTerms(before, last.change.after), worseTerms(before, current));
      return isWorse(worse) ? [{ record, applicantId: record.applicantId, worse }] : [];
    });
    const recipients = await Promise.all(
      tells.map(({ applicantId }) => recipientEntry(kv, applicantId, "listing_changed")),
    );
    const next: TermsPass = { ...state, after: page.at(-1)!, ...(tells.length > 0 ? { told: true as const } : {}) };
    const op = kv.atomic().check(pass).set(passKey(internshipId), next);
    let toldNow = 0;
    tells.forEach(({ record, worse }, i) => {
      const { user, recipient } = recipients[i];
      if (!recipient) return;
      op.check(user);
      tellTermsChangedOps(op, {
        recipient,
        applicationId: record.id,
        title: found.record.title,
        organization: found.record.hiringOrganization,
        worse,
        appUrl: ctx.config.appUrl,
        now,
      });
      toldNow++;
    });
    const result = await op.commit();
    budget.pages++;
    if (!result.ok) {
      // Another run moved the pass (it goes on), or an applicant deleted their account: read again and try once more.
      const again = await kv.get<TermsPass>(passKey(internshipId));
      if (again.versionstamp !== pass.versionstamp) return { told, ended: false };
      if (++tries >= TRIES) throw new BusyError(PLATFORM_REFUSALS.busy);
      continue;
    }
    pass = { key: passKey(internshipId), value: next, versionstamp: result.versionstamp };
    state = next;
    told += toldNow;
    budget.applications -= page.length;
    await ctx.requests.giveWay();
  }
  return { told, ended: false };
}

/**
 * One run of the job: the listings with changes recorded, in key order from the one after the last the previous run
 * looked at (`SCAN_KEY`) round to it (those waiting for their day passed over, at most `LISTINGS_SCANNED` looked at),
 * until the run's budget is spent (`APPLICATIONS_PER_RUN` applications, or a page written after `until`,
 * `performance.now()` ms, `BUDGET_MS` from the start when not given); then it stores the last one it looked at, so
 * listings waiting for their day never keep those after them from their turn.
 * @returns what it did (`TermsRun`). @throws BusyError when a write keeps failing (what was told stays told).
 */
export async function tellTermsChanges(
  ctx: Pick<JobContext, "kv" | "requests" | "now" | "config">,
  { until = performance.now() + BUDGET_MS }: { until?: number } = {},
): Promise<TermsRun> {
  const run: TermsRun = { told: 0, listings: 0, waiting: 0 };
  const budget: RunBudget = { applications: APPLICATIONS_PER_RUN, until, pages: 0 };
  const place = await ctx.kv.get<{ after: string }>(SCAN_KEY);
  let [scanned, started] = [0, 0];
  let last: string | null = null;
  try {
    for await (const internshipId of listingsWithChanges(ctx.kv, place.value?.after ?? null)) {
      last = internshipId;
      const { told, ended, waiting } = await tellListing(ctx, internshipId, budget);
      run.told += told;
      if (ended) run.listings++;
      if (waiting) run.waiting++;
      else started++;
      if (++scanned >= LISTINGS_SCANNED || started >= LISTINGS_PER_RUN || spent(budget)) break;
    }
  } finally {
    // Two runs at once may both store theirs: either place is one a run reached, and every listing still comes round.
    if (last !== null) await ctx.kv.set(SCAN_KEY, { after: last });
  }
  return run;
}

/**
 * The `listing-changes` job: every minute (two short reads when no listing changed). A run by hand
 * (`POST /api/admin/jobs/listing-changes/run`, `deno task job listing-changes`) does the same.
 */
export const listingChangesJob: Job = {
  name: "listing-changes",
  schedule: "* * * * *",
  run: async (ctx) => ({ ...await tellTermsChanges(ctx) }),
};
