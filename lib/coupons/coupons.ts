/**
 * Coupons (docs/api.md, Toolkits, "Coupon and purchase errors"; docs/decisions.md, Toolkits and payments): admin
 * CRUD with search by code, and the checks a checkout runs on a code, in the order docs/api.md lists them.
 * Discounts are kept in paise (fixed) or percent; the API speaks rupees.
 *
 * Keys (owned by this module only):
 * - `["coupons", id]` → `CouponRecord`
 * - `["coupons_by_code", CODE]` → id (uniqueness guard, codes upper case)
 */
import { z } from "zod";
import { COUPON_ERRORS } from "./errors.ts";
import { InvalidInputError, NotFoundError } from "@/lib/errors.ts";
import { fieldProblem } from "@/lib/field_messages.ts";
import { RETRY_BUDGET_MS, retrying } from "@/lib/kv/retry.ts";
import { hasAtMostTwoDecimals, MAX_PRICE_RUPEES, toPaise, toRupees } from "@/lib/money.ts";
import { deleteSlotsOf, usedCount } from "./reservations.ts";
import { REFUSALS } from "@/lib/refusals.ts";
import type { AuditHook } from "@/lib/admin_log/admin_log.ts";

/** Discount kinds. */
export const DISCOUNT_TYPES = ["percentage", "fixed"] as const;
/** One of `DISCOUNT_TYPES`. */
export type DiscountType = typeof DISCOUNT_TYPES[number];

/** The message of a code that another coupon has. */
export const DUPLICATE_CODE = REFUSALS.duplicateCode;

/** The sentence shown at the code field for `DUPLICATE_CODE`. */
const DUPLICATE_CODE_FIELD = fieldProblem("code", { key: "fields.couponCodeTaken" });

/** A coupon as stored: a percentage, or a fixed amount in paise. */
export interface CouponRecord {
  id: string;
  code: string;
  discountType: DiscountType;
  /** Percent off (1–100) for `percentage`; paise off for `fixed`. */
  discountAmount: number;
  isActive: boolean;
  expiresAt: string | null;
  perUserLimit: number;
  usageLimit: number | null;
  toolkitIds: string[] | null;
  createdAt: string;
  updatedAt: string;
}

/** A coupon in API responses (docs/decisions.md, Toolkits and payments): `discountValue` in percent or rupees, `usedCount` read only. */
export interface Coupon extends Omit<CouponRecord, "discountAmount"> {
  discountValue: number;
  usedCount: number;
}

const CodeSchema = z.string().trim().min(3).max(40).regex(/^[A-Za-z0-9_-]+$/, "fields.codeCharacters")
  .transform((code) => code.toUpperCase());

const CouponFieldsSchema = z.object({
  code: CodeSchema,
  discountType: z.enum(DISCOUNT_TYPES),
  discountValue: z.number().positive().max(MAX_PRICE_RUPEES).refine(
    hasAtMostTwoDecimals,
    "fields.twoDecimals",
  ),
  isActive: z.boolean(),
  expiresAt: z.iso.datetime({ offset: true }).nullable(),
  perUserLimit: z.int().min(1).max(1000),
  usageLimit: z.int().min(1).max(100_000).nullable(),
  toolkitIds: z.array(z.string().min(1).max(100)).max(100).nullable(),
});

const percentAtMost100 = (c: { discountType?: DiscountType; discountValue?: number }) =>
  c.discountType !== "percentage" || c.discountValue === undefined || c.discountValue <= 100;
const PERCENT_MESSAGE = { message: "fields.percentMax", path: ["discountValue"] };

/** Body of `POST /api/admin/coupons`. */
export const CouponCreateSchema = CouponFieldsSchema.extend({
  isActive: z.boolean().default(true),
  expiresAt: CouponFieldsSchema.shape.expiresAt.default(null),
  perUserLimit: CouponFieldsSchema.shape.perUserLimit.default(1),
  usageLimit: CouponFieldsSchema.shape.usageLimit.default(null),
  toolkitIds: CouponFieldsSchema.shape.toolkitIds.default(null),
}).refine(percentAtMost100, PERCENT_MESSAGE);
export type CouponCreate = z.infer<typeof CouponCreateSchema>;

/** Body of `PATCH /api/admin/coupons/{id}`: any field. */
export const CouponUpdateSchema = CouponFieldsSchema.partial();
export type CouponUpdate = z.infer<typeof CouponUpdateSchema>;

/** Query of `GET /api/admin/coupons`. */
export const CouponSearchSchema = z.object({ search: z.string().trim().max(100).optional() });

const couponKey = (id: string) => ["coupons", id];
const codeKey = (code: string) => ["coupons_by_code", code];

/** The API shape of `record` with its `usedCount`. */
export function couponView(record: CouponRecord, used: number): Coupon {
  const { discountAmount, ...rest } = record;
  return {
    ...rest,
    discountValue: record.discountType === "fixed" ? toRupees(discountAmount) : discountAmount,
    usedCount: used,
  };
}

async function view(kv: Deno.Kv, record: CouponRecord): Promise<Coupon> {
  return couponView(record, await usedCount(kv, record.id));
}

function amountOf(type: DiscountType, value: number): number {
  return type === "fixed" ? toPaise(value) : value;
}

/** Every coupon whose code contains `search` (any case), newest first (`GET /api/admin/coupons`). */
export async function listCoupons(kv: Deno.Kv, search = ""): Promise<Coupon[]> {
  const needle = search.toUpperCase();
  const records: CouponRecord[] = [];
  for await (const entry of kv.list<CouponRecord>({ prefix: ["coupons"] })) {
    if (entry.value.code.includes(needle)) records.push(entry.value);
  }
  records.sort((a, b) => b.createdAt.localeCompare(a.createdAt) || b.id.localeCompare(a.id));
  return await Promise.all(records.map((r) => view(kv, r)));
}

/** The message of a coupon created with an expiry that has already passed. */
export const EXPIRED_AT_CREATION = REFUSALS.expiredAtCreation;

/**
 * Creates a coupon; the code's uniqueness is checked in the same atomic write, which holds `audit`'s entry. A coupon that
 * would be expired from its creation is refused: nobody could use it.
 * @throws InvalidInputError "Coupon code already exists", or `EXPIRED_AT_CREATION`, each with the
 *   sentence for its field (`code`, `expiresAt`) as `fields`.
 */
export async function createCoupon(kv: Deno.Kv, input: CouponCreate, audit?: AuditHook): Promise<Coupon> {
  const now = new Date().toISOString();
  if (input.expiresAt !== null && Date.parse(input.expiresAt) <= Date.parse(now)) {
    throw new InvalidInputError(EXPIRED_AT_CREATION, [fieldProblem("expiresAt", { key: "fields.expiryPassed" })]);
  }
  const { discountValue, ...fields } = input;
  const record: CouponRecord = {
    id: crypto.randomUUID(),
    ...fields,
    discountAmount: amountOf(input.discountType, discountValue),
    createdAt: now,
    updatedAt: now,
  };
  const op = kv.atomic()
    .check({ key: codeKey(record.code), versionstamp: null })
    .set(couponKey(record.id), record)
    .set(codeKey(record.code), record.id);
  audit?.(op, record.id, record.code);
  if (!(await op.commit()).ok) throw new InvalidInputError(DUPLICATE_CODE, [DUPLICATE_CODE_FIELD]);
  return couponView(record, 0);
}

/**
 * Applies the given fields of `patch` to coupon `id`; a new code moves the uniqueness guard in the same write, which
 * holds `audit`'s entry.
 * @throws NotFoundError "Coupon not found"; InvalidInputError "Coupon code already exists" or
 *   for a percentage over 100; BusyError after 30 s of races lost to other writers (a lost race reads again).
 */
export async function updateCoupon(
  kv: Deno.Kv,
  { id, patch, audit }: { id: string; patch: CouponUpdate; audit?: AuditHook },
): Promise<Coupon> {
  let stored: CouponRecord | undefined;
  await retrying(
    async () => {
      const entry = await kv.get<CouponRecord>(couponKey(id));
      if (!entry.value) throw new NotFoundError(REFUSALS.couponNotFound);
      const current = entry.value;
      const { discountValue, ...fields } = Object.fromEntries(
        Object.entries(patch).filter(([, v]) => v !== undefined),
      ) as CouponUpdate;
      const discountType = fields.discountType ?? current.discountType;
      const value = discountValue ?? couponView(current, 0).discountValue;
      if (!percentAtMost100({ discountType, discountValue: value })) {
        throw new InvalidInputError(PERCENT_MESSAGE.message);
      }
      const record: CouponRecord = {
        ...current,
        ...fields,
        discountAmount: amountOf(discountType, value),
        updatedAt: new Date().toISOString(),
      };
      const op = kv.atomic().check(entry).set(couponKey(id), record);
      if (record.code !== current.code) {
        op.check({ key: codeKey(record.code), versionstamp: null }).set(codeKey(record.code), id)
          .delete(codeKey(current.code));
      }
      audit?.(op, id, record.code);
      if ((await op.commit()).ok) {
        stored = record;
        return true;
      }
      const owner = await kv.get<string>(codeKey(record.code));
      if (record.code !== current.code && owner.value && owner.value !== id) {
        throw new InvalidInputError(DUPLICATE_CODE, [DUPLICATE_CODE_FIELD]);
      }
      return false;
    },
    RETRY_BUDGET_MS,
  );
  return await view(kv, stored!);
}

/**
 * Deletes a coupon and its code in one write with `audit`'s entry, then its slots. Purchases that used it keep its id as history.
 * @throws NotFoundError "Coupon not found"; BusyError after 30 s of races lost to other writers.
 */
export async function deleteCoupon(kv: Deno.Kv, id: string, audit?: AuditHook): Promise<void> {
  await retrying(
    async () => {
      const entry = await kv.get<CouponRecord>(couponKey(id));
      if (!entry.value) throw new NotFoundError(REFUSALS.couponNotFound);
      const op = kv.atomic().check(entry).delete(couponKey(id)).delete(codeKey(entry.value.code));
      audit?.(op, id, entry.value.code);
      return (await op.commit()).ok;
    },
    RETRY_BUDGET_MS,
  );
  await deleteSlotsOf(kv, id);
}

/** The stored coupon, or null (a deleted one). */
export async function getCouponRecord(kv: Deno.Kv, id: string): Promise<CouponRecord | null> {
  return (await kv.get<CouponRecord>(couponKey(id))).value;
}

/**
 * The coupon a checkout of `toolkitId` may use under `code`, with its entry for an atomic check,
 * after the first three checks of that order: it exists (and covers the toolkit),
 * it is active, it has not expired.
 * `now` is in ms since the epoch (default: the current time).
 * @throws InvalidInputError "Invalid coupon code", "Coupon is not active" or "Coupon has expired".
 */
export async function usableCoupon(
  kv: Deno.Kv,
  { code, toolkitId, now = Date.now() }: { code: string; toolkitId: string; now?: number },
): Promise<Deno.KvEntry<CouponRecord>> {
  const normalized = code.trim().toUpperCase();
  const id = normalized.length <= 40 ? (await kv.get<string>(codeKey(normalized))).value : null;
  const entry = id ? await kv.get<CouponRecord>(couponKey(id)) : null;
  const coupon = entry?.value;
  if (!coupon || (coupon.toolkitIds !== null && !coupon.toolkitIds.includes(toolkitId))) {
    throw new InvalidInputError(COUPON_ERRORS.invalid);
  }
  if (!coupon.isActive) throw new InvalidInputError(COUPON_ERRORS.inactive);
  if (coupon.expiresAt !== null && Date.parse(coupon.expiresAt) <= now) {
    throw new InvalidInputError(COUPON_ERRORS.expired);
  }
  return entry as Deno.KvEntry<CouponRecord>;
}
