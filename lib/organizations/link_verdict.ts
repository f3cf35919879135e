/**
 * What the `organizations-unlink` job makes of a listing linked to a verified organization (docs/decisions.md, Trust,
 * "Who lists under a verified name"), as one rule that the job applies and that the applications' reads follow before
 * the job has run (`isPosterOf`: docs/decisions.md, Applications, "The poster"), so a listing is never its managers'
 * to read before the job and a stranger's after it, nor the other way round.
 */
import type { Internship } from "@/lib/internships/schema.ts";

/** What the job does with a listing: leaves it, marks it its manager's (`linkedByManager`), or unlinks it. */
export type LinkVerdict = "keep" | "mark" | "unlink";

/**
 * Whether `record` was posted after its organization was verified at `verifiedAt` (ISO; null: not verified): the live
 * path judged its owner then, so the job passes over it.
 */
export function postedSinceVerified(record: Pick<Internship, "createdAt">, verifiedAt: string | null): boolean {
  return verifiedAt !== null && Date.parse(record.createdAt) > Date.parse(verifiedAt);
}

/**
 * What becomes of `record`, linked to an organization verified at `verifiedAt`, whose owner `ownerManages` it or is an
 * admin now (ignored for a forgotten owner): kept when posted after `verifiedAt`, or when its owner manages it or is
 * an admin now (marked so when it was not), or did when it was linked (`linkedByManager`); a forgotten owner's is kept
 * unless its mark says they were neither when it was linked and no run found them so since; anyone else's is unlinked.
 */
export function linkVerdict(
  record: Pick<Internship, "createdAt" | "userId" | "linkedByManager">,
  { verifiedAt, ownerManages }: { verifiedAt: string | null; ownerManages: boolean },
): LinkVerdict {
  if (postedSinceVerified(record, verifiedAt)) return "keep";
  if (record.userId === null) return record.linkedByManager === false ? "unlink" : "keep";
  if (ownerManages) return record.linkedByManager ? "keep" : "mark";
  return record.linkedByManager ? "keep" : "unlink";
}
