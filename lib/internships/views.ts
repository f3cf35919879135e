/**
 * Internship records as read responses carry them (docs/api.md, Internships): with their owner, organization,
 * `isClosed` and `moderation`; and where a record belongs, the read model or the archive (docs/decisions.md, Open and
 * closed listings). Shared by the reads (`internships.ts`) and the writes (`writes.ts`).
 */
import type { OrganizationSummary } from "@/lib/organizations/schema.ts";
import { moderationView } from "@/lib/moderation/moderation.ts";
import { isClosedOn } from "./policy.ts";
import type { InternshipStore } from "./store.ts";
import type { Internship, InternshipOwner, InternshipView } from "./schema.ts";

/**
 * The owner object of a listing: null for a former member, whether forgotten (no owner) or not found (an account being
 * deleted, its user record gone before its listings are forgotten).
 */
function ownerOf(owners: ReadonlyMap<string, InternshipOwner>, userId: string | null): InternshipOwner | null {
  return userId === null ? null : owners.get(userId) ?? null;
}

/** What a view shows beside a record: owner and organization summaries by id. */
interface ViewContext {
  owners: ReadonlyMap<string, InternshipOwner>;
  organizations: ReadonlyMap<string, OrganizationSummary>;
}

/**
 * `record` as read responses carry it, on IST day `today`: with its owner object, its organization (null for a listing
 * the one-time link has not reached yet or one not linked to a verified organization: docs/decisions.md, Trust,
 * "Organizations"), `isClosed` and
 * `moderation`.
 */
function viewOf(record: Internship, { owners, organizations }: ViewContext, today: string): InternshipView {
  const {
    organizationId,
    linkedByManager: _linked,
    moderation: _,
    publishedAt: _published,
    applyMode = "link",
    questions = [],
    closedAt = null,
    revisedAt = null,
    viaApiKey = false,
    ...fields
  } = record;
  return {
    ...fields,
    viaApiKey,
    applyMode,
    revisedAt,
    questions,
    closedAt,
    user: ownerOf(owners, record.userId),
    organization: organizationId ? organizations.get(organizationId) ?? null : null,
    isClosed: closedAt !== null || isClosedOn(record.deadline, today),
    moderation: moderationView(record),
  };
}

/** `records` as read responses carry them on IST day `today` (`viewOf`), reading the owners and organizations. */
export async function viewsOf(store: InternshipStore, records: Internship[], today: string): Promise<InternshipView[]> {
  const [owners, organizations] = await Promise.all([
    store.owners.of(records.flatMap((record) => record.userId ?? [])),
    store.organizations.summariesOf(records.flatMap((record) => record.organizationId ?? [])),
  ]);
  return records.map((record) => viewOf(record, { owners, organizations }, today));
}

/**
 * Whether `record` belongs in the read model on IST day `today`: not deleted, applications not closed by its poster,
 * and its deadline not before today (docs/decisions.md, Open and closed listings, "Where listings live"); otherwise it
 * belongs in the archive.
 */
export function isLive(record: Internship, today: string): boolean {
  return !record.deletedAt && !record.closedAt && !isClosedOn(record.deadline, today);
}
