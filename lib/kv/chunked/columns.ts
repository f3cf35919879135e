/**
 * Column building blocks of a chunked read model (`read_model.ts`): every record has a slot (a
 * small integer, stable for the life of the process), and a domain keeps each listing field in an
 * array indexed by slot, with dictionaries and postings where a filter needs them.
 */

/**
 * The slots of a read model: id and creation time per slot, and every live slot newest first. A slot whose record
 * left the store is removed: its id no longer finds it, it leaves `order`, and it is never used again (arrays by slot
 * keep their place).
 */
export class Slots {
  readonly ids: string[] = [];
  readonly created: number[] = [];
  /** Every live slot, newest first (creation time, then id descending). */
  readonly order: number[] = [];
  private readonly byId = new Map<string, number>();
  /** Slots removed since `order` was last compacted. */
  private readonly removed = new Set<number>();

  /** How many slots there are (removed ones included: the length of arrays by slot). */
  get count(): number {
    return this.ids.length;
  }

  /** How many slots are live. */
  get live(): number {
    return this.byId.size;
  }

  /** Removes `slot` (its record left the store); `compact` then takes it out of `order`. */
  remove(slot: number): void {
    if (this.byId.get(this.ids[slot]) === slot) this.byId.delete(this.ids[slot]);
    this.removed.add(slot);
  }

  /** Takes the removed slots out of `order`. */
  compact(): void {
    if (this.removed.size === 0) return;
    let at = 0;
    for (const slot of this.order) if (!this.removed.has(slot)) this.order[at++] = slot;
    this.order.length = at;
    this.removed.clear();
  }

  /** The slot of `id`, or undefined. */
  slotOf(id: string): number | undefined {
    return this.byId.get(id);
  }

  /**
   * A new slot for `id` created at `createdMs`, placed in `order`; with `bulk`, appended
   * unsorted instead (call `sortOrder` when the bulk load is done).
   */
  add(id: string, createdMs: number, bulk: boolean): number {
    const slot = this.ids.push(id) - 1;
    this.byId.set(id, slot);
    this.created.push(createdMs);
    if (bulk) this.order.push(slot);
    else this.insertSorted(this.order, slot);
    return slot;
  }

  /** Sorts `order` newest first after a bulk load. */
  sortOrder(): void {
    this.order.sort(this.newerFirst);
  }

  /** Comparator of slots, newest first. */
  readonly newerFirst = (a: number, b: number): number => {
    const d = this.created[b] - this.created[a];
    if (d !== 0) return d;
    const x = this.ids[a], y = this.ids[b];
    return x < y ? 1 : x > y ? -1 : 0;
  };

  /** Inserts `slot` into `list` (slots newest first) at its place. */
  insertSorted(list: number[], slot: number): void {
    let lo = 0, hi = list.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.newerFirst(list[mid], slot) < 0) lo = mid + 1;
      else hi = mid;
    }
    list.splice(lo, 0, slot);
  }
}

/** Distinct strings (e.g. locations) as small codes, so a filter tests each distinct value once. */
export class Dictionary {
  readonly names: string[] = [];
  private readonly codes = new Map<string, number>();

  /** The code of `name`, added when new. */
  code(name: string): number {
    let code = this.codes.get(name);
    if (code === undefined) {
      code = this.names.push(name) - 1;
      this.codes.set(name, code);
    }
    return code;
  }

  /**
   * The one kept copy of `name` (added when new): columns store it instead of the copy each
   * decoded entry brings, so a value shared by many records is held once.
   */
  canonical(name: string): string {
    return this.names[this.code(name)];
  }

  /** Marks, by code, the names that satisfy `test`. */
  marks(test: (name: string) => boolean): Uint8Array {
    return Uint8Array.from(this.names, (name) => test(name) ? 1 : 0);
  }
}

/**
 * Lists of strings (e.g. a record's tags) kept once per distinct list, of kept strings: records
 * with the same values share one frozen array.
 */
export class ListDictionary {
  private readonly strings = new Dictionary();
  private readonly lists = new Map<string, readonly string[]>();

  /** The one kept, frozen copy of `values`. */
  canonical(values: readonly string[]): readonly string[] {
    const key = values.join("\0");
    let list = this.lists.get(key);
    if (!list) this.lists.set(key, list = Object.freeze(values.map((value) => this.strings.canonical(value))));
    return list;
  }
}

/**
 * Slots by value (e.g. by tag or by owner): the postings a filter starts from. Each value's slots are an array in the
 * order added (appending is several times cheaper than a `Set` at a load of 100,000 records); a removed slot is only
 * noted, and the array filtered once the next reader asks for it.
 */
export class Postings {
  private readonly lists = new Map<string, number[]>();
  /** Per value, slots removed since its array was last filtered. */
  private readonly removed = new Map<string, Set<number>>();

  /** Adds `slot` under `value` (it must not be there already). */
  add(value: string, slot: number): void {
    const gone = this.removed.get(value);
    // Removed and added again before any read: the earlier entry is still in the array.
    if (gone?.delete(slot)) return;
    let list = this.lists.get(value);
    if (!list) this.lists.set(value, list = []);
    list.push(slot);
  }

  /** Removes `slot` from under `value`. */
  remove(value: string, slot: number): void {
    let gone = this.removed.get(value);
    if (!gone) this.removed.set(value, gone = new Set());
    gone.add(slot);
  }

  /** The slots under `value`, in the order added (empty when none). */
  get(value: string): readonly number[] {
    const list = this.lists.get(value);
    if (!list) return [];
    const gone = this.removed.get(value);
    if (gone && gone.size > 0) {
      let at = 0;
      for (const slot of list) if (!gone.has(slot)) list[at++] = slot;
      list.length = at;
      this.removed.delete(value);
    }
    return list;
  }

  /** Every value with postings. */
  values(): IterableIterator<string> {
    return this.lists.keys();
  }
}
