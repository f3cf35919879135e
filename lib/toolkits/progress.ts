/**
 * Learning progress (`POST /api/toolkits/{id}/progress`, `completedItemIds`; docs/decisions.md, Toolkits and
 * payments): the lessons a buyer has marked complete in a toolkit.
 *
 * Keys (owned by this module only):
 * - `["toolkit_progress", toolkitId, userId]` → `{completedItemIds, updatedAt}`
 */
import { deleteListed } from "@/lib/kv/packed_writes.ts";
import { RETRY_BUDGET_MS, retrying } from "@/lib/kv/retry.ts";
import { getManyChunked } from "@/lib/kv/get_many.ts";

interface ProgressRecord {
  completedItemIds: string[];
  updatedAt: string;
}

const progressKey = (toolkitId: string, userId: string) => ["toolkit_progress", toolkitId, userId];

/** Whose progress in which toolkit; `itemIds` are the toolkit's lessons that still exist. */
export interface ProgressRef {
  toolkitId: string;
  userId: string;
  itemIds?: string[];
}

/** The ids of the lessons `userId` completed in `toolkitId`, limited to `itemIds` when given. */
export async function completedItemIds(kv: Deno.Kv, { toolkitId, userId, itemIds }: ProgressRef): Promise<string[]> {
  const completed = (await kv.get<ProgressRecord>(progressKey(toolkitId, userId))).value?.completedItemIds ?? [];
  return itemIds ? completed.filter((id) => itemIds.includes(id)) : completed;
}

/** For each toolkit of `toolkitIds`, the lessons `userId` completed there. */
export async function completedByToolkit(
  kv: Deno.Kv,
  userId: string,
  toolkitIds: string[],
): Promise<Map<string, string[]>> {
  const entries = await getManyChunked<ProgressRecord>(kv, toolkitIds.map((id) => progressKey(id, userId)));
  return new Map(toolkitIds.map((id, i) => [id, entries[i].value?.completedItemIds ?? []]));
}

/**
 * Marks lesson `itemId` complete (or not) for `userId`; lessons no longer in `itemIds` are
 * dropped. Returns the completed lesson ids. The caller checks ownership and that the lesson
 * belongs to the toolkit (`policy.ts`); `extend` adds its own writes to the same atomic operation,
 * given the completed ids it will record (the certificate of the last lesson). A lost race reads again and tries again.
 * @throws BusyError after 30 s of races lost to other writers (`lib/kv/retry.ts`; nothing is written).
 */
export async function setLessonCompleted(
  kv: Deno.Kv,
  { toolkitId, userId, itemId, completed, itemIds, extend }: Required<ProgressRef> & {
    itemId: string;
    completed: boolean;
    extend?: (op: Deno.AtomicOperation, completedIds: string[]) => Promise<void>;
  },
): Promise<string[]> {
  let recorded: string[] = [];
  await retrying(
    async () => {
      const entry = await kv.get<ProgressRecord>(progressKey(toolkitId, userId));
      const current = new Set((entry.value?.completedItemIds ?? []).filter((id) => itemIds.includes(id)));
      if (completed) current.add(itemId);
      else current.delete(itemId);
      const ids = itemIds.filter((id) => current.has(id));
      const op = kv.atomic()
        .check(entry)
        .set(entry.key, { completedItemIds: ids, updatedAt: new Date().toISOString() });
      await extend?.(op, ids);
      if (!(await op.commit()).ok) return false;
      recorded = ids;
      return true;
    },
    RETRY_BUDGET_MS,
  );
  return recorded;
}

/** Deletes the progress of learner `userId` in every toolkit of `toolkitIds` (account deletion). */
export async function deleteLearnerProgress(kv: Deno.Kv, userId: string, toolkitIds: string[]): Promise<void> {
  for (let i = 0; i < toolkitIds.length; i += 500) {
    const op = kv.atomic();
    for (const toolkitId of toolkitIds.slice(i, i + 500)) op.delete(progressKey(toolkitId, userId));
    await op.commit();
  }
}

/** Deletes every learner's progress in a toolkit (the toolkit is being deleted). */
export async function deleteProgressOf(kv: Deno.Kv, toolkitId: string): Promise<void> {
  await deleteListed(kv, ["toolkit_progress", toolkitId]);
}
