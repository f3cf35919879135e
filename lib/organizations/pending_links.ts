/**
 * Listings the `organizations-unlink` job has still to judge, judged by their readers meanwhile (docs/decisions.md,
 * Trust, "Who lists under a verified name"): between the write that verifies an organization and the job's run, a
 * stranger's listing linked to it under its name reads as the job will leave it, unlinked (no badge, not under
 * `verifiedOnly`, not on the organization's page), so the seal is never shown on it, not even for that minute.
 *
 * A listing is in doubt (`inDoubt`) only while its organization is queued and verified (`UnlinkPending`, which the
 * organization directory keeps per version), when it was posted no later than the verification and its link is not
 * marked as its manager's or an admin's (`linkedByManager`); a forgotten owner's only when marked false. Of those, the
 * job unlinks the ones whose owner neither manages the organization nor is an admin now (`strangersAmong`: one batched
 * read, made only while listings are in doubt, so a page without any reads nothing more).
 */
import { isAdmin } from "@/lib/users/roles.ts";
import { getUsers } from "@/lib/users/users.ts";
import { managesEach, type UnlinkPending } from "./store.ts";

/** What the judgement reads of a listing: its organization, creation time (ms), owner (null: forgotten) and mark. */
export interface LinkedListing {
  organizationId: string | null;
  createdMs: number;
  ownerId: string | null;
  /** `linkedByManager`; null or undefined when unmarked. */
  byManager?: boolean | null;
}

/**
 * Whether `listing`'s link waits for the `organizations-unlink` job's judgement of its owner (`pending`, the verified
 * organizations queued): posted no later than the verification and not marked as a manager's or an admin's; a
 * forgotten owner's only when marked false (the job keeps an unmarked one).
 */
export function inDoubt(listing: LinkedListing, pending: UnlinkPending): boolean {
  const verifiedMs = listing.organizationId ? pending.get(listing.organizationId) : undefined;
  if (verifiedMs === undefined || listing.createdMs > verifiedMs) return false;
  return listing.ownerId === null ? listing.byManager === false : listing.byManager !== true;
}

/**
 * Of `listings` in doubt (`inDoubt`), which ones the job will unlink: each whose owner is forgotten, or neither manages
 * its organization nor is an admin now. The managers' keys and the owners' records are read side by side, in reads
 * of ten keys.
 */
export async function strangersAmong(
  kv: Deno.Kv,
  listings: readonly { organizationId: string; ownerId: string | null }[],
): Promise<boolean[]> {
  if (listings.length === 0) return [];
  const owned = listings.flatMap(({ organizationId, ownerId }) => ownerId ? [{ organizationId, userId: ownerId }] : []);
  const [manages, owners] = await Promise.all([managesEach(kv, owned), getUsers(kv, owned.map((o) => o.userId))]);
  let at = 0;
  return listings.map(({ ownerId }) => ownerId === null || !(manages[at++] || isAdmin(owners.get(ownerId))));
}
