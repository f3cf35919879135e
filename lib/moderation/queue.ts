/**
 * The admin moderation queue's index (docs/decisions.md, Trust, "Moderation"; docs/api.md, Trust): one key per listing
 * that is held or rejected and not deleted, written by the listing's own atomic write (`moderationQueueOps`), so the
 * queue never disagrees with the listings. Held ones come first, the longest waiting on top; rejected ones after, the
 * latest first.
 *
 * Keys (owned by this module only): `["moderation_queue", kind, status, heldAt, id]` → true.
 */
import { type Moderation, moderationOf } from "./moderation.ts";

/** The kinds of listing moderation covers, as the API names them. */
export const MODERATION_KINDS = ["internships", "opportunities"] as const;
export type ModerationKind = typeof MODERATION_KINDS[number];

/** What the queue reads of a listing. */
export interface QueuedListing {
  id: string;
  moderation?: Moderation | null;
  deletedAt?: string | null;
}

/** One entry of the queue. */
export interface QueueEntry {
  kind: ModerationKind;
  id: string;
  status: "held" | "rejected";
  /** When the listing was held (ISO), or null for one rejected without being held. */
  heldAt: string | null;
}

/** The queue key of `listing`, or null when it is not in the queue (clear, or deleted). */
function keyOf(kind: ModerationKind, listing: QueuedListing): Deno.KvKey | null {
  const { status, heldAt } = moderationOf(listing);
  if (status === "clear" || listing.deletedAt) return null;
  return ["moderation_queue", kind, status, heldAt ?? "", listing.id];
}

/**
 * Adds to `op` (the listing's own write) the queue change from `previous` (null for a new listing) to `next`: at most
 * one delete and one set.
 */
export function moderationQueueOps(
  op: Deno.AtomicOperation,
  kind: ModerationKind,
  previous: QueuedListing | null,
  next: QueuedListing,
): void {
  const before = previous && keyOf(kind, previous);
  const after = keyOf(kind, next);
  if (before && after && before.join("\0") === after.join("\0")) return;
  if (before) op.delete(before);
  if (after) op.set(after, true);
}

/** The entries of `kind` in `status`, in key order (held: oldest first) or reversed (rejected: newest first). */
async function entriesOf(kv: Deno.Kv, kind: ModerationKind, status: QueueEntry["status"]): Promise<QueueEntry[]> {
  const entries: QueueEntry[] = [];
  const iter = kv.list({ prefix: ["moderation_queue", kind, status] }, { reverse: status === "rejected" });
  for await (const { key } of iter) {
    entries.push({ kind, id: key[4] as string, status, heldAt: (key[3] as string) || null });
  }
  return entries;
}

/** How the queue is asked for: kinds (both when absent), states (both when absent), and the page. */
export interface QueueQuery {
  kind?: ModerationKind;
  status?: QueueEntry["status"];
  limit: number;
  offset: number;
}

/** A page of queue entries, how many match in all, and how many are held and rejected of the kinds asked for. */
export interface QueuePage {
  entries: QueueEntry[];
  total: number;
  counts: { held: number; rejected: number };
}

/**
 * One page of the queue: held listings first (oldest held first, the kinds merged by that time), then rejected ones
 * (latest held first).
 */
export async function moderationQueuePage(kv: Deno.Kv, query: QueueQuery): Promise<QueuePage> {
  const kinds = query.kind ? [query.kind] : MODERATION_KINDS;
  const byStatus = async (status: QueueEntry["status"]) =>
    (await Promise.all(kinds.map((kind) => entriesOf(kv, kind, status)))).flat()
      .sort((a, b) => (a.heldAt ?? "").localeCompare(b.heldAt ?? "") * (status === "held" ? 1 : -1));
  const [held, rejected] = await Promise.all([byStatus("held"), byStatus("rejected")]);
  const all = query.status === "held" ? held : query.status === "rejected" ? rejected : [...held, ...rejected];
  return {
    entries: all.slice(query.offset, query.offset + query.limit),
    total: all.length,
    counts: { held: held.length, rejected: rejected.length },
  };
}
