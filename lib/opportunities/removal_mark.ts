/**
 * Whether moderation removed an opportunity, as a report's write checks it (docs/decisions.md, Trust, "Reports of what
 * is removed"), as an internship's intake entry does for it (`lib/internships/intake.ts`): every write of an opportunity
 * that rejects it in moderation, or takes that reject back, sets its mark in the same commit (`removalMarkOps`). A
 * report reads the mark with the opportunity and checks it in its own commit, so a reject that lands between the
 * report's read and its write makes that write fail; read again from KV, not from the read model (which may lag), the
 * mark then refuses the report. An opportunity never rejected has none.
 *
 * Keys: `["opportunity_removed", opportunityId]` → `true` while moderation rejects it, `false` once that was taken back.
 */
import { moderationOf } from "@/lib/moderation/moderation.ts";
import type { Opportunity } from "./schema.ts";

/** The key of opportunity `opportunityId`'s removal mark. */
export const removalMarkKey = (opportunityId: string): Deno.KvKey => ["opportunity_removed", opportunityId];

/** Adds to `op` (the write of `next`, which was `previous`) its removal mark, when the write rejects or un-rejects it. */
export function removalMarkOps(op: Deno.AtomicOperation, previous: Opportunity, next: Opportunity): void {
  const removed = moderationOf(next).status === "rejected";
  if (removed !== (moderationOf(previous).status === "rejected")) op.set(removalMarkKey(next.id), removed);
}
