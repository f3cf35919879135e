/**
 * Internship storage in Deno KV and the in-memory read model that answers every list query
 * (CONTRACT.md §4, DESIGN.md "Deno KV").
 *
 * Records are stored packed: about 60 KB of them per chunk, so that a process loads 100,000
 * listings with one scan of ~1,500 entries instead of 100,000 (a KV entry costs ~10 µs to read
 * whatever its size). Keys, owned by this module only:
 * - `["internships_chunks", n]` → UTF-8 JSON array of `Internship` records (the record store);
 * - `["internships", id]` → n, the chunk that holds the record (the id index);
 * - `["internships_chunk_stamps", n]` → record count, written with chunk n so that its
 *   versionstamp is the chunk's (listing these is how an instance finds changed chunks);
 * - `["internships_meta", "open"]` → the chunk new records go to;
 * - `["internships_meta", "head"]` → changed by every write (the change marker).
 * Every write sets the records' chunks, their id index entries, stamps and the head in one
 * atomic operation, checked against the versionstamps it read.
 *
 * The read model holds every record with its lower-case search text, newest first, plus the
 * list of rows visible to the public. Each write is applied to it by the code that committed it;
 * writes by other processes are picked up by `sync`, which compares the head versionstamp at
 * most once per `SYNC_INTERVAL_MS` and reloads only the chunks whose stamps changed.
 */
import { BadRequestError } from "../http/errors.ts";
import type { Internship, InternshipOwner } from "./schema.ts";

/** Chunks are filled by creates up to this many bytes... */
const CHUNK_FILL_BYTES = 48_000;
/** ...and may grow through updates up to this many (KV's value limit is 65,536). */
const CHUNK_MAX_BYTES = 64_000;
/** How often (ms) a read checks KV for writes made by other processes. */
export const SYNC_INTERVAL_MS = 1000;
/** How long (ms) owner objects are reused before they are read again. */
const OWNER_TTL_MS = 5000;

const chunkKey = (n: number): Deno.KvKey => ["internships_chunks", n];
const stampKey = (n: number): Deno.KvKey => ["internships_chunk_stamps", n];
const idKey = (id: string): Deno.KvKey => ["internships", id];
const OPEN_KEY: Deno.KvKey = ["internships_meta", "open"];
const HEAD_KEY: Deno.KvKey = ["internships_meta", "head"];

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** A record in the read model with its precomputed lower-case match fields. */
export interface Row {
  record: Internship;
  chunk: number;
  /** Title, description and hiring organization, lower case, one per line. */
  text: string;
  tags: string[];
  location: string;
}

function rowOf(record: Internship, chunk: number): Row {
  return {
    record,
    chunk,
    text: `${record.title}\n${record.description ?? ""}\n${record.hiringOrganization}`.toLowerCase(),
    tags: record.tags.map((t) => t.toLowerCase()),
    location: (record.location ?? "").toLowerCase(),
  };
}

/** Newest first: `createdAt` descending, then id descending. */
function newerFirst(a: Row, b: Row): number {
  const x = a.record, y = b.record;
  return x.createdAt < y.createdAt ? 1 : x.createdAt > y.createdAt ? -1 : x.id < y.id ? 1 : x.id > y.id ? -1 : 0;
}

function decodeChunk(value: Uint8Array | null): Internship[] {
  return value ? JSON.parse(decoder.decode(value)) : [];
}

function byteLength(record: Internship): number {
  return encoder.encode(JSON.stringify(record)).byteLength + 1;
}

/** The in-memory read model of one KV store. */
export class ReadModel {
  /** Every record, newest first. */
  rows: Row[] = [];
  private byId = new Map<string, Row>();
  private publicRows: Row[] | null = null;
  private chunkStamps = new Map<number, string>();
  private headStamp: string | null = null;
  private checkedAt = 0;
  private syncing: Promise<void> | null = null;
  private owners = new Map<string, InternshipOwner>();
  private ownersAt = 0;

  constructor(private readonly kv: Deno.Kv) {}

  /** Loads every chunk with one scan. */
  async load(): Promise<void> {
    this.headStamp = (await this.kv.get(HEAD_KEY)).versionstamp;
    for await (const entry of this.kv.list<Uint8Array>({ prefix: ["internships_chunks"] }, { batchSize: 500 })) {
      const n = entry.key[1] as number;
      this.chunkStamps.set(n, entry.versionstamp);
      for (const record of decodeChunk(entry.value)) {
        const row = rowOf(record, n);
        this.byId.set(record.id, row);
        this.rows.push(row);
      }
    }
    this.rows.sort(newerFirst);
    this.checkedAt = Date.now();
    await this.refreshOwners();
  }

  /** Picks up other processes' writes when `SYNC_INTERVAL_MS` has passed since the last check. */
  sync(): Promise<void> {
    if (Date.now() - this.checkedAt < SYNC_INTERVAL_MS) return Promise.resolve();
    this.syncing ??= this.pull().finally(() => {
      this.syncing = null;
    });
    return this.syncing;
  }

  private async pull(): Promise<void> {
    const head = await this.kv.get(HEAD_KEY);
    if (head.versionstamp !== this.headStamp) {
      const changed: number[] = [];
      for await (const entry of this.kv.list({ prefix: ["internships_chunk_stamps"] })) {
        const n = entry.key[1] as number;
        if (this.chunkStamps.get(n) !== entry.versionstamp) changed.push(n);
      }
      for (let i = 0; i < changed.length; i += 10) {
        const entries = await this.kv.getMany<Uint8Array[]>(changed.slice(i, i + 10).map(chunkKey));
        for (const entry of entries) {
          if (entry.versionstamp) this.apply(entry.key[1] as number, decodeChunk(entry.value), entry.versionstamp);
        }
      }
      this.headStamp = head.versionstamp;
    }
    if (Date.now() - this.ownersAt >= OWNER_TTL_MS) await this.refreshOwners();
    this.checkedAt = Date.now();
  }

  /** Puts the records of chunk `n` (as committed at `versionstamp`) into the model. */
  apply(n: number, records: Internship[], versionstamp: string): void {
    const stamp = this.chunkStamps.get(n);
    if (stamp && stamp > versionstamp) return;
    this.chunkStamps.set(n, versionstamp);
    for (const record of records) {
      const row = this.byId.get(record.id);
      if (row) {
        if (row.record.updatedAt <= record.updatedAt) Object.assign(row, rowOf(record, n));
        continue;
      }
      const fresh = rowOf(record, n);
      this.byId.set(record.id, fresh);
      let lo = 0, hi = this.rows.length;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (newerFirst(this.rows[mid], fresh) < 0) lo = mid + 1;
        else hi = mid;
      }
      this.rows.splice(lo, 0, fresh);
    }
    this.publicRows = null;
  }

  /** The row of `id`, or undefined. */
  get(id: string): Row | undefined {
    return this.byId.get(id);
  }

  /** Rows that are active and not deleted, newest first (rebuilt lazily after a change). */
  visibleRows(): Row[] {
    this.publicRows ??= this.rows.filter((row) => row.record.isActive && !row.record.deletedAt);
    return this.publicRows;
  }

  /** The owner objects of `userIds`, reading the ones not known yet. */
  async ownersOf(userIds: Iterable<string>): Promise<Map<string, InternshipOwner>> {
    const missing = [...new Set(userIds)].filter((id) => !this.owners.has(id));
    if (missing.length > 0) await this.readOwners(missing);
    return this.owners;
  }

  /** Remembers the owner object of a user known to the caller (e.g. the creator). */
  rememberOwner(owner: InternshipOwner): void {
    this.owners.set(owner.id, { id: owner.id, name: owner.name, image: owner.image, role: owner.role });
  }

  private async refreshOwners(): Promise<void> {
    const ids = new Set(this.rows.map((row) => row.record.userId));
    await this.readOwners([...ids]);
    this.ownersAt = Date.now();
  }

  private async readOwners(ids: string[]): Promise<void> {
    const batches: string[][] = [];
    for (let i = 0; i < ids.length; i += 10) batches.push(ids.slice(i, i + 10));
    const results = await Promise.all(
      batches.map((batch) =>
        this.kv.getMany<InternshipOwner[]>(batch.map((id) => ["users", id]))
      ),
    );
    for (const entry of results.flat()) {
      if (entry.value) this.rememberOwner(entry.value);
    }
  }
}

const models = new WeakMap<Deno.Kv, Promise<ReadModel>>();

/** The read model of `kv`, loaded on first use and brought up to date with other processes' writes. */
export async function readModel(kv: Deno.Kv): Promise<ReadModel> {
  let loading = models.get(kv);
  if (!loading) {
    const model = new ReadModel(kv);
    loading = model.load().then(() => model);
    loading.catch(() => models.delete(kv));
    models.set(kv, loading);
  }
  const model = await loading;
  await model.sync();
  return model;
}

/** Reads the chunk index entry and the chunk of `id`: the record with what `writeChunks` needs to check. */
export async function readRecord(
  kv: Deno.Kv,
  id: string,
): Promise<{ record: Internship; chunk: Chunk } | null> {
  const index = await kv.get<number>(idKey(id));
  if (index.value === null) return null;
  const entry = await kv.get<Uint8Array>(chunkKey(index.value));
  const records = decodeChunk(entry.value);
  const record = records.find((r) => r.id === id);
  if (!record) return null;
  return { record, chunk: { n: index.value, versionstamp: entry.versionstamp, records, index } };
}

/** A chunk as read, with what a write must check. */
export interface Chunk {
  n: number;
  versionstamp: string | null;
  records: Internship[];
  index: Deno.KvEntryMaybe<number>;
}

/** Converts a commit that KV refused for its size into a 400. */
async function commit(op: Deno.AtomicOperation): Promise<Deno.KvCommitResult | Deno.KvCommitError> {
  try {
    return await op.commit();
  } catch (error) {
    if (error instanceof TypeError && /too large|too many/i.test(error.message)) {
      throw new BadRequestError("Request too large: send fewer or smaller internships");
    }
    throw error;
  }
}

/**
 * Adds the new records to the open chunk (opening further chunks as they fill), with their id
 * index entries, in one atomic write; `moved` is an updated record leaving a full chunk.
 * @returns false when a concurrent write won (the caller reads again and retries).
 */
async function appendRecords(
  kv: Deno.Kv,
  model: ReadModel,
  records: Internship[],
  moved?: { chunk: Chunk; rest: Internship[] },
): Promise<boolean> {
  const open = await kv.get<number>(OPEN_KEY);
  let n = open.value ?? 0;
  const current = await kv.get<Uint8Array>(chunkKey(n));
  const op = kv.atomic().check(open).check(current);
  const writes = new Map<number, Internship[]>();
  if (moved) {
    op.check(moved.chunk.index, { key: chunkKey(moved.chunk.n), versionstamp: moved.chunk.versionstamp });
    writes.set(moved.chunk.n, moved.rest);
  }
  let chunk = writes.get(n) ?? decodeChunk(current.value);
  let size = encoder.encode(JSON.stringify(chunk)).byteLength;
  for (const record of records) {
    const bytes = byteLength(record);
    if (chunk.length > 0 && size + bytes > CHUNK_FILL_BYTES) {
      writes.set(n, chunk);
      n += 1;
      op.check({ key: chunkKey(n), versionstamp: null });
      chunk = [];
      size = 2;
    }
    chunk.push(record);
    size += bytes;
    op.set(idKey(record.id), n);
  }
  writes.set(n, chunk);
  op.set(OPEN_KEY, n);
  return await commitChunks(op, model, writes);
}

async function commitChunks(
  op: Deno.AtomicOperation,
  model: ReadModel,
  writes: Map<number, Internship[]>,
): Promise<boolean> {
  for (const [n, records] of writes) {
    op.set(chunkKey(n), encoder.encode(JSON.stringify(records)));
    op.set(stampKey(n), records.length);
  }
  op.set(HEAD_KEY, Date.now());
  const result = await commit(op);
  if (!result.ok) return false;
  for (const [n, records] of writes) model.apply(n, records, result.versionstamp);
  return true;
}

/** Stores new records in one atomic write, retrying on a concurrent write. */
export async function insertRecords(kv: Deno.Kv, records: Internship[]): Promise<void> {
  const model = await readModel(kv);
  while (!await appendRecords(kv, model, records));
}

/**
 * Replaces a record read by `readRecord`: in its chunk, or moved to the open chunk when its
 * chunk would outgrow the value limit.
 * @returns false when a concurrent write won (the caller reads again and retries).
 */
export async function replaceRecord(kv: Deno.Kv, chunk: Chunk, record: Internship): Promise<boolean> {
  const model = await readModel(kv);
  const records = chunk.records.map((r) => (r.id === record.id ? record : r));
  if (encoder.encode(JSON.stringify(records)).byteLength <= CHUNK_MAX_BYTES) {
    const op = kv.atomic().check(chunk.index, { key: chunkKey(chunk.n), versionstamp: chunk.versionstamp });
    return await commitChunks(op, model, new Map([[chunk.n, records]]));
  }
  const rest = chunk.records.filter((r) => r.id !== record.id);
  return await appendRecords(kv, model, [record], { chunk, rest });
}
