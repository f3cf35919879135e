/**
 * Many small checked writes sent as few commits (docs/decisions.md, Background work, "Batched writes"): a cleanup that
 * walks thousands of records (an account's deletion, a one-time migration) records each record's write as a
 * `WriteUnit` and `commitPacked` sends as many units in one commit as KV takes (100 checks, 1,000 mutations, 80 KiB of
 * keys and 800 KiB in all per commit), so a remote KV is asked once per batch instead of once per record.
 */
import { valueBytes } from "./value_size.ts";

/** KV's limits of one atomic commit: checks, mutations, bytes of keys, bytes of keys and values. */
const MAX_CHECKS = 100;
const MAX_MUTATIONS = 1000;
const MAX_BYTES = 800 * 1024;
/** KV's most bytes of keys (checked and changed) in one atomic commit, as `keyBytes` counts them. */
export const MAX_KEY_BYTES = 80 * 1024;

/**
 * An upper bound of the bytes `key` takes encoded: each part's UTF-8 bytes (or 8 for a number) and two more; what
 * counts toward KV's 80 KiB of keys a commit (`MAX_KEY_BYTES`).
 */
export function keyBytes(key: Deno.KvKey): number {
  let bytes = 0;
  for (const part of key) {
    if (typeof part === "string") bytes += new TextEncoder().encode(part).length + 2;
    else if (part instanceof Uint8Array) bytes += part.length * 2 + 2;
    else bytes += 10 + (typeof part === "bigint" ? part.toString(16).length : 0);
  }
  return bytes;
}

/**
 * The checks and mutations of one record's write, recorded as an `AtomicOperation` takes them, to be committed with
 * others by `commitPacked`. `op` hands it to a function that adds to an `AtomicOperation` (`check`, `set`, `delete` and
 * `sum` are recorded; any other method is missing and throws).
 */
export class WriteUnit {
  readonly checks: Deno.AtomicCheck[] = [];
  readonly mutations: Deno.KvMutation[] = [];
  /** Upper bounds of the bytes of this unit's keys (checks and mutations), and of its keys and values. */
  keyBytes = 0;
  bytes = 0;

  /** Checks `checks` (entries as read) in the commit. */
  check(...checks: Deno.AtomicCheck[]): this {
    for (const { key, versionstamp } of checks) {
      this.checks.push({ key, versionstamp });
      this.#count(keyBytes(key), 0);
    }
    return this;
  }

  /** Sets `key` to `value`, expiring after `options.expireIn` ms when given. */
  set(key: Deno.KvKey, value: unknown, options?: { expireIn?: number }): this {
    this.mutations.push({ type: "set", key, value, expireIn: options?.expireIn });
    this.#count(keyBytes(key), valueBytes(value));
    return this;
  }

  /** Deletes `key`. */
  delete(key: Deno.KvKey): this {
    this.mutations.push({ type: "delete", key });
    this.#count(keyBytes(key), 0);
    return this;
  }

  /** Adds `n` to the `Deno.KvU64` at `key` (wrapping, as KV's sum does). */
  sum(key: Deno.KvKey, n: bigint): this {
    this.mutations.push({ type: "sum", key, value: new Deno.KvU64(n) });
    this.#count(keyBytes(key), 8);
    return this;
  }

  /** This unit as the `AtomicOperation` a function adds to (see the class docstring). */
  get op(): Deno.AtomicOperation {
    return this as unknown as Deno.AtomicOperation;
  }

  #count(keys: number, value: number): void {
    this.keyBytes += keys;
    this.bytes += keys + value;
  }
}

/** `units` in order, cut into groups that each fit one commit (a unit over a limit alone is a group of its own). */
function groupsOf(units: WriteUnit[]): WriteUnit[][] {
  const groups: WriteUnit[][] = [];
  let group: WriteUnit[] = [];
  let checks = 0, mutations = 0, keys = 0, bytes = 0;
  for (const unit of units) {
    const fits = checks + unit.checks.length <= MAX_CHECKS && mutations + unit.mutations.length <= MAX_MUTATIONS &&
      keys + unit.keyBytes <= MAX_KEY_BYTES && bytes + unit.bytes <= MAX_BYTES;
    if (!fits && group.length > 0) {
      groups.push(group);
      group = [];
      checks =
        mutations =
        keys =
        bytes =
          0;
    }
    group.push(unit);
    checks += unit.checks.length;
    mutations += unit.mutations.length;
    keys += unit.keyBytes;
    bytes += unit.bytes;
  }
  if (group.length > 0) groups.push(group);
  return groups;
}

/** Commits `unit` on its own; true when its checks held. */
async function commitOne(kv: Deno.Kv, unit: WriteUnit): Promise<boolean> {
  return (await kv.atomic().check(...unit.checks).mutate(...unit.mutations).commit()).ok;
}

/**
 * Commits `units` in order, as many in one commit as fit KV's limits. A commit whose checks fail (some unit's record
 * changed since it was read) is tried again unit by unit, so only the changed ones are not written. Returns, in the
 * order given, whether each unit was written; the caller reads the others again (or leaves them).
 * @throws what KV throws (e.g. a single unit over KV's limits); the commits made before stay.
 */
export async function commitPacked(kv: Deno.Kv, units: WriteUnit[]): Promise<boolean[]> {
  const written: boolean[] = [];
  for (const group of groupsOf(units)) {
    if (group.length === 1) {
      written.push(await commitOne(kv, group[0]));
      continue;
    }
    const op = kv.atomic();
    for (const unit of group) op.check(...unit.checks).mutate(...unit.mutations);
    if ((await op.commit()).ok) {
      written.push(...group.map(() => true));
      continue;
    }
    for (const unit of group) written.push(await commitOne(kv, unit));
  }
  return written;
}

/** How many listed entries `deleteListed` holds the keys of at once. */
const LISTED_AT_ONCE = 1000;

/**
 * Deletes every entry under `prefix` and, with each, the keys `alsoOf(entry)` names (the record a secondary index entry
 * points to), as many a commit as KV takes (`commitPacked`), holding at most 1,000 entries at once; for what goes with
 * an account or a toolkit or coupon being deleted. Idempotent. @throws what KV throws.
 */
export async function deleteListed<T = unknown>(
  kv: Deno.Kv,
  prefix: Deno.KvKey,
  alsoOf: (entry: Deno.KvEntry<T>) => Deno.KvKey[] = () => [],
): Promise<void> {
  let units: WriteUnit[] = [];
  for await (const entry of kv.list<T>({ prefix }, { batchSize: 500 })) {
    const unit = new WriteUnit().delete(entry.key);
    for (const key of alsoOf(entry)) unit.delete(key);
    units.push(unit);
    if (units.length === LISTED_AT_ONCE) {
      await commitPacked(kv, units);
      units = [];
    }
  }
  await commitPacked(kv, units);
}
