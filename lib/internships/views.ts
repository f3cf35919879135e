/**
 * Internship records as read responses carry them (docs/api.md, Internships): with their owner, organization,
 * `isClosed` and `moderation`; and where a record belongs, the read model or the archive (docs/decisions.md, Open and
 * closed listings). Shared by the reads (`internships.ts`) and the writes (`writes.ts`).
 */
import type { OrganizationSummary } from "@/lib/organizations/schema.ts";
import { moderationView } from "@/lib/moderation/moderation.ts";
import { inDoubt, strangersAmong } from "@/lib/organizations/pending_links.ts";
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

/**
 * What a view shows beside a record: owner and organization summaries by id, and the ids of the records the
 * `organizations-unlink` job will unlink (`strangersOf`).
 */
interface ViewContext {
  owners: ReadonlyMap<string, InternshipOwner>;
  organizations: ReadonlyMap<string, OrganizationSummary>;
  strangers: ReadonlySet<string>;
}

/**
 * `record` as read responses carry it, on IST day `today`: with its owner object, its organization (null for a listing
 * the one-time link has not reached yet or one not linked to a verified organization, and for one the
 * `organizations-unlink` job will unlink: docs/decisions.md, Trust, "Who lists under a verified name"), `isClosed`
 * and `moderation`.
 */
function viewOf(record: Internship, { owners, organizations, strangers }: ViewContext, today: string): InternshipView {
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
    organization: organizationId && !strangers.has(record.id) ? organizations.get(organizationId) ?? null : null,
    isClosed: closedAt !== null || isClosedOn(record.deadline, today),
    moderation: moderationView(record),
  };
}

/**
 * The ids of those of `records` that the `organizations-unlink` job will unlink (docs/decisions.md, Trust, "Who lists
 * under a verified name"): nothing is read unless one of them is linked to a verified organization still queued for it.
 */
async function strangersOf(store: InternshipStore, records: readonly Internship[]): Promise<Set<string>> {
  const pending = await store.organizations.unlinkPending();
  if (pending.size === 0) return new Set();
  const doubted = records.filter((record) => inDoubt(record, pending));
  const strangers = await strangersAmong(
    store.kv,
    doubted.map((record) => ({ organizationId: record.organizationId!, ownerId: record.userId })),
  );
  return new Set(doubted.flatMap((record, i) => strangers[i] ? [record.id] : []));
}

/**
 * `records` as read responses carry them on IST day `today` (`viewOf`), reading the owners, organizations and, while
 * the unlink job has some of them still to judge, whether it will unlink them (`strangersOf`).
 */
export async function viewsOf(store: InternshipStore, records: Internship[], today: string): Promise<InternshipView[]> {
  const [owners, organizations, strangers] = await Promise.all([
    store.owners.of(records.flatMap((record) => record.userId ?? [])),
    store.organizations.summariesOf(records.flatMap((record) => record.organizationId ?? [])),
    strangersOf(store, records),
  ]);
  return records.map((record) => viewOf(record, { owners, organizations, strangers }, today));
}

/**
 * Whether `record` belongs in the read model on IST day `today`: not deleted, applications not closed by its poster,
 * and its deadline not before today (docs/decisions.md, Open and closed listings, "Where listings live"); otherwise it
 * belongs in the archive.
 */
export function isLive(record: Internship, today: string): boolean {
  return !record.deletedAt && !record.closedAt && !isClosedOn(record.deadline, today);
}
