/**
 * Listings the `organizations-unlink` job has still to judge, judged by their readers meanwhile (docs/decisions.md,
 * Trust, "Who lists under a verified name"): between the write that verifies an organization and the job's run, a
 * stranger's listing linked to it under its name reads as the job will leave it, unlinked (no badge, not under
 * `verifiedOnly`, not on the organization's page), so the seal is never shown on it, not even for that minute.
 *
 * The job's own rule decides (`linkVerdict`). A listing is in doubt (`inDoubt`) only while its organization is queued
 * and verified (`UnlinkPending`, which the organization directory keeps per version) and the rule unlinks it unless
 * its owner manages the organization or is an admin now; `strangersAmong` reads that of the listings in doubt (one
 * batched read, made only while listings are in doubt, so a page without any reads nothing more).
 */
import type { Internship } from "@/lib/internships/schema.ts";
import { isAdmin } from "@/lib/users/roles.ts";
import { getUsers } from "@/lib/users/users.ts";
import { linkVerdict } from "./link_verdict.ts";
import { managesEach, type UnlinkPending } from "./store.ts";

/** What the judgement reads of a listing: its organization, creation time, owner (null: forgotten) and mark. */
export type LinkedListing = Pick<Internship, "organizationId" | "createdAt" | "userId" | "linkedByManager">;

/**
 * Whether `listing`'s link waits for the `organizations-unlink` job's judgement of its owner (`pending`, the verified
 * organizations queued): the job's rule (`linkVerdict`) unlinks it unless its owner manages the organization or is an
 * admin now.
 */
export function inDoubt(listing: LinkedListing, pending: UnlinkPending): boolean {
  const verifiedAt = listing.organizationId ? pending.get(listing.organizationId) : undefined;
  return verifiedAt !== undefined && linkVerdict(listing, { verifiedAt, ownerManages: false }) === "unlink";
}

/**
 * Of `listings` in doubt (`inDoubt`), which ones the job will unlink: each whose owner is forgotten, or neither manages
 * its organization nor is an admin now. Each organization and owner is judged once, however many listings they share:
 * the managers' keys and the owners' records are read side by side, in reads of ten keys.
 */
export async function strangersAmong(
  kv: Deno.Kv,
  listings: readonly { organizationId: string; ownerId: string | null }[],
): Promise<boolean[]> {
  const keyOf = (organizationId: string, userId: string) => `${organizationId}\0${userId}`;
  const pairs = new Map<string, { organizationId: string; userId: string }>();
  for (const { organizationId, ownerId } of listings) {
    if (ownerId !== null) pairs.set(keyOf(organizationId, ownerId), { organizationId, userId: ownerId });
  }
  const known = new Map<string, boolean>();
  if (pairs.size > 0) {
    const judged = [...pairs.values()];
    const [manages, owners] = await Promise.all([
      managesEach(kv, judged),
      getUsers(kv, judged.map((pair) => pair.userId)),
    ]);
    judged.forEach(({ organizationId, userId }, i) =>
      known.set(keyOf(organizationId, userId), manages[i] || isAdmin(owners.get(userId)))
    );
  }
  return listings.map(({ organizationId, ownerId }) => ownerId === null || !known.get(keyOf(organizationId, ownerId)));
}
