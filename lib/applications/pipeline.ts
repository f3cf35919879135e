/**
 * The poster's list of an internship's applications (docs/decisions.md, Applications, "The poster's list"): counts per
 * status and one page of one status tab (oldest first), optionally narrowed by search words over the applicant's name,
 * college, role and field. Each process keeps, per internship it served lately, the per-status index in memory (ids,
 * when sent, search text), and a request reads only the internship's change marker: unchanged, the page comes from
 * memory; changed, the process catches up from the change log (or reads the index again when its copy is older than
 * the log keeps), then reads the page's records with `getMany`. So a page costs two or three round trips whatever the
 * number of applications.
 */
import type { ApplicationStatus } from "./schema.ts";
import { APPLICATION_STATUSES } from "./schema.ts";
import { changesKey, LOG_KEPT_MS, logSince, madeBaseKey, madeKey, statusIndex } from "./store.ts";
import { counterValue } from "@/lib/stats/counters.ts";

/** An application as the in-memory index keeps it. */
interface Item {
  id: string;
  status: ApplicationStatus;
  createdMs: number;
  /** The search text. */
  t: string;
  /** Its history's length when last seen: a later change has a longer one. */
  v: number;
}

/** One internship's index in memory. */
interface Copy {
  /** The change marker it is up to date with. */
  marker: number;
  /** Log position (ms) it read up to. */
  logMs: number;
  /** When it was made (ms): copies older than the log keeps are read again. */
  builtMs: number;
  byId: Map<string, Item>;
  /** Per status, oldest first; null after a change until the next read sorts it again. */
  lists: Map<ApplicationStatus, Item[]> | null;
}

/** How many internships' indexes a process keeps (least recently used go first). */
const KEPT = 200;
/** How far back (ms) a catch-up reads the log before its last position, for writers whose clocks run behind. */
const CLOCK_SLACK_MS = 60_000;

const copies = new Map<string, Copy>();

/** Drops every in-memory index (tests and benchmarks that open a fresh KV). */
export function forgetPipelines(): void {
  copies.clear();
}

function put(copy: Copy, item: Item): void {
  const known = copy.byId.get(item.id);
  if (known && known.v > item.v) return;
  copy.byId.set(item.id, item);
  copy.lists = null;
}

async function build(kv: Deno.Kv, internshipId: string, marker: number, now: number): Promise<Copy> {
  const copy: Copy = { marker, logMs: now, builtMs: now, byId: new Map(), lists: null };
  for await (const entry of statusIndex(kv, internshipId)) {
    // The index holds no history length: the log's later entries (v ≥ 1) replace these.
    copy.byId.set(entry.id, { id: entry.id, status: entry.status, createdMs: entry.createdMs, t: entry.t, v: 0 });
  }
  return copy;
}

/** The internship's index, up to date with its change marker as read now. */
async function current(kv: Deno.Kv, internshipId: string): Promise<Copy> {
  const now = Date.now();
  const marker = counterValue(await kv.get<Deno.KvU64>(changesKey(internshipId)));
  let copy = copies.get(internshipId);
  if (copy && copy.marker !== marker) {
    if (now - copy.builtMs > LOG_KEPT_MS - CLOCK_SLACK_MS * 2) copy = undefined;
    else {
      const from = copy.logMs - CLOCK_SLACK_MS;
      for (const { id, change } of await logSince(kv, internshipId, from)) {
        put(copy, { id, status: change.status, createdMs: change.createdMs, t: change.t, v: change.v });
      }
      copy.marker = marker;
      copy.logMs = now;
    }
  }
  if (!copy) {
    // The log is read after the index, so a write between the two is caught either way.
    copy = await build(kv, internshipId, marker, now);
    for (const { id, change } of await logSince(kv, internshipId, now - CLOCK_SLACK_MS)) {
      put(copy, { id, status: change.status, createdMs: change.createdMs, t: change.t, v: change.v });
    }
  }
  copies.delete(internshipId);
  copies.set(internshipId, copy);
  if (copies.size > KEPT) copies.delete(copies.keys().next().value!);
  return copy;
}

function listsOf(copy: Copy): Map<ApplicationStatus, Item[]> {
  if (copy.lists) return copy.lists;
  const lists = new Map<ApplicationStatus, Item[]>(APPLICATION_STATUSES.map((status) => [status, []]));
  for (const item of copy.byId.values()) lists.get(item.status)!.push(item);
  for (const list of lists.values()) list.sort((a, b) => a.createdMs - b.createdMs || (a.id < b.id ? -1 : 1));
  copy.lists = lists;
  return lists;
}

/** Tries of the first count of a listing to store its base before it answers without storing it. */
const BASE_TRIES = 5;

/**
 * How many applications internship `internshipId` has, in every status, as the poster's list counts them ("All"):
 * "Applicants (n)" beside a listing on "My internships". One read of two keys: the applications made to it
 * (`madeKey`) and the base its first count stored (`madeBaseKey`). That first count takes the index's size (read
 * whole, or from memory when the process keeps it) and stores it less the counter, checked against the counter as read
 * before, so an application made meanwhile makes it count again; a fresh process thus never lists a year's
 * applications of 20 listings to show one page of "My internships".
 */
export async function applicationCount(kv: Deno.Kv, internshipId: string): Promise<number> {
  for (let attempt = 1;; attempt++) {
    const [base, made] = await kv.getMany<[number, Deno.KvU64]>([madeBaseKey(internshipId), madeKey(internshipId)]);
    if (base.value !== null) return base.value + counterValue(made);
    const size = (await current(kv, internshipId)).byId.size;
    const stored = await kv.atomic().check(base, made).set(madeBaseKey(internshipId), size - counterValue(made))
      .commit();
    if (stored.ok || attempt >= BASE_TRIES) return size;
  }
}

/** What a page of the poster's list is: the counts per status, the ids of the page, and how many match in all. */
export interface PipelinePage {
  counts: Record<ApplicationStatus, number>;
  ids: string[];
  total: number;
}

/**
 * The counts and one page of internship `internshipId`'s applications: in `status` (every status, in course order,
 * when absent), matching every word of `search`, from `offset`, at most `limit`; the application `without` (the
 * reader's own) is left out of the page and the counts.
 */
export async function pipelinePage(
  kv: Deno.Kv,
  internshipId: string,
  { status, search, limit, offset, without = null }: {
    status?: ApplicationStatus;
    search: string[];
    limit: number;
    offset: number;
    without?: string | null;
  },
): Promise<PipelinePage> {
  const copy = await current(kv, internshipId);
  const left = without === null ? undefined : copy.byId.get(without);
  const lists = left ? new Map(listsOf(copy)) : listsOf(copy);
  if (left) lists.set(left.status, lists.get(left.status)!.filter((item) => item !== left));
  const counts = Object.fromEntries(APPLICATION_STATUSES.map((name) => [name, lists.get(name)!.length])) as Record<
    ApplicationStatus,
    number
  >;
  const tabs = status ? [lists.get(status)!] : APPLICATION_STATUSES.map((name) => lists.get(name)!);
  if (search.length > 0) {
    const items = tabs.flat().filter((item) => search.every((word) => item.t.includes(word)));
    return { counts, ids: items.slice(offset, offset + limit).map((item) => item.id), total: items.length };
  }
  // Without search, the page is cut from the tabs in place: nothing is copied but the page.
  const ids: string[] = [];
  let skip = offset;
  for (const list of tabs) {
    if (ids.length >= limit) break;
    if (skip >= list.length) {
      skip -= list.length;
      continue;
    }
    for (const item of list.slice(skip, skip + limit - ids.length)) ids.push(item.id);
    skip = 0;
  }
  return { counts, ids, total: tabs.reduce((sum, list) => sum + list.length, 0) };
}
