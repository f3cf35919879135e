/**
 * When a listing stops taking applications, as its waiting applicants' answer is timed (docs/decisions.md,
 * Applications, "Every applicant hears back"): the end of its deadline (the end of its IST day for a calendar date),
 * the moment its poster closed it, the moment it was deleted, or the moment an admin rejected it, whichever comes first
 * (`applicationsEndMs`). A write that brings that end forward (a close, a deletion, a rejection, a deadline brought
 * forward), or removes the deadline (a listing without one answers 30 days after applying at the latest), records so
 * in its own write (`endedOps`); the `applications-ended` job (`lib/applications/ended.ts`) then brings the due times of the listing's
 * waiting applications forward to match, so the timeout job answers them 15 days after the end, not 15 days after the
 * deadline the listing had when they applied.
 *
 * Listings closed or deleted before ends were recorded get their markers once from the archive (`ENDED_BACKFILL`).
 *
 * Keys: `["listing_ended", internshipId]` → `EndedMarker`, set here (a new end drops the walk's place), its place and
 * its removal written by the job; `["listing_ended_meta", "backfill"]` → the backfill's progress;
 * `["listing_ended_meta", "scan"]` → `{after}`, the listing the job's last run looked at last.
 */
import type { Backfill } from "@/lib/kv/backfill.ts";
import type { Internship } from "./schema.ts";
import type { Moderation } from "@/lib/moderation/moderation.ts";

const DAY_MS = 24 * 60 * 60 * 1000;
/** The longest an application waits for its answer (a deadline counts as at most 365 days after applying, + 15). */
const LONGEST_WAIT_MS = 380 * DAY_MS;

/** The key of internship `internshipId`'s marker. */
export const endedKey = (internshipId: string): Deno.KvKey => ["listing_ended", internshipId];
/** The prefix of every marker. */
export const ENDED_PREFIX: Deno.KvKey = ["listing_ended"];

/**
 * A listing whose end came forward: when (ISO), and where the job's walk of its waiting applications stands (absent
 * before the walk's first write): the last application walked, by when it was sent (ms) and its id.
 */
export interface EndedMarker {
  at: string;
  place?: { createdMs: number; id: string };
}

/**
 * The end (ms since the epoch) of `deadline` (`YYYY-MM-DD`, an IST calendar date, or an ISO 8601 timestamp): the end of
 * that IST day for a date, the moment itself for a timestamp.
 */
export function deadlineEndMs(deadline: string): number {
  return /^\d{4}-\d{2}-\d{2}$/.test(deadline)
    ? Date.parse(`${deadline}T00:00:00+05:30`) + DAY_MS
    : Date.parse(deadline);
}

/**
 * What tells when a listing stops taking applications: a listing's record (with its moderation: an admin's rejection
 * ends it), or its public view (never deleted nor rejected).
 */
export interface ListingEnd {
  deadline: string | null;
  closedAt?: string | null;
  deletedAt?: string | null;
  moderation?: { status: Moderation["status"]; decidedAt?: string | null } | null;
}

/**
 * When (ISO) `record` was closed by its poster, deleted, or rejected by an admin (a scam taken down, a suspended
 * poster's hide: only admins move its applications then), the earliest, or null when none.
 */
export function endedAt(record: Pick<ListingEnd, "closedAt" | "deletedAt" | "moderation">): string | null {
  const rejectedAt = record.moderation?.status === "rejected" ? record.moderation.decidedAt ?? null : null;
  // ISO times of the same form sort as strings.
  return [record.closedAt, record.deletedAt, rejectedAt].filter((at): at is string => !!at).sort()[0] ?? null;
}

/** When (ms) `record` stops taking applications: its deadline's end, its close, deletion or rejection, the earliest. */
export function applicationsEndMs(record: ListingEnd): number {
  const ended = endedAt(record);
  return Math.min(
    record.deadline ? deadlineEndMs(record.deadline) : Infinity,
    ended ? Date.parse(ended) : Infinity,
  );
}

/**
 * Adds to `op` (the write of `next`, which was `previous`) the marker of an end brought forward when `next` stops taking
 * applications earlier than `previous` did (`applicationsEndMs`), or lost its deadline (its applicants then wait at
 * most 30 days after applying, not up to 380), stamped with `next.updatedAt`; nothing otherwise (an end moved later
 * leaves a marker as it is: the job brings due times forward only, so it moves nothing then).
 */
export function endedOps(op: Deno.AtomicOperation, previous: Internship, next: Internship): void {
  const deadlineRemoved = !!previous.deadline && !next.deadline;
  if (!deadlineRemoved && applicationsEndMs(next) >= applicationsEndMs(previous)) return;
  op.set(endedKey(next.id), { at: next.updatedAt } satisfies EndedMarker);
}

/**
 * The listings their posters closed or deleted before ends were recorded (docs/decisions.md, Background work, "Index
 * backfills"): the archive's records (`["internships_closed", id]`, where a closed or deleted listing goes), 50 a page
 * and a commit, each one closed or deleted within the longest an application waits (`LONGEST_WAIT_MS`: any older has
 * no application still waiting) given its marker, stamped when it ended. One deleted within the hour before
 * (not archived yet when the walk passes its place) keeps its applicants' due times.
 */
export const ENDED_BACKFILL: Backfill<Internship> = {
  progressKey: ["listing_ended_meta", "backfill"],
  prefix: ["internships_closed"],
  page: 50,
  needs: (record) => {
    const at = endedAt(record);
    return at !== null && Date.parse(at) > Date.now() - LONGEST_WAIT_MS;
  },
  write: (op, { value }) => void op.set(endedKey(value.id), { at: endedAt(value)! } satisfies EndedMarker),
};
