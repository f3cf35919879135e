/**
 * What buyers and visitors read (docs/api.md, Toolkits; docs/decisions.md, Toolkits and payments):
 * a toolkit with its syllabus (locked lesson bodies withheld by `policy.ts`), progress, the
 * buyer's toolkits and the purchase history.
 */
import {
  type Certificate,
  certificateOf,
  certificatePath,
  issueCertificateOps,
} from "@/lib/certificates/certificates.ts";
import { ForbiddenError, NotFoundError } from "@/lib/errors.ts";
import {
  hasPurchased,
  listPurchaseRecords,
  ownedEntry,
  ownedToolkitIds,
  type Purchase,
  purchaseView,
  receiptPath,
} from "@/lib/purchases/purchases.ts";
import type { User } from "@/lib/users/users.ts";
import { getToolkitsByIds, listContentItems, readToolkit } from "./catalog.ts";
import { canReadContentUrl, canReadLesson, canReadToolkit, canTrackProgress, type Viewer } from "./policy.ts";
import { completedByToolkit, completedItemIds, setLessonCompleted } from "./progress.ts";
import type { ContentItem, Toolkit } from "./schema.ts";
import { REFUSALS } from "@/lib/refusals.ts";

/** The body of `GET /api/toolkits/{id}`. */
export interface ToolkitDetail {
  toolkit: Toolkit;
  contentItems: ContentItem[];
  hasPurchased: boolean;
  completedItemIds: string[];
}

/** `item` as `viewer` may see it: a locked lesson keeps its title, type and order, never its body. */
function visibleItem(viewer: Viewer, purchased: boolean, item: ContentItem): ContentItem {
  return canReadLesson(viewer, purchased, item) ? item : { ...item, content: null, cdnVideoUrl: null };
}

/**
 * A toolkit with its lessons as `viewer` may see them, whether the viewer bought it, and the
 * lessons they completed (empty for anyone but a buyer).
 * @throws NotFoundError "Toolkit not found" (unknown, or inactive for a non-admin).
 */
export async function toolkitDetail(kv: Deno.Kv, id: string, viewer: Viewer): Promise<ToolkitDetail> {
  const toolkit = await readToolkit(kv, id, viewer);
  const [items, purchased] = await Promise.all([
    listContentItems(kv, id),
    viewer ? hasPurchased(kv, viewer.id, id) : false,
  ]);
  const completed = viewer && purchased
    ? await completedItemIds(kv, { toolkitId: id, userId: viewer.id, itemIds: items.map((i) => i.id) })
    : [];
  return {
    toolkit: canReadContentUrl(viewer, purchased) ? toolkit : { ...toolkit, contentUrl: null },
    contentItems: items.map((item) => visibleItem(viewer, purchased, item)),
    hasPurchased: purchased,
    completedItemIds: completed,
  };
}

/**
 * Marks a lesson of a toolkit the caller bought complete or not; returns the completed lesson ids.
 * @throws NotFoundError "Toolkit not found" or "Content item not found"; ForbiddenError for a
 *   caller who has not bought the toolkit.
 */
export async function recordProgress(
  kv: Deno.Kv,
  { toolkitId, viewer, contentItemId, completed }: {
    toolkitId: string;
    viewer: User;
    contentItemId: string;
    completed: boolean;
  },
): Promise<ProgressResult> {
  const toolkit = await readToolkit(kv, toolkitId, viewer);
  const purchased = await hasPurchased(kv, viewer.id, toolkitId);
  if (!canTrackProgress(viewer, purchased)) throw new ForbiddenError(REFUSALS.buyToTrack);
  const itemIds = (await listContentItems(kv, toolkitId)).map((item) => item.id);
  if (!itemIds.includes(contentItemId)) throw new NotFoundError(REFUSALS.lessonNotFound);
  let issued: Certificate | null = null;
  const completedItemIds = await setLessonCompleted(kv, {
    toolkitId,
    userId: viewer.id,
    itemId: contentItemId,
    completed,
    itemIds,
    extend: async (op, ids) => {
      issued = null;
      if (!purchased || ids.length !== itemIds.length) return;
      // Checked in the write, so a refund landing meanwhile (the marker goes) issues nothing.
      const owned = await ownedEntry(kv, viewer.id, toolkitId);
      op.check(owned);
      if (owned.value) {
        issued = await issueCertificateOps(kv, op, { learner: viewer, toolkit, at: new Date().toISOString() });
      }
    },
  });
  const certificate = issued ?? (purchased ? await certificateOf(kv, viewer.id, toolkitId) : null);
  return { completedItemIds, certificateUrl: certificate ? certificatePath(certificate.id) : null };
}

/** What recording progress answers: the completed lessons, and the learner's certificate page once issued. */
export interface ProgressResult {
  completedItemIds: string[];
  certificateUrl: string | null;
}

/** A toolkit the user owns, with how far they are. */
export interface OwnedToolkit {
  toolkit: Toolkit;
  completedCount: number;
}

/** The readable toolkits `user` has bought, newest first, with their completed lesson counts. */
export async function ownedToolkits(kv: Deno.Kv, user: User): Promise<OwnedToolkit[]> {
  const ids = await ownedToolkitIds(kv, user.id);
  const records = [...(await getToolkitsByIds(kv, ids)).values()].filter((r) => canReadToolkit(user, r));
  const progress = await completedByToolkit(kv, user.id, records.map((r) => r.id));
  const owned = await Promise.all(records.map(async (record) => {
    const items = (await listContentItems(kv, record.id)).map((i) => i.id);
    const completedCount = (progress.get(record.id) ?? []).filter((id) => items.includes(id)).length;
    return { toolkit: await readToolkit(kv, record.id, user), completedCount };
  }));
  return owned.sort((a, b) => b.toolkit.createdAt.localeCompare(a.toolkit.createdAt));
}

/**
 * A purchase in the history, with its toolkit (null once the toolkit was deleted) and the path of its receipt
 * page (null when it has none: not paid, or free).
 */
export type PurchaseHistoryItem = Purchase & {
  toolkit: { id: string; title: string } | null;
  receiptUrl: string | null;
};

/** `GET /api/purchases`: the user's purchases, newest first. */
export async function purchaseHistory(kv: Deno.Kv, userId: string): Promise<PurchaseHistoryItem[]> {
  const records = await listPurchaseRecords(kv, userId);
  const toolkits = await getToolkitsByIds(kv, [...new Set(records.map((r) => r.toolkitId))]);
  return records.map((record) => {
    const toolkit = toolkits.get(record.toolkitId);
    return {
      ...purchaseView(record),
      toolkit: toolkit ? { id: toolkit.id, title: toolkit.title } : null,
      receiptUrl: record.receipt ? receiptPath(record.id) : null,
    };
  });
}
