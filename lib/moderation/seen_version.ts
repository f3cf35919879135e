/**
 * The version of a listing an admin decides on (docs/decisions.md, Trust, "Decide what you read"): a
 * review or moderation decision may name the `updatedAt` the admin read, and is refused when the listing changed
 * since. Kept apart from `moderation.ts`, which islands import, so no island bundle holds zod.
 */
import { z } from "zod";
import { ConflictError } from "@/lib/errors.ts";
import { REFUSALS } from "@/lib/refusals.ts";

/**
 * The `updatedAt` of the listing as the admin read it, sent with a review or moderation decision (docs/decisions.md,
 * Trust, "Decide what you read"); optional, so a client that sends none decides on the current text.
 */
export const SeenUpdatedAtSchema = z.iso.datetime().optional().describe(
  "The listing's updatedAt as the admin read it: 409 when it changed since. Optional; without it the decision " +
    "applies to the current text",
);

/**
 * Refuses a decision on `current` when the admin read another version of it (`seen`, its `updatedAt` then; none
 * accepts any).
 * @throws ConflictError (`REFUSALS.listingChanged`) when `seen` is given and differs from `current.updatedAt`.
 */
export function assertUnchangedSince(current: { updatedAt: string }, seen: string | undefined): void {
  if (seen !== undefined && seen !== current.updatedAt) throw new ConflictError(REFUSALS.listingChanged);
}

/**
 * The `updatedAt` (ISO) a decision taken at `now` (ISO) gives a listing stored with `current`: `now`, or 1 ms after
 * `current` when `now` is not later, so the decision is always a version an earlier page's `updatedAt` differs from.
 */
export function decidedVersion(current: string, now: string): string {
  return now > current ? now : new Date(Date.parse(current) + 1).toISOString();
}
