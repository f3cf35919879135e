/**
 * Coupon uses and reservations (docs/decisions.md, Toolkits and payments): every use of a coupon, reserved at checkout or
 * paid, holds one numbered slot among the coupon's `usageLimit` total slots and one among the
 * user's `perUserLimit` slots, so both limits are enforced by KV itself: taking a slot is an
 * atomic write checked against the slot's versionstamp (two checkouts can never take the same
 * one), and no count is ever read and then written.
 *
 * A reservation expires after 30 minutes (`expireIn`, and `expiresAt` checked on every read, as
 * KV deletes expired keys lazily); a paid use is kept for good. An unlimited coupon numbers its
 * slots past the live ones. `usedCount` = live slots (paid uses plus live reservations).
 *
 * Keys (owned by this module only):
 * - `["coupon_slots", couponId, index]` → `SlotValue` (total uses)
 * - `["coupon_user_slots", couponId, userId, index]` → `SlotValue` (one user's uses)
 */

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

async function slotsOf(kv: Deno.Kv, prefix: Deno.KvKey): Promise<Map<number, Deno.KvEntry<SlotValue>>> {
  const slots = new Map<number, Deno.KvEntry<SlotValue>>();
  for await (const entry of kv.list<SlotValue>({ prefix })) {
    const index = entry.key[entry.key.length - 1];
    if (typeof index === "number") slots.set(index, entry);
  }
  return slots;
}

/**
 * A free slot among `0..limit-1` (`limit` null: past the live ones) for `purchaseId`: the one it
 * already holds, else a random free or lapsed one (random, so concurrent checkouts rarely pick
 * the same); null when every slot is taken.
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
  const end = limit ?? live + 16;
  if (live >= end) return null;
  const free: number[] = [];
  for (let index = 0; index < end; index++) {
    const entry = slots.get(index);
    if (!entry || !isLive(entry.value, now)) free.push(index);
  }
  if (free.length === 0) return null;
  const index = free[Math.floor(Math.random() * free.length)];
  return { index, key: keyOf(index), versionstamp: slots.get(index)?.versionstamp ?? null };
}

/**
 * Finds the slots a reservation of `couponId` by `userId` for `purchaseId` would take; a slot the
 * purchase already holds counts as its own (checkout started again). The per-user limit is checked
 * before the total one (docs/api.md, Toolkits, "Coupon and purchase errors").
 */
export async function planReservation(
  kv: Deno.Kv,
  { coupon, userId, purchaseId }: Omit<SlotOwner, "ref"> & {
    coupon: { id: string; perUserLimit: number; usageLimit: number | null };
  },
): Promise<ReservationPlan> {
  const [userSlots, slots] = await Promise.all([
    slotsOf(kv, ["coupon_user_slots", coupon.id, userId]),
    slotsOf(kv, ["coupon_slots", coupon.id]),
  ]);
  const userSlot = claimOf(userSlots, {
    limit: coupon.perUserLimit,
    purchaseId,
    keyOf: (i) => userSlotKey(coupon.id, userId, i),
  });
  if (!userSlot) return { ok: false, reason: "perUserLimit" };
  const slot = claimOf(slots, { limit: coupon.usageLimit, purchaseId, keyOf: (i) => slotKey(coupon.id, i) });
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
  for await (const entry of kv.list<SlotValue>({ prefix: ["coupon_slots", couponId] })) {
    if (isLive(entry.value, now)) count++;
  }
  return count;
}

/** Deletes every slot of a coupon (the coupon is being deleted). */
export async function deleteSlotsOf(kv: Deno.Kv, couponId: string): Promise<void> {
  for (const prefix of [["coupon_slots", couponId], ["coupon_user_slots", couponId]]) {
    let op = kv.atomic();
    let count = 0;
    for await (const entry of kv.list({ prefix })) {
      op.delete(entry.key);
      if (++count % 500 === 0) {
        await op.commit();
        op = kv.atomic();
      }
    }
    await op.commit();
  }
}
