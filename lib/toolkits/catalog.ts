/**
 * The toolkit catalog (docs/api.md, Toolkits, "Toolkit states"; docs/api.md, Toolkits, "Lessons"; docs/decisions.md,
 * Toolkits and payments): toolkits and their content items. The catalog is small (tens to hundreds of toolkits), so
 * lists are one prefix scan sorted in memory.
 *
 * Keys (owned by this module only):
 * - `["toolkits", id]` → `ToolkitRecord`
 * - `["toolkit_items", toolkitId, itemId]` → `ContentItem`
 * - `["toolkit_item_owner", itemId]` → toolkitId (finds an item by its id alone)
 * - `["toolkits_meta", "changes"]` → `Deno.KvU64` count of writes to toolkit records: its versionstamp is the
 *   catalog's version (`catalogVersion`), which caches of public pages and the sitemap go by
 *
 * A content item, its owner entry and its toolkit's `itemCount`/`lessonCount` change in one
 * atomic write checked against the toolkit record, so `lessonCount` always equals the number of
 * items once there is one.
 */
import { countOps, toolkitCounts } from "@/lib/stats/counters.ts";
import { BusyError, InvalidInputError, NotFoundError } from "@/lib/errors.ts";
import { toPaise, toRupees } from "@/lib/money.ts";
import { getUser, type User } from "@/lib/users/users.ts";
import { FORMER_MEMBER } from "@/lib/users/roles.ts";
import { canReadToolkit, type Viewer } from "./policy.ts";
import { deleteProgressOf } from "./progress.ts";
import { sanitizeArticle } from "./sanitize.ts";
import type {
  ContentItem,
  ContentItemCreate,
  ContentItemUpdate,
  Toolkit,
  ToolkitCreate,
  ToolkitRecord,
  ToolkitUpdate,
} from "./schema.ts";
import { PLATFORM_REFUSALS, REFUSALS } from "@/lib/refusals.ts";
import { KV_VALUE_MAX_BYTES, valueBytes } from "@/lib/kv/value_size.ts";
import { fieldProblem } from "@/lib/field_messages.ts";
import type { AuditHook } from "@/lib/admin_log/admin_log.ts";
import type { ObjectStore } from "@/lib/files/object_store.ts";
import type { Logger } from "@/lib/log.ts";
import { deleteUnusedImages, LESSONS_PREFIX, TOOLKITS_PREFIX, uploadOf } from "@/lib/ungatekeep/image_use.ts";
import { getManyChunked } from "@/lib/kv/get_many.ts";

export * from "./schema.ts";

/** The message of an unknown, deleted or hidden toolkit. */
export const TOOLKIT_NOT_FOUND = REFUSALS.toolkitNotFound;
const ITEM_NOT_FOUND = REFUSALS.lessonNotFound;
/** Lost races retried before giving up. */
const MAX_ATTEMPTS = 10;
/** Keys deleted per atomic operation when a toolkit's items go. */
const DELETE_BATCH = 500;

const toolkitKey = (id: string): Deno.KvKey => [...TOOLKITS_PREFIX, id];
const CHANGES_KEY: Deno.KvKey = ["toolkits_meta", "changes"];

/** Adds to `op` the bump of the catalog's change marker (every write of a toolkit record does it). */
function markChanged(op: Deno.AtomicOperation): Deno.AtomicOperation {
  return op.sum(CHANGES_KEY, 1n);
}

/** The version of the toolkit records: it changes with every write of one (by any process). */
export async function catalogVersion(kv: Deno.Kv): Promise<string> {
  return `toolkits:${(await kv.get(CHANGES_KEY)).versionstamp ?? "none"}`;
}
const itemKey = (toolkitId: string, itemId: string) => [...LESSONS_PREFIX, toolkitId, itemId];
const itemOwnerKey = (itemId: string) => ["toolkit_item_owner", itemId];

/** The API shape of `record` with `creatorName`. */
export function toolkitView(record: ToolkitRecord, creatorName: string): Toolkit {
  const { pricePaise, originalPricePaise, itemCount: _itemCount, ...rest } = record;
  return {
    ...rest,
    price: toRupees(pricePaise),
    originalPrice: originalPricePaise === null ? null : toRupees(originalPricePaise),
    creatorName,
  };
}

async function creatorNames(kv: Deno.Kv, records: ToolkitRecord[]): Promise<Map<string, string>> {
  const ids = [...new Set(records.flatMap((r) => r.userId ?? []))];
  const users = await Promise.all(ids.map((id) => getUser(kv, id)));
  return new Map(ids.map((id, i) => [id, users[i]?.name ?? FORMER_MEMBER]));
}

async function views(kv: Deno.Kv, records: ToolkitRecord[]): Promise<Toolkit[]> {
  const names = await creatorNames(kv, records);
  return records.map((r) => toolkitView(r, r.userId === null ? FORMER_MEMBER : names.get(r.userId)!));
}

async function allRecords(kv: Deno.Kv): Promise<ToolkitRecord[]> {
  const records: ToolkitRecord[] = [];
  for await (const entry of kv.list<ToolkitRecord>({ prefix: TOOLKITS_PREFIX })) records.push(entry.value);
  return records.sort((a, b) => b.createdAt.localeCompare(a.createdAt) || b.id.localeCompare(a.id));
}

/** The stored toolkit, or null. */
export async function getToolkitRecord(kv: Deno.Kv, id: string): Promise<ToolkitRecord | null> {
  return (await kv.get<ToolkitRecord>(toolkitKey(id))).value;
}

/**
 * Active toolkits, newest first (`GET /api/toolkits`), each without its `contentUrl` (the paid material's page reaches
 * buyers and admins only, through the toolkit itself: `canReadContentUrl`).
 */
export async function listActiveToolkits(kv: Deno.Kv): Promise<Toolkit[]> {
  const records = (await allRecords(kv)).filter((r) => r.isActive).map((r) => ({ ...r, contentUrl: null }));
  return await views(kv, records);
}

/** Every toolkit, newest first, whose title contains every word of `search` (any case): the admin list. */
export async function listToolkitsForAdmin(kv: Deno.Kv, search = ""): Promise<Toolkit[]> {
  const words = search.toLowerCase().split(/\s+/).filter(Boolean);
  const records = (await allRecords(kv)).filter((r) => words.every((w) => r.title.toLowerCase().includes(w)));
  return await views(kv, records);
}

/** Toolkits by id in the order given (`getManyChunked`); unknown ids are left out. */
export async function getToolkitsByIds(kv: Deno.Kv, ids: string[]): Promise<Map<string, ToolkitRecord>> {
  const entries = await getManyChunked<ToolkitRecord>(kv, ids.map(toolkitKey));
  return new Map(entries.flatMap((entry) => entry.value ? [[entry.value.id, entry.value]] : []));
}

/**
 * The toolkit as `viewer` may read it (`canReadToolkit`).
 * @throws NotFoundError "Toolkit not found" when unknown, or inactive for a non-admin.
 */
export async function readToolkit(kv: Deno.Kv, id: string, viewer: Viewer): Promise<Toolkit> {
  const record = await getToolkitRecord(kv, id);
  if (!record || !canReadToolkit(viewer, record)) throw new NotFoundError(TOOLKIT_NOT_FOUND);
  return (await views(kv, [record]))[0];
}

/** The ids of every toolkit, active or not. */
export async function allToolkitIds(kv: Deno.Kv): Promise<string[]> {
  return (await allRecords(kv)).map((record) => record.id);
}

/** The toolkits `userId` created (every state), as the API shows them. */
export async function toolkitsCreatedBy(kv: Deno.Kv, userId: string): Promise<Toolkit[]> {
  return await views(kv, (await allRecords(kv)).filter((record) => record.userId === userId));
}

/**
 * Keeps the toolkits `userId` created without their creator (`userId` null, shown as a former member): account
 * deletion. Each toolkit is one checked write; one already changed meanwhile is read again.
 */
export async function forgetToolkitCreator(kv: Deno.Kv, userId: string): Promise<void> {
  for (const { id } of (await allRecords(kv)).filter((record) => record.userId === userId)) {
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      const entry = await kv.get<ToolkitRecord>(toolkitKey(id));
      if (entry.value?.userId !== userId) break;
      const record = { ...entry.value, userId: null };
      if ((await markChanged(kv.atomic().check(entry).set(toolkitKey(id), record)).commit()).ok) break;
    }
  }
}

/** The message of an original price below the price (a "discount" that raises the price). */
export const ORIGINAL_PRICE_BELOW_PRICE = REFUSALS.originalPriceBelowPrice;

/** @throws InvalidInputError `ORIGINAL_PRICE_BELOW_PRICE` when the record's original price is below its price. */
function assertPrices(record: Pick<ToolkitRecord, "pricePaise" | "originalPricePaise">): void {
  if (record.originalPricePaise !== null && record.originalPricePaise < record.pricePaise) {
    throw new InvalidInputError(ORIGINAL_PRICE_BELOW_PRICE);
  }
}

/**
 * Creates a toolkit of `input` by `creator`, inactive, unset optional fields null (docs/api.md, Toolkits,
 * "Toolkit states"), with `audit`'s entry in the same write.
 * @throws InvalidInputError `ORIGINAL_PRICE_BELOW_PRICE`.
 */
export async function createToolkit(
  kv: Deno.Kv,
  { creator, input, audit }: { creator: User; input: ToolkitCreate; audit?: AuditHook },
): Promise<Toolkit> {
  const now = new Date().toISOString();
  const record: ToolkitRecord = {
    id: crypto.randomUUID(),
    title: input.title,
    description: input.description,
    pricePaise: toPaise(input.price),
    originalPricePaise: input.originalPrice == null ? null : toPaise(input.originalPrice),
    coverImageUrl: input.coverImageUrl ?? null,
    videoUrl: input.videoUrl ?? null,
    contentUrl: input.contentUrl ?? null,
    category: input.category ?? null,
    highlights: input.highlights ?? null,
    totalDuration: input.totalDuration ?? null,
    lessonCount: input.lessonCount ?? 0,
    itemCount: 0,
    isActive: false,
    showSaleBadge: input.showSaleBadge ?? null,
    userId: creator.id,
    createdAt: now,
    updatedAt: now,
  };
  assertPrices(record);
  const op = kv.atomic().set(toolkitKey(record.id), record);
  countOps(op, [], toolkitCounts(record));
  audit?.(op, record.id, record.title);
  await markChanged(op).commit();
  return toolkitView(record, creator.name);
}

/** Where a toolkit's dropped cover upload is deleted from, and the log of a delete that failed. */
export interface CoverImages {
  files: ObjectStore;
  log: Logger;
}

/**
 * After the write that changed a toolkit's cover from `before` to `after` (null: the toolkit deleted), deletes the
 * upload `before` named unless a banner, post or other cover still names it (docs/decisions.md, Ungatekeep and banners,
 * "Images"); a failed delete is logged, never thrown.
 */
async function dropCover(
  kv: Deno.Kv,
  images: CoverImages,
  { id, before, after }: { id: string; before: string | null; after: string | null },
): Promise<void> {
  const dropped = uploadOf(before);
  if (!dropped || dropped === uploadOf(after)) return;
  await deleteUnusedImages(kv, images, [dropped], { message: "toolkit cover not deleted", toolkitId: id });
}

/**
 * Applies the fields of `patch` that are given to toolkit `id`, `isActive` and `showSaleBadge` included (docs/api.md,
 * Toolkits, "Toolkit states"), with `audit`'s entry in the same write. `lessonCount` is taken only while the toolkit has no content items. The prices as they
 * would be afterwards are checked together. A cover upload the patch replaces or removes is deleted from `images`
 * once nothing else names it (`dropCover`); without `images` (the demo's and the benchmarks' writes, which replace no
 * upload) it stays.
 * @throws NotFoundError "Toolkit not found"; InvalidInputError `ORIGINAL_PRICE_BELOW_PRICE`;
 * BusyError after lost races.
 */
export async function updateToolkit(
  kv: Deno.Kv,
  { id, patch, audit, images }: { id: string; patch: ToolkitUpdate; audit?: AuditHook; images?: CoverImages },
): Promise<Toolkit> {
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const entry = await kv.get<ToolkitRecord>(toolkitKey(id));
    if (!entry.value) throw new NotFoundError(TOOLKIT_NOT_FOUND);
    const { price, originalPrice, lessonCount, ...rest } = patch;
    const changes = Object.fromEntries(Object.entries(rest).filter(([, v]) => v !== undefined));
    const record: ToolkitRecord = { ...entry.value, ...changes, updatedAt: new Date().toISOString() };
    if (price !== undefined) record.pricePaise = toPaise(price);
    if (originalPrice !== undefined) record.originalPricePaise = originalPrice === null ? null : toPaise(originalPrice);
    if (lessonCount !== undefined && record.itemCount === 0) record.lessonCount = lessonCount;
    assertPrices(record);
    const op = kv.atomic().check(entry).set(toolkitKey(id), record);
    countOps(op, toolkitCounts(entry.value), toolkitCounts(record));
    audit?.(op, id, record.title);
    if (!(await markChanged(op).commit()).ok) continue;
    if (images) await dropCover(kv, images, { id, before: entry.value.coverImageUrl, after: record.coverImageUrl });
    return (await views(kv, [record]))[0];
  }
  throw new BusyError(PLATFORM_REFUSALS.busy);
}

/**
 * Deletes a toolkit for good (docs/api.md, Toolkits, "Toolkit states"), its content items and its learners'
 * progress. Purchase records stay as payment history; without the toolkit they grant nothing. `audit`'s entry is in the
 * write that deletes the toolkit, the first; its items and progress go in writes after it, and its cover upload from
 * `images` unless something else names it (`dropCover`).
 * @throws NotFoundError "Toolkit not found"; BusyError `PLATFORM_REFUSALS.busy` (503) after `MAX_ATTEMPTS` lost races,
 *   nothing deleted.
 */
export async function deleteToolkit(
  kv: Deno.Kv,
  { id, audit, images }: { id: string; audit?: AuditHook; images: CoverImages },
): Promise<void> {
  let cover: string | null = null;
  for (let attempt = 0;; attempt++) {
    const entry = await kv.get<ToolkitRecord>(toolkitKey(id));
    if (!entry.value) throw new NotFoundError(TOOLKIT_NOT_FOUND);
    const op = kv.atomic().check(entry).delete(toolkitKey(id));
    countOps(op, toolkitCounts(entry.value), []);
    audit?.(op, id, entry.value.title);
    cover = entry.value.coverImageUrl;
    if ((await markChanged(op).commit()).ok) break;
    if (attempt === MAX_ATTEMPTS) throw new BusyError(PLATFORM_REFUSALS.busy);
  }
  const itemIds: string[] = [];
  for await (const item of kv.list<ContentItem>({ prefix: [...LESSONS_PREFIX, id] })) itemIds.push(item.value.id);
  for (let i = 0; i < itemIds.length; i += DELETE_BATCH / 2) {
    const op = kv.atomic();
    for (const itemId of itemIds.slice(i, i + DELETE_BATCH / 2)) {
      op.delete(itemKey(id, itemId)).delete(itemOwnerKey(itemId));
    }
    await op.commit();
  }
  await deleteProgressOf(kv, id);
  await dropCover(kv, images, { id, before: cover, after: null });
}

/** The content items of a toolkit by `orderIndex` (then creation), bodies included. */
export async function listContentItems(kv: Deno.Kv, toolkitId: string): Promise<ContentItem[]> {
  const items: ContentItem[] = [];
  for await (const entry of kv.list<ContentItem>({ prefix: [...LESSONS_PREFIX, toolkitId] })) items.push(entry.value);
  return items.sort((a, b) => a.orderIndex - b.orderIndex || a.createdAt.localeCompare(b.createdAt));
}

/** The item's body fields after a type and body change: sanitized HTML for an article, a video URL for a video. */
async function bodyOf(type: ContentItem["type"], content: string | null, cdnVideoUrl: string | null) {
  if (type === "video") {
    if (!cdnVideoUrl) throw new InvalidInputError(REFUSALS.videoNeedsUrl);
    return { content: null, cdnVideoUrl };
  }
  return { content: await sanitizeArticle(content ?? ""), cdnVideoUrl: null };
}

/**
 * Refuses a lesson whose record would not fit one KV value, counted by `valueBytes` (docs/decisions.md, Toolkits and
 * payments, "Lesson size"): sanitizing may lengthen an article within `ARTICLE_MAX` (an `&` becomes `&amp;`).
 * @throws InvalidInputError `REFUSALS.lessonTooLong`, at `content`.
 */
function assertFits(item: ContentItem): void {
  if (valueBytes(item) <= KV_VALUE_MAX_BYTES) return;
  throw new InvalidInputError(REFUSALS.lessonTooLong, [fieldProblem("content", { key: "fields.lessonTooLong" })]);
}

/**
 * Adds a content item to a toolkit (at the end unless `orderIndex` is given) and sets the
 * toolkit's `lessonCount` to its number of items, in one atomic write with `audit`'s entry.
 * @throws NotFoundError "Toolkit not found"; InvalidInputError "A video needs cdnVideoUrl", or `lessonTooLong`;
 * BusyError after lost races.
 */
export async function createContentItem(
  kv: Deno.Kv,
  input: ContentItemCreate,
  audit?: AuditHook,
): Promise<ContentItem> {
  const body = await bodyOf(input.type, input.content ?? null, input.cdnVideoUrl ?? null);
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const entry = await kv.get<ToolkitRecord>(toolkitKey(input.toolkitId));
    if (!entry.value) throw new NotFoundError(TOOLKIT_NOT_FOUND);
    const now = new Date().toISOString();
    const item: ContentItem = {
      id: crypto.randomUUID(),
      toolkitId: input.toolkitId,
      title: input.title,
      type: input.type,
      ...body,
      orderIndex: input.orderIndex ?? entry.value.itemCount,
      isPreview: input.isPreview ?? false,
      createdAt: now,
      updatedAt: now,
    };
    assertFits(item);
    const itemCount = entry.value.itemCount + 1;
    const toolkit = { ...entry.value, itemCount, lessonCount: itemCount, updatedAt: now };
    const op = kv.atomic()
      .check(entry)
      .set(itemKey(item.toolkitId, item.id), item)
      .set(itemOwnerKey(item.id), item.toolkitId)
      .set(toolkitKey(toolkit.id), toolkit);
    audit?.(op, item.id, item.title);
    if ((await markChanged(op).commit()).ok) return item;
  }
  throw new BusyError(PLATFORM_REFUSALS.busy);
}

async function readItem(kv: Deno.Kv, id: string) {
  const owner = await kv.get<string>(itemOwnerKey(id));
  const entry = owner.value ? await kv.get<ContentItem>(itemKey(owner.value, id)) : null;
  if (!entry?.value) throw new NotFoundError(ITEM_NOT_FOUND);
  return entry as Deno.KvEntry<ContentItem>;
}

/**
 * Applies the given fields of `patch` to content item `id`, with `audit`'s entry in the same write; an article body
 * is sanitized again, and the lesson then checked to fit its KV value (a lesson stored before that bound can still be
 * renamed, moved or made a preview).
 * @throws NotFoundError "Content item not found"; InvalidInputError "A video needs cdnVideoUrl", or `lessonTooLong`;
 * BusyError after lost races.
 */
export async function updateContentItem(
  kv: Deno.Kv,
  { id, patch, audit }: { id: string; patch: ContentItemUpdate; audit?: AuditHook },
): Promise<ContentItem> {
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const entry = await readItem(kv, id);
    const current = entry.value;
    const type = patch.type ?? current.type;
    const content = patch.content !== undefined ? patch.content : current.content;
    const cdnVideoUrl = patch.cdnVideoUrl !== undefined ? patch.cdnVideoUrl : current.cdnVideoUrl;
    const newBody = patch.content !== undefined || patch.cdnVideoUrl !== undefined || patch.type !== undefined;
    const item: ContentItem = {
      ...current,
      title: patch.title ?? current.title,
      type,
      ...(newBody ? await bodyOf(type, content, cdnVideoUrl) : {}),
      orderIndex: patch.orderIndex ?? current.orderIndex,
      isPreview: patch.isPreview ?? current.isPreview,
      updatedAt: new Date().toISOString(),
    };
    if (newBody) assertFits(item);
    const op = kv.atomic().check(entry).set(entry.key, item);
    audit?.(op, id, item.title);
    if ((await op.commit()).ok) return item;
  }
  throw new BusyError(PLATFORM_REFUSALS.busy);
}

/**
 * Deletes a content item and lowers its toolkit's `lessonCount` to the items left, in one atomic write with `audit`'s
 * entry.
 * @throws NotFoundError "Content item not found"; BusyError after lost races.
 */
export async function deleteContentItem(kv: Deno.Kv, id: string, audit?: AuditHook): Promise<void> {
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const entry = await readItem(kv, id);
    const toolkit = await kv.get<ToolkitRecord>(toolkitKey(entry.value.toolkitId));
    const op = kv.atomic().check(entry).check(toolkit).delete(entry.key).delete(itemOwnerKey(id));
    if (toolkit.value) {
      const itemCount = Math.max(0, toolkit.value.itemCount - 1);
      markChanged(op).set(toolkit.key, {
        ...toolkit.value,
        itemCount,
        lessonCount: itemCount,
        updatedAt: new Date().toISOString(),
      });
    }
    audit?.(op, id, entry.value.title);
    if ((await op.commit()).ok) return;
  }
  throw new BusyError(PLATFORM_REFUSALS.busy);
}
