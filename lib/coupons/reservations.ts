/**
 * Coupon uses and reservations (docs/decisions.md, Toolkits and payments): every use of a coupon, reserved at checkout or
 * paid, holds one numbered slot among the coupon's `usageLimit` total slots and one among the
 * user's `perUserLimit` slots, so both limits are enforced by KV itself: taking a slot is an
 * atomic write checked against the slot's versionstamp (two checkouts can never take the same
 * one), and no count is ever read and then written.
 *
 * A reservation expires after 30 minutes (`expireIn`, and `expiresAt` checked on every read, as
 * KV deletes expired keys lazily); a paid use is kept for good. A checkout finds a free slot of the coupon by reading
 * a few at random, not every one (a popular coupon holds thousands); an unlimited coupon's slots are spread at random
 * over `0..UNLIMITED_SLOTS-1` (those taken before were numbered past the live ones). `usedCount` = live slots (paid
 * uses plus live reservations).
 *
 * Keys (owned by this module only):
 * - `["coupon_slots", couponId, index]` → `SlotValue` (total uses)
 * - `["coupon_user_slots", couponId, userId, index]` → `SlotValue` (one user's uses)
 */
import { deleteListed } from "@/lib/kv/packed_writes.ts";
import { getManyChunked } from "@/lib/kv/get_many.ts";

/**
 * How long an unpaid reservation holds its slots, in ms (docs/decisions.md, Toolkits and payments,
 * "A coupon reservation belongs to the orders priced with it").
 */
export const RESERVATION_MS = 30 * 60 * 1000;

/** What a slot holds. */
export interface SlotValue {
  purchaseId: string;
  /** The buyer; null once they deleted their account. */
  userId: string | null;
  toolkitId: string;
  status: "reserved" | "used";
  /** When a reservation lapses; null for a paid use. */
  expiresAt: string | null;
}

/** Where a purchase's reservation sits: kept on the purchase record. */
export interface ReservationRef {
  couponId: string;
  slot: number;
  userSlot: number;
}

/** A slot to take: its key and the versionstamp it had when read (null when free). */
interface SlotClaim {
  index: number;
  key: Deno.KvKey;
  versionstamp: string | null;
}

/** The outcome of `planReservation`: slots to take, or which limit stops it. */
export type ReservationPlan =
  | { ok: true; couponId: string; slot: SlotClaim; userSlot: SlotClaim }
  | { ok: false; reason: "perUserLimit" | "usageLimit" };

const slotKey = (couponId: string, index: number) => ["coupon_slots", couponId, index];
const userSlotKey = (couponId: string, userId: string, index: number) => [
  "coupon_user_slots",
  couponId,
  userId,
  index,
];

function isLive(value: SlotValue, now: number): boolean {
  return value.expiresAt === null || Date.parse(value.expiresAt) > now;
}

/**
 * The slots under `prefix` by index (only from index `from` on, or only before index `to`, when given),
 * `SLOT_LIST_BATCH` a list call.
 */
async function slotsOf(
  kv: Deno.Kv,
  prefix: Deno.KvKey,
  bound: { from: number } | { to: number } | null = null,
): Promise<Map<number, Deno.KvEntry<SlotValue>>> {
  const slots = new Map<number, Deno.KvEntry<SlotValue>>();
  const selector: Deno.KvListSelector = !bound
    ? { prefix }
    : "from" in bound
    ? { prefix, start: [...prefix, bound.from] }
    : { prefix, end: [...prefix, bound.to] };
  for await (const entry of kv.list<SlotValue>(selector, { batchSize: SLOT_LIST_BATCH })) {
    const index = entry.key[entry.key.length - 1];
    if (typeof index === "number") slots.set(index, entry);
  }
  return slots;
}

/**
 * How many of the slots `0..limit-1` a new use may take when every slot of the coupon was read: the largest `end` with
 * `end` plus the live slots at `end` or beyond at most `limit`. Live slots beyond the limit (taken while the coupon had
 * none, whose slots are spread over `0..UNLIMITED_SLOTS-1`, or before it was lowered) leave the top slots below it
 * unused, so the slots' own checks keep the limit under concurrency: such slots are never added to, so a later read
 * finds the same `end` or a larger one.
 */
function takeableEnd(slots: Map<number, Deno.KvEntry<SlotValue>>, limit: number, now: number): number {
  let end = limit;
  let above = [...slots].filter(([index, entry]) => index >= limit && isLive(entry.value, now)).length;
  while (end > 0 && end + above > limit) {
    end--;
    const entry = slots.get(end);
    if (entry && isLive(entry.value, now)) above++;
  }
  return end;
}

/**
 * A free slot for `purchaseId` among `0..end-1` (`takeableEnd` of a `limit`; `limit` null: past the live ones): the
 * one it already holds, else a random free or lapsed one (random, so concurrent checkouts rarely pick the same); null
 * when every slot is taken.
 */
function claimOf(
  slots: Map<number, Deno.KvEntry<SlotValue>>,
  { limit, purchaseId, keyOf }: { limit: number | null; purchaseId: string; keyOf: (index: number) => Deno.KvKey },
): SlotClaim | null {
  const now = Date.now();
  for (const [index, entry] of slots) {
    if (entry.value.purchaseId === purchaseId && isLive(entry.value, now)) {
      return { index, key: keyOf(index), versionstamp: entry.versionstamp };
    }
  }
  const live = [...slots.values()].filter((e) => isLive(e.value, now)).length;
  const end = limit === null ? live + 16 : takeableEnd(slots, limit, now);
  const free: number[] = [];
  for (let index = 0; index < end; index++) {
    const entry = slots.get(index);
    if (!entry || !isLive(entry.value, now)) free.push(index);
  }
  if (free.length === 0) return null;
  const index = free[Math.floor(Math.random() * free.length)];
  return { index, key: keyOf(index), versionstamp: slots.get(index)?.versionstamp ?? null };
}

/** Slots listed per list call when every slot of a coupon is read (KV's largest batch). */
const SLOT_LIST_BATCH = 500;
/** Random slots of a coupon read at once for a free one (KV's `getMany` limit). */
const PROBES = 10;
/** The slots an unlimited coupon's uses are spread over at random (`0..UNLIMITED_SLOTS-1`). */
const UNLIMITED_SLOTS = 2 ** 31;

/** `count` distinct random whole numbers in `0..end-1` (all of them when `end` is at most `count`). */
function randomIndexes(end: number, count: number): number[] {
  if (end <= count) return Array.from({ length: end }, (_, i) => i);
  const picked = new Set<number>();
  while (picked.size < count) picked.add(Math.floor(Math.random() * end));
  return [...picked];
}

/**
 * The coupon's slot for a reservation of `purchaseId` without reading every slot of the coupon (a popular one holds
 * thousands: docs/decisions.md, Toolkits and payments, "Coupon uses"), as `claim`, or none when only that read can
 * tell: the purchase's own live slot among `own` (the reservations it holds, from its record); else, when no live slot
 * lies beyond `usageLimit` (a limit given or lowered below its uses), a free or lapsed one among `PROBES` read at random
 * in `0..usageLimit-1` (every slot of a small limit), or in `0..UNLIMITED_SLOTS-1` for an unlimited coupon. `beyond`:
 * the slots from `usageLimit` on, as read (none for an unlimited coupon).
 */
async function probedSlot(
  kv: Deno.Kv,
  { coupon, purchaseId, own }: {
    coupon: { id: string; usageLimit: number | null };
    purchaseId: string;
    own: number[];
  },
): Promise<{ claim?: SlotClaim; beyond: Map<number, Deno.KvEntry<SlotValue>> }> {
  const now = Date.now();
  const claim = (entry: Deno.KvEntryMaybe<SlotValue>): SlotClaim => ({
    index: entry.key.at(-1) as number,
    key: entry.key,
    versionstamp: entry.versionstamp,
  });
  const limit = coupon.usageLimit;
  const [held, beyond] = await Promise.all([
    getManyChunked<SlotValue>(kv, own.map((index) => slotKey(coupon.id, index))),
    limit === null ? new Map() : slotsOf(kv, ["coupon_slots", coupon.id], { from: limit }),
  ]);
  const mine = held.find((entry) => entry.value?.purchaseId === purchaseId && isLive(entry.value, now));
  if (mine) return { claim: claim(mine), beyond };
  if ([...beyond.values()].some((entry) => isLive(entry.value, now))) return { beyond };
  const indexes = randomIndexes(limit ?? UNLIMITED_SLOTS, PROBES);
  const probed = await kv.getMany<SlotValue[]>(indexes.map((index) => slotKey(coupon.id, index)));
  const free = probed.filter((entry) => entry.value === null || !isLive(entry.value, now));
  return free.length > 0 ? { claim: claim(free[Math.floor(Math.random() * free.length)]), beyond } : { beyond };
}

/**
 * Finds the slots a reservation of `couponId` by `userId` for `purchaseId` would take; a slot the purchase already
 * holds counts as its own (checkout started again: `held` are the reservations on its record, `reservationsOf`). The
 * per-user limit is checked before the total one (docs/api.md, Toolkits, "Coupon and purchase errors"). The user's
 * slots are read; the coupon's are probed (`probedSlot`), and read in full only when that cannot tell (the coupon is
 * nearly full, or has live slots beyond its limit), those beyond its limit not twice.
 */
export async function planReservation(
  kv: Deno.Kv,
  { coupon, userId, purchaseId, held }: Omit<SlotOwner, "ref"> & {
    coupon: { id: string; perUserLimit: number; usageLimit: number | null };
    held: readonly ReservationRef[];
  },
): Promise<ReservationPlan> {
  const own = held.filter((ref) => ref.couponId === coupon.id).map((ref) => ref.slot);
  const [userSlots, probed] = await Promise.all([
    slotsOf(kv, ["coupon_user_slots", coupon.id, userId]),
    probedSlot(kv, { coupon, purchaseId, own }),
  ]);
  const userSlot = claimOf(userSlots, {
    limit: coupon.perUserLimit,
    purchaseId,
    keyOf: (i) => userSlotKey(coupon.id, userId, i),
  });
  if (!userSlot) return { ok: false, reason: "perUserLimit" };
  const limit = coupon.usageLimit;
  const every = async () =>
    limit === null
      ? await slotsOf(kv, ["coupon_slots", coupon.id])
      : new Map([...await slotsOf(kv, ["coupon_slots", coupon.id], { to: limit }), ...probed.beyond]);
  const slot = probed.claim ?? claimOf(await every(), { limit, purchaseId, keyOf: (i) => slotKey(coupon.id, i) });
  if (!slot) return { ok: false, reason: "usageLimit" };
  return { ok: true, couponId: coupon.id, slot, userSlot };
}

/**
 * Adds the writes that take `plan`'s slots to `op`, checked against what was read: for 30
 * minutes, or for good when `paid` (a free purchase); returns where the reservation sits.
 */
export function reserveOps(
  op: Deno.AtomicOperation,
  { plan, value, paid }: {
    plan: Extract<ReservationPlan, { ok: true }>;
    value: Omit<SlotValue, "status" | "expiresAt">;
    paid: boolean;
  },
): ReservationRef {
  const slotValue: SlotValue = paid
    ? { ...value, status: "used", expiresAt: null }
    : { ...value, status: "reserved", expiresAt: new Date(Date.now() + RESERVATION_MS).toISOString() };
  for (const claim of [plan.slot, plan.userSlot]) {
    op.check({ key: claim.key, versionstamp: claim.versionstamp })
      .set(claim.key, slotValue, paid ? undefined : { expireIn: RESERVATION_MS });
  }
  return { couponId: plan.couponId, slot: plan.slot.index, userSlot: plan.userSlot.index };
}

/** A reservation `ref` taken by buyer `userId` for purchase `purchaseId`. */
export interface SlotOwner {
  ref: ReservationRef;
  userId: string;
  purchaseId: string;
}

/** The slot entries of a reservation that still belong to `purchaseId` (live or paid). */
export async function heldSlots(
  kv: Deno.Kv,
  { ref, userId, purchaseId }: SlotOwner,
): Promise<Deno.KvEntry<SlotValue>[]> {
  const entries = await kv.getMany<SlotValue[]>([
    slotKey(ref.couponId, ref.slot),
    userSlotKey(ref.couponId, userId, ref.userSlot),
  ]);
  const now = Date.now();
  return entries.filter((e): e is Deno.KvEntry<SlotValue> =>
    e.value !== null && e.value.purchaseId === purchaseId && isLive(e.value, now)
  );
}

/**
 * Adds to `op` the writes that keep `purchaseId`'s use of the coupon of `ref` without its buyer `userId` (account
 * deletion): the buyer's own slot goes; the coupon's slot stays, counting toward its limit as before, with
 * `userId` null (a reservation still lapses when it would have). Checked against what was read.
 */
export async function forgetBuyerOps(
  kv: Deno.Kv,
  op: Deno.AtomicOperation,
  { ref, userId, purchaseId }: SlotOwner,
): Promise<void> {
  const [slot, userSlot] = await kv.getMany<SlotValue[]>([
    slotKey(ref.couponId, ref.slot),
    userSlotKey(ref.couponId, userId, ref.userSlot),
  ]);
  if (slot.value?.purchaseId === purchaseId && slot.value.userId !== null) {
    const left = slot.value.expiresAt === null ? undefined : Date.parse(slot.value.expiresAt) - Date.now();
    op.check(slot).set(
      slot.key,
      { ...slot.value, userId: null },
      left === undefined ? undefined : {
        expireIn: Math.max(1, left),
      },
    );
  }
  if (userSlot.value?.purchaseId === purchaseId) op.check(userSlot).delete(userSlot.key);
}

/** Adds the writes that free `held` slots (from `heldSlots`) to `op`, checked against what was read. */
export function releaseOps(op: Deno.AtomicOperation, held: Deno.KvEntry<SlotValue>[]): void {
  for (const entry of held) op.check(entry).delete(entry.key);
}

/** Adds the writes that turn `held` slots into paid uses, kept for good, to `op`. */
export function confirmOps(op: Deno.AtomicOperation, held: Deno.KvEntry<SlotValue>[]): void {
  for (const entry of held) op.check(entry).set(entry.key, { ...entry.value, status: "used", expiresAt: null });
}

/** Paid uses plus live reservations of a coupon (`usedCount`). */
export async function usedCount(kv: Deno.Kv, couponId: string): Promise<number> {
  const now = Date.now();
  let count = 0;
  for await (
    const entry of kv.list<SlotValue>({ prefix: ["coupon_slots", couponId] }, { batchSize: SLOT_LIST_BATCH })
  ) {
    if (isLive(entry.value, now)) count++;
  }
  return count;
}

/** Deletes every slot of a coupon (the coupon is being deleted). */
export async function deleteSlotsOf(kv: Deno.Kv, couponId: string): Promise<void> {
  await deleteListed(kv, ["coupon_slots", couponId]);
  await deleteListed(kv, ["coupon_user_slots", couponId]);
}
