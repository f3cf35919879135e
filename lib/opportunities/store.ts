/**
 * Storage of opportunities in Deno KV and the in-memory read model the lists answer from
 * (CONTRACT.md §5). This module owns every opportunity key:
 *
 * - `["opportunities", id]` → the record;
 * - `["opportunities_by_status", status, createdAt, id]`, `["opportunities_public_by_type", type,
 *   createdAt, id]` (published ones only) and `["opportunities_by_owner", userId, createdAt, id]`
 *   → `null`: secondary indexes, changed in the same atomic write as the record;
 * - `["opportunities_count", status]` → `Deno.KvU64`, counts per review state (`sum` mutations);
 * - `["opportunities_version"]` → the change marker every write sets, checked by every write.
 *
 * The read model holds the records newest first with their lower-case search text and the
 * counts per state; a process loads it once and afterwards applies its own commits. Before a
 * read it compares the change marker (one `get`) and reloads when another process wrote.
 */
import { type Opportunity, type OpportunityStatus, statusOf } from "./types.ts";

const RECORD = "opportunities";
const BY_STATUS = "opportunities_by_status";
const PUBLIC_BY_TYPE = "opportunities_public_by_type";
const BY_OWNER = "opportunities_by_owner";
const COUNT = "opportunities_count";
const VERSION_KEY: Deno.KvKey = ["opportunities_version"];
/** Most attempts of one write before it gives up (a lost race is retried). */
const MAX_ATTEMPTS = 10;

/** A record in the read model with its search text. */
export interface ModelEntry {
  record: Opportunity;
  /** Title, description, location and organizer, lower case. */
  text: string;
}

/** The read model of one KV store. */
export interface ReadModel {
  /** Oldest first (by `createdAt`, then `id`); lists walk it from the end. */
  entries: ModelEntry[];
  byId: Map<string, ModelEntry>;
  counts: Record<OpportunityStatus, number>;
  /** Versionstamp of the change marker the model reflects (`null`: nothing written yet). */
  versionstamp: string | null;
}

const models = new WeakMap<Deno.Kv, Promise<ReadModel>>();

function searchText(o: Opportunity): string {
  return [o.title, o.description, o.location, o.organizer ?? ""].join("\n").toLowerCase();
}

function older(a: Opportunity, b: Opportunity): boolean {
  return a.createdAt < b.createdAt || (a.createdAt === b.createdAt && a.id < b.id);
}

async function load(kv: Deno.Kv): Promise<ReadModel> {
  for (;;) {
    const before = await kv.get(VERSION_KEY);
    const entries: ModelEntry[] = [];
    for await (const { value } of kv.list<Opportunity>({ prefix: [RECORD] })) {
      entries.push({ record: value, text: searchText(value) });
    }
    const after = await kv.get(VERSION_KEY);
    if (before.versionstamp !== after.versionstamp) continue;
    entries.sort((a, b) => (older(a.record, b.record) ? -1 : older(b.record, a.record) ? 1 : 0));
    const counts = { pending: 0, approved: 0, rejected: 0 };
    for (const e of entries) counts[statusOf(e.record)]++;
    return { entries, byId: new Map(entries.map((e) => [e.record.id, e])), counts, versionstamp: after.versionstamp };
  }
}

/** The read model of `kv`, current with every write committed before the call. */
export async function readModel(kv: Deno.Kv): Promise<ReadModel> {
  const cached = models.get(kv);
  if (cached) {
    const [model, marker] = await Promise.all([cached, kv.get(VERSION_KEY)]);
    if (marker.versionstamp === model.versionstamp) return model;
    if (models.get(kv) !== cached) return await readModel(kv);
  }
  const loading = load(kv);
  models.set(kv, loading);
  try {
    return await loading;
  } catch (error) {
    models.delete(kv);
    throw error;
  }
}

function apply(model: ReadModel, record: Opportunity): void {
  const existing = model.byId.get(record.id);
  if (existing) {
    model.counts[statusOf(existing.record)]--;
    existing.record = record;
    existing.text = searchText(record);
  } else {
    const entry = { record, text: searchText(record) };
    let i = model.entries.length;
    while (i > 0 && older(record, model.entries[i - 1].record)) i--;
    model.entries.splice(i, 0, entry);
    model.byId.set(record.id, entry);
  }
  model.counts[statusOf(record)]++;
}

function indexKeys(o: Opportunity): Deno.KvKey[] {
  const status = statusOf(o);
  const keys: Deno.KvKey[] = [
    [BY_STATUS, status, o.createdAt, o.id],
    [BY_OWNER, o.userId, o.createdAt, o.id],
  ];
  if (status === "approved") keys.push([PUBLIC_BY_TYPE, o.type, o.createdAt, o.id]);
  return keys;
}

/** Reads one record with its versionstamp. */
export async function readRecord(kv: Deno.Kv, id: string): Promise<Deno.KvEntryMaybe<Opportunity>> {
  return await kv.get<Opportunity>([RECORD, id]);
}

/**
 * Writes `next` in place of `current` (null: a new record) in one atomic operation: the record,
 * its index entries, the counts per state and the change marker, checked against the record's
 * versionstamp and the marker the read model reflects. Returns false when the check failed.
 */
async function commit(kv: Deno.Kv, model: ReadModel, current: Deno.KvEntryMaybe<Opportunity>, next: Opportunity) {
  const expected = model.versionstamp;
  const op = kv.atomic().check(current).check({ key: VERSION_KEY, versionstamp: expected });
  if (current.value) {
    for (const key of indexKeys(current.value)) op.delete(key);
    op.sum([COUNT, statusOf(current.value)], 0xffffffffffffffffn);
  }
  for (const key of indexKeys(next)) op.set(key, null);
  op.sum([COUNT, statusOf(next)], 1n).set([RECORD, next.id], next).set(VERSION_KEY, crypto.randomUUID());
  const result = await op.commit();
  if (!result.ok) return false;
  if (model.versionstamp === expected) {
    apply(model, next);
    model.versionstamp = result.versionstamp;
  }
  return true;
}

/** Stores a new record. @throws Error after `MAX_ATTEMPTS` lost races. */
export async function insertRecord(kv: Deno.Kv, record: Opportunity): Promise<void> {
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const model = await readModel(kv);
    if (await commit(kv, model, { key: [RECORD, record.id], value: null, versionstamp: null }, record)) return;
  }
  throw new Error("Opportunity write lost too many races");
}

/**
 * Reads the record `id`, lets `change` derive the next version (or null: leave it as it is) and
 * commits it, retrying a lost race up to `MAX_ATTEMPTS` times. Returns the record as it then
 * stands, or null when there is none.
 */
export async function updateRecord(
  kv: Deno.Kv,
  id: string,
  change: (current: Opportunity) => Opportunity | null,
): Promise<Opportunity | null> {
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const model = await readModel(kv);
    const current = await readRecord(kv, id);
    if (!current.value) return null;
    const next = change(current.value);
    if (!next) return current.value;
    if (await commit(kv, model, current, next)) return next;
  }
  throw new Error("Opportunity write lost too many races");
}

/** Counts per state as the KV counters hold them (the read model keeps the same figures). */
export async function storedCounts(kv: Deno.Kv): Promise<Record<OpportunityStatus, number>> {
  const [pending, approved, rejected] = await kv.getMany<Deno.KvU64[]>([
    [COUNT, "pending"],
    [COUNT, "approved"],
    [COUNT, "rejected"],
  ]);
  const n = (e: Deno.KvEntryMaybe<Deno.KvU64>) => Number(e.value?.value ?? 0n);
  return { pending: n(pending), approved: n(approved), rejected: n(rejected) };
}

/** Ids of index entries under `status`, newest first (for consistency checks). */
export async function idsByStatus(kv: Deno.Kv, status: OpportunityStatus): Promise<string[]> {
  const ids: string[] = [];
  for await (const { key } of kv.list({ prefix: [BY_STATUS, status] }, { reverse: true })) ids.push(key[3] as string);
  return ids;
}
