/**
 * Bitsets over the public view of the internship read model (docs/performance.md, Why it is fast, "Filters are
 * bitsets"): for each field value a list filter asks (a set of types, a stipend range, a city, a tag list, a search
 * word, the day the listings must be open on), one bit per position of the public view (`InternshipColumns.publicView`,
 * newest first), set where the listing at that position passes that field's test. A filter over the public listings is
 * then the AND of its fields' bitsets (about 3,100 words of 32 bits at 100,000 open listings) and a walk over the bits
 * left, instead of a pass testing every listing field by field. Each bitset is made once by a pass over one field and
 * kept for the model's version and view (any write starts afresh), at most `KEPT_BYTES` in all, least recently used out
 * first.
 */
import type { FilterView } from "./columns.ts";

/** At most this many bytes of bitsets are kept per read model (640 bitsets at 100,000 open listings). */
export const KEPT_BYTES = 8 * 1024 * 1024;

/** The kept bitsets of one read model, for one version of it and one public view. */
export class PublicBits {
  private version = -1;
  private view: FilterView | null = null;
  private readonly kept = new Map<string, Uint32Array>();
  private bytes = 0;
  /** By slot, its position in the view plus one (0: not in the view); made on first use. */
  private positions: Int32Array | null = null;

  /** How many 32-bit words a bitset of the current view has. */
  words = 0;

  /** Starts afresh unless `version` and `view` are those the kept bitsets were made for. */
  use(version: number, view: FilterView): void {
    if (version === this.version && view === this.view) return;
    this.version = version;
    this.view = view;
    this.kept.clear();
    this.bytes = 0;
    this.positions = null;
    this.words = (view.slots.length + 31) >>> 5;
  }

  /**
   * The bitset named `key` (a field and its value): kept, or made with a bit set at each position `i` of the view for
   * which `test(i)` holds. Not to be changed.
   */
  of(key: string, test: (position: number) => boolean): Uint32Array {
    return this.keep(key, (bits) => {
      const n = this.view!.slots.length;
      for (let i = 0; i < n; i++) if (test(i)) bits[i >>> 5] |= 1 << (i & 31);
    });
  }

  /**
   * The bitset named `key` of the positions of `slotLists`' slots (postings, e.g. of tags): kept, or made from them.
   * Not to be changed.
   */
  ofSlots(key: string, slotLists: () => Iterable<readonly number[]>): Uint32Array {
    return this.keep(key, (bits) => {
      const positions = this.positionsOf();
      for (const slots of slotLists()) {
        for (let j = 0; j < slots.length; j++) {
          const slot = slots[j];
          const i = slot < positions.length ? positions[slot] - 1 : -1;
          if (i >= 0) bits[i >>> 5] |= 1 << (i & 31);
        }
      }
    });
  }

  private keep(key: string, fill: (bits: Uint32Array) => void): Uint32Array {
    let bits = this.kept.get(key);
    if (bits) {
      this.kept.delete(key);
      this.kept.set(key, bits);
      return bits;
    }
    bits = new Uint32Array(this.words);
    fill(bits);
    for (const [oldest, old] of this.kept) {
      if (this.bytes + bits.byteLength <= KEPT_BYTES) break;
      this.kept.delete(oldest);
      this.bytes -= old.byteLength;
    }
    this.kept.set(key, bits);
    this.bytes += bits.byteLength;
    return bits;
  }

  private positionsOf(): Int32Array {
    if (!this.positions) {
      const slots = this.view!.slots;
      let size = 0;
      for (let i = 0; i < slots.length; i++) if (slots[i] >= size) size = slots[i] + 1;
      this.positions = new Int32Array(size);
      for (let i = 0; i < slots.length; i++) this.positions[slots[i]] = i + 1;
    }
    return this.positions;
  }
}
