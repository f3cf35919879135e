/**
 * The terms an applicant applied on and the edits they must hear of (docs/decisions.md, Applications, "Terms changed
 * after applying"): the title, the hiring organization, the location and the work type of a listing, and its stipend,
 * deadline and screening questions. An edit that renames the listing or its organization, moves it (or drops or sets
 * its location, or changes its work type), lowers the stipend (or drops it), brings the deadline forward (or sets one)
 * or changes the questions records, in the edit's own checked write, the terms as they were before it
 * (`termsChangeOps`); the `listing-changes` job (`lib/applications/terms_changed.ts`) tells each open application's
 * applicant from those records and drops them.
 *
 * Keys (owned by this module only):
 * - `["listing_changes", internshipId, changeId]` → `TermsChange`: an edit applicants must hear of, not told yet;
 *   `changeId` is the edit's time in ms (13 digits) and a random tail, so a listing's changes list in the order made
 */
import { istDayOf } from "@/lib/dates.ts";
import { sameQuestions, sameWords } from "./applied_terms.ts";
import type { Internship, InternshipType, Question } from "./schema.ts";

/**
 * What an applicant applied on: the title, the hiring organization (as the listing names it), the location, the work
 * type, the monthly stipend (rupees), the deadline and the screening questions. A change recorded before the title,
 * organization, location and work type were kept lacks them (`undefined`: unknown, never told as changed).
 */
export interface Terms {
  title?: string;
  organization?: string;
  location?: string | null;
  type?: InternshipType | null;
  stipend: number | null;
  /** `YYYY-MM-DD` or an ISO 8601 timestamp, as the listing stores it. */
  deadline: string | null;
  questions: Question[];
}

/** An edit applicants must hear of: when (ISO), the terms just before it and just after it. */
export interface TermsChange {
  at: string;
  before: Terms;
  after: Terms;
}

/**
 * How `now` is worse than `before`, for an applicant who applied on `before`: the title or the organization renamed (by
 * its words: `sameWords`), the location (by its words) or the work type changed (null: not stated), the stipend lowered (`after` null
 * when no longer stated), the deadline brought forward (`before` null when there was none; as IST days), the questions
 * changed (added, removed, reworded, made required or not: in any order). Empty: nothing is worse.
 */
export interface WorseTerms {
  title?: { before: string; after: string };
  organization?: { before: string; after: string };
  location?: { before: string | null; after: string | null };
  type?: { before: InternshipType | null; after: InternshipType | null };
  stipend?: { before: number; after: number | null };
  deadline?: { before: string | null; after: string };
  questions?: true;
}

const changeKey = (internshipId: string, changeId: string): Deno.KvKey => ["listing_changes", internshipId, changeId];

/**
 * The terms of `record`: its title, organization, location, work type, stipend, deadline and questions (none unless it
 * takes applications here).
 */
export function termsOf(record: Internship): Terms {
  return {
    title: record.title,
    organization: record.hiringOrganization,
    location: record.location ?? null,
    type: record.type ?? null,
    stipend: record.stipend ?? null,
    deadline: record.deadline ?? null,
    questions: (record.applyMode ?? "link") === "platform" ? record.questions ?? [] : [],
  };
}

/** How `now` is worse than `before` (`WorseTerms`; empty when it is not; a part either lacks is not compared). */
export function worseTerms(before: Terms, now: Terms): WorseTerms {
  const worse: WorseTerms = {};
  if (before.title !== undefined && now.title !== undefined && !sameWords(before.title, now.title)) {
    worse.title = { before: before.title, after: now.title };
  }
  if (
    before.organization !== undefined && now.organization !== undefined &&
    !sameWords(before.organization, now.organization)
  ) {
    worse.organization = { before: before.organization, after: now.organization };
  }
  if (before.location !== undefined && now.location !== undefined && !sameWords(before.location, now.location)) {
    worse.location = { before: before.location, after: now.location };
  }
  if (before.type !== undefined && now.type !== undefined && before.type !== now.type) {
    worse.type = { before: before.type, after: now.type };
  }
  if (before.stipend !== null && (now.stipend === null || now.stipend < before.stipend)) {
    worse.stipend = { before: before.stipend, after: now.stipend };
  }
  const [dayBefore, dayNow] = [before.deadline, now.deadline].map((day) => day === null ? null : istDayOf(day));
  if (dayNow !== null && (dayBefore === null || dayNow < dayBefore)) {
    worse.deadline = { before: dayBefore, after: dayNow };
  }
  if (!sameQuestions(before.questions, now.questions)) worse.questions = true;
  return worse;
}

/** Whether `after`'s terms or apply mode differ from `before`'s at all, for better or worse. */
export function termsDiffer(before: Internship, after: Internship): boolean {
  const [was, now] = [termsOf(before), termsOf(after)];
  return was.stipend !== now.stipend || was.deadline !== now.deadline ||
    !sameQuestions(was.questions, now.questions) ||
    (before.applyMode ?? "link") !== (after.applyMode ?? "link");
}

/**
 * The terms before `changes` (those made after an application, oldest first, at least one): the first one's, each part
 * the first lacks (recorded before it was kept) taken from the first change that has it.
 */
export function termsBefore(changes: readonly TermsChange[]): Terms {
  const known = <Part extends "title" | "organization" | "location" | "type">(part: Part): Terms[Part] =>
    changes.find(({ before }) => before[part] !== undefined)?.before[part];
  return {
    ...changes[0].before,
    title: known("title"),
    organization: known("organization"),
    location: known("location"),
    type: known("type"),
  };
}

/** What `worse` says that `still` says too (each as `worse` has it): what was worse and still is. */
export function stillWorse(worse: WorseTerms, still: WorseTerms): WorseTerms {
  return Object.fromEntries(Object.entries(worse).filter(([aspect]) => aspect in still));
}

/** Whether `worse` says anything. */
export function isWorse(worse: WorseTerms): boolean {
  return Object.keys(worse).length > 0;
}

/**
 * Adds to `op` (the edit's write of `next`, which was `previous`) the record of a change applicants must hear of,
 * stamped with the edit's `updatedAt`, when `next`'s terms are worse than `previous`'s (`worseTerms`); nothing
 * otherwise.
 */
export function termsChangeOps(op: Deno.AtomicOperation, previous: Internship, next: Internship): void {
  const [before, after] = [termsOf(previous), termsOf(next)];
  if (!isWorse(worseTerms(before, after))) return;
  const at = next.updatedAt;
  const changeId = `${String(Date.parse(at)).padStart(13, "0")}-${crypto.randomUUID().slice(0, 8)}`;
  const change: TermsChange = { at, before, after };
  op.set(changeKey(next.id, changeId), change);
}

/** A recorded change with its id. */
export interface TermsChangeEntry {
  changeId: string;
  change: TermsChange;
}

/**
 * The ids of the listings with changes recorded, in key order from the one after `after` (null: from the first) to the
 * last and then from the first to `after` itself, each once: one short read each as they are asked for.
 */
export async function* listingsWithChanges(kv: Deno.Kv, after: string | null): AsyncGenerator<string> {
  // Every key of a listing sorts before its id with a NUL after it, and the next listing's after that.
  const past = (id: string): Deno.KvKey => ["listing_changes", `${id}\0`];
  const first: Deno.KvKey = ["listing_changes"];
  const rounds: Deno.KvListSelector[] = after === null
    ? [{ prefix: first }]
    : [{ prefix: first, start: past(after) }, { start: first, end: past(after) }];
  for (const round of rounds) {
    let selector = round;
    while (true) {
      const [entry] = await Array.fromAsync(kv.list(selector, { limit: 1 }));
      if (!entry) break;
      const id = entry.key[1] as string;
      yield id;
      selector = "end" in selector ? { start: past(id), end: selector.end } : { prefix: first, start: past(id) };
    }
  }
}

/** The changes recorded for `internshipId` up to `upTo` (a change id; all when null), oldest first. */
export async function changesOf(kv: Deno.Kv, internshipId: string, upTo: string | null): Promise<TermsChangeEntry[]> {
  const found: TermsChangeEntry[] = [];
  for await (const entry of kv.list<TermsChange>({ prefix: ["listing_changes", internshipId] })) {
    const changeId = entry.key[2] as string;
    if (upTo !== null && changeId > upTo) break;
    found.push({ changeId, change: entry.value });
  }
  return found;
}

/** Adds to `op` the deletion of the changes `changeIds` of `internshipId` (told). */
export function dropChangesOps(op: Deno.AtomicOperation, internshipId: string, changeIds: readonly string[]): void {
  for (const changeId of changeIds) op.delete(changeKey(internshipId, changeId));
}
