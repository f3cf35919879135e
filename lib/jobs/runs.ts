/**
 * The last run and the last failure of each job (docs/decisions.md, Background work, "Last runs"), for the admin's
 * jobs page and `GET /api/admin/jobs`. A run, from its cron or by hand, writes one small value when it ends, without
 * reading first: `["job_runs", name, "run"]` when it succeeded (its start, duration and counts), `["job_runs", name,
 * "failure"]` when it threw (its start, duration and error, shortened). Each key holds only the latest, so a job that
 * runs every minute costs one write a minute, and two runs at once (the cron's and an admin's) each write theirs, the
 * last to end kept. The status of every job is one list of that prefix, which writes nothing; the `removed-jobs` job
 * deletes the records of jobs removed from the registry a week after their last run (`deleteRemovedRuns`).
 */
import type { Job, JobCounts } from "./job.ts";
import { nextRunTime } from "./schedule.ts";

/** How a run started: from its cron, or by hand (`POST /api/admin/jobs/{name}/run`, the jobs page, `deno task job`). */
export type RunTrigger = "schedule" | "hand";

/** A run that ended: when it started (ISO), how long it took (ms) and how it started. */
interface RunEnd {
  startedAt: string;
  ms: number;
  trigger: RunTrigger;
}

/** The last run that succeeded, with what it did. */
export interface LastRun extends RunEnd {
  counts: JobCounts;
}

/** The last run that failed, with its error (`ERROR_LENGTH` characters at most, masked: `shortError`). */
export interface LastFailure extends RunEnd {
  error: string;
}

/** Characters of a failure's error kept: a sentence and its detail, never a stack. */
export const ERROR_LENGTH = 300;

/**
 * Characters of an error read at most, masked, then cut to `ERROR_LENGTH`: room for a link's path that masking takes
 * away, and a bound on the masking's work whatever the error's length (its patterns try each start in what is read).
 */
export const READ_LENGTH = 2_000;
/**
 * Characters at most given up at the end of what is read when the error goes on past it: the end of a word, an address
 * or a phone number the bound cut through, which would escape its mask in part (`readHead`).
 */
const CUT_MARGIN = 100;
/** A character of a word, an address or a phone number. */
const TOKEN_CHAR = /[\w.+%'@()\s-]/;

/** A job as the admin reads it: its schedule, when that next fires, its last run and its last failure. */
export interface JobStatus {
  name: string;
  /** Five-field cron expression, UTC. */
  schedule: string;
  /** The schedule's next time (ISO); null with `JOBS=off`, when no cron runs it. */
  nextRunAt: string | null;
  lastRun: LastRun | null;
  lastFailure: LastFailure | null;
}

const PREFIX = "job_runs";

/** A link: its scheme, its credentials (absent mostly), its host and port, and its path, query and fragment. */
const LINK = /\b([a-z][a-z\d+.-]*:\/\/)(?:[^\s/?#@]*@)?([^\s/?#"'<>()[\]]+)([^\s"'<>()[\]]*)/gi;
/** An e-mail address, or a UPI id (`name@bank`, as a payment's `vpa`). */
const ADDRESS = /[\w.+%'-]+@[\w-]+(?:\.[\w-]+)*/g;
/** A phone number written with its country code (`+91 98765 43210`, `+44 20 7946 0958`). */
const INTERNATIONAL_PHONE = /\+\d(?:[\s.()-]{0,2}\d){7,14}/g;
/** An Indian mobile number as people write it (`98765 43210`, `098765-43210`, `(987) 654-3210`), not inside an id. */
const INDIAN_PHONE = /(?<![\w.])(?:91[\s-]?|0)?\(?[6-9]\d{2}\)?(?:[\s.-]?\d){7}(?!\w)/g;

/**
 * `text` with what could name a person masked (docs/decisions.md, Background work, "Last runs"): a link keeps its
 * scheme and host, without its credentials or path (a push subscription's endpoint, a token); an e-mail address or UPI
 * id is `***@***`; a phone number `***`. Times, ids and sizes stay.
 */
function masked(text: string): string {
  return text.replace(LINK, (_, scheme, host, rest) => `${scheme}${host}${rest ? "/***" : ""}`)
    .replace(ADDRESS, "***@***")
    .replace(INTERNATIONAL_PHONE, "***")
    .replace(INDIAN_PHONE, "***");
}

/**
 * The first `READ_LENGTH` characters of `text`, or all of it when shorter; when it goes on, without the characters of
 * a word, address or number at the cut (`CUT_MARGIN` at most), so a part of an address is not kept unmasked.
 */
function readHead(text: string): string {
  if (text.length <= READ_LENGTH) return text;
  let end = READ_LENGTH;
  while (end > READ_LENGTH - CUT_MARGIN && TOKEN_CHAR.test(text[end - 1])) end--;
  return text.slice(0, end);
}

/**
 * `error` as one line of at most `ERROR_LENGTH` characters, e.g. "TypeError: x is not a function", with what could
 * name a person masked first (`masked`): a job's record outlives an account's deletion, so it keeps none of it. Only
 * its first `READ_LENGTH` characters are read (`readHead`), so a long error costs no more than a short one.
 */
export function shortError(error: unknown): string {
  let text: string;
  try {
    text = String(error);
  } catch {
    text = Object.prototype.toString.call(error);
  }
  const head = readHead(text);
  const shown = masked(head.replace(/\s+/g, " ").trim());
  return head.length < text.length || shown.length > ERROR_LENGTH ? `${shown.slice(0, ERROR_LENGTH - 1)}…` : shown;
}

/** Records how a run of the job `name` ended: one write, of its `run` or its `failure`. */
export async function recordRun(
  kv: Deno.Kv,
  name: string,
  ended: { run: LastRun } | { failure: LastFailure },
): Promise<void> {
  if ("run" in ended) await kv.set([PREFIX, name, "run"], ended.run);
  else await kv.set([PREFIX, name, "failure"], ended.failure);
}

/**
 * How old (ms) the last record of a job that is not in the registry must be before `deleteRemovedRuns` deletes it: a
 * job another deployment of the same KV still runs (a revision still serving, a preview) records at least daily.
 */
export const REMOVED_JOB_AFTER_MS = 7 * 24 * 60 * 60 * 1000;
/** Records of removed jobs deleted in one commit, each checked as listed: within KV's 100 checks. */
const REMOVED_PER_COMMIT = 50;

/**
 * The status of each of `jobs` (the registry), in their order: one list of the records (a job that never ran has
 * none); `scheduled` false (`JOBS=off`) gives no next run; the next run counts from `now`. The records of a job not in
 * `jobs`, one removed from the registry, are never answered (`deleteRemovedRuns` deletes them). Reads only.
 */
export async function jobStatuses(
  kv: Deno.Kv,
  { jobs, scheduled, now }: { jobs: readonly Job[]; scheduled: boolean; now: Date },
): Promise<JobStatus[]> {
  const runs = new Map<string, LastRun>();
  const failures = new Map<string, LastFailure>();
  for await (const entry of kv.list<LastRun | LastFailure>({ prefix: [PREFIX] }, { batchSize: 500 })) {
    const [, name, kind] = entry.key as [string, string, string];
    if (kind === "run") runs.set(name, entry.value as LastRun);
    else if (kind === "failure") failures.set(name, entry.value as LastFailure);
  }
  return jobs.map((job) => ({
    name: job.name,
    schedule: job.schedule,
    nextRunAt: scheduled ? nextRunTime(job.schedule, now)?.toISOString() ?? null : null,
    lastRun: runs.get(job.name) ?? null,
    lastFailure: failures.get(job.name) ?? null,
  }));
}

/**
 * Deletes the records of the jobs not in `jobs` (removed from the registry) whose run started `REMOVED_JOB_AFTER_MS`
 * or longer before `now`: one list of the prefix, then commits of `REMOVED_PER_COMMIT` records, each checked against
 * them as listed (a commit that loses a race, a run recorded meanwhile, leaves its records to the next call). Returns
 * how many were deleted. The `removed-jobs` job's run (`lib/jobs/registry.ts`).
 */
export async function deleteRemovedRuns(
  kv: Deno.Kv,
  { jobs, now }: { jobs: readonly Job[]; now: Date },
): Promise<number> {
  const names = new Set(jobs.map((job) => job.name));
  const removedBefore = new Date(now.getTime() - REMOVED_JOB_AFTER_MS).toISOString();
  const removed: Deno.KvEntry<LastRun | LastFailure>[] = [];
  for await (const entry of kv.list<LastRun | LastFailure>({ prefix: [PREFIX] }, { batchSize: 500 })) {
    if (!names.has(entry.key[1] as string) && entry.value.startedAt < removedBefore) removed.push(entry);
  }
  let deleted = 0;
  for (let i = 0; i < removed.length; i += REMOVED_PER_COMMIT) {
    const batch = removed.slice(i, i + REMOVED_PER_COMMIT);
    const op = kv.atomic();
    for (const entry of batch) op.check(entry).delete(entry.key);
    if ((await op.commit()).ok) deleted += batch.length;
  }
  return deleted;
}
