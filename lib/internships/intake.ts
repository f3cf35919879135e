/**
 * Whether a listing takes an application, as an application's write checks it (docs/decisions.md, Applications,
 * "Applying"): every write of a listing (`updateAnywhere` in `writes.ts`: an edit, a close, a deletion, a moderation
 * decision, an owner forgotten; the batched close of unanswered listings, `closeEach`; the `organizations-link`
 * migration's chunk writes) sets its intake entry, in the same
 * commit, to the fields an application is judged by (`intakeOf`). An application reads the entry with what else it
 * checks and checks it in its own commit, so a close or a deletion that lands between the application's read of the
 * listing and its write makes that write fail; the listing it judged by is the read model's copy only while that copy
 * has the entry's fields, and otherwise the record read from KV itself. A listing not written since the entries were
 * kept has none: its read-model copy is as written then. A report's write checks the entry the same way, so a listing
 * deleted or rejected meanwhile is not reported (`removedPerIntake`; docs/decisions.md, Trust, "Reports of what is
 * removed").
 *
 * Keys: `["internship_intake", internshipId]` → `string` (`intakeOf`).
 */
import { moderationOf } from "@/lib/moderation/moderation.ts";
import type { Internship } from "./schema.ts";

/** The key of internship `internshipId`'s intake entry. */
export const intakeKey = (internshipId: string): Deno.KvKey => ["internship_intake", internshipId];

/**
 * What of `record` decides whether it takes an application, as one string: when it was last changed, its deletion, its
 * close, whether it is active, its moderation state, its apply mode and its deadline.
 */
export function intakeOf(record: Internship): string {
  return JSON.stringify([
    record.updatedAt,
    record.deletedAt ?? null,
    record.closedAt ?? null,
    record.isActive,
    moderationOf(record).status,
    record.applyMode ?? "link",
    record.deadline ?? null,
  ]);
}

/** Whether the intake entry `intake` (null: none kept) is of a deleted or rejected listing: gone, for a report. */
export function removedPerIntake(intake: string | null): boolean {
  if (intake === null) return false;
  const [, deletedAt, , , status] = JSON.parse(intake);
  return deletedAt !== null || status === "rejected";
}

/** Adds to `op` (the write of `next`) its intake entry. */
export function intakeOps(op: Deno.AtomicOperation, next: Internship): void {
  op.set(intakeKey(next.id), intakeOf(next));
}
