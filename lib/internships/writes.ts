/**
 * The internships' writes (docs/api.md, Internships; docs/decisions.md, Internships): create (one or a batch),
 * update, soft delete, moderate, hold after reports, forget a deleted account's ownership, and close the listings whose
 * deadline passed. Each goes through atomic commits that move a listing between the read model and the archive when it
 * closes, is deleted or opens again (docs/decisions.md, Open and closed listings); races lost to other processes are
 * retried for up to 30 s (then BusyError).
 */
import type { AuditHook } from "@/lib/admin_log/admin_log.ts";
import { istToday } from "@/lib/dates.ts";
import { ConflictError, ForbiddenError, InvalidInputError, NotFoundError } from "@/lib/errors.ts";
import { updateEither } from "@/lib/kv/chunked/archive.ts";
import { type OnLostRace, RaceLost, RETRY_BUDGET_MS, retrying } from "@/lib/kv/retry.ts";
import type { Remover } from "@/lib/reports/schema.ts";
import { removingListing } from "@/lib/reports/removals.ts";
import { getUser, type User, userKey } from "@/lib/users/users.ts";
import { getManyChunked } from "@/lib/kv/get_many.ts";
import { isAdmin } from "@/lib/users/roles.ts";
import {
  heldByReports,
  isWithheld,
  moderationDecided,
  type ModerationDecision,
  moderationOf,
  moderationOnCreate,
  moderationOnDismissal,
  moderationOnReports,
  moderationOnUpdate,
  textsChanged,
} from "@/lib/moderation/moderation.ts";
import { moderationQueueOps } from "@/lib/moderation/queue.ts";
import { addNotification } from "@/lib/notifications/notifications.ts";
import { moderatedNotification } from "@/lib/moderation/notices.ts";
import {
  getOrganization,
  managedBy,
  managersOf,
  organizationCounts,
  type OrganizationLink,
  organizationsForPoster,
} from "@/lib/organizations/store.ts";
import { countOps } from "@/lib/stats/counters.ts";
import { linkVerdict } from "@/lib/organizations/link_verdict.ts";
import type { Organization } from "@/lib/organizations/schema.ts";
import { canManage, canModerate, canPost } from "./policy.ts";
import { dayNumber, DELETED } from "./columns.ts";
import { type InternshipStore, internshipStore } from "./store.ts";
import { applyFieldsAfter, questionsWithIds } from "./questions.ts";
import { isLive, viewsOf } from "./views.ts";
import { termsChangeOps, termsDiffer } from "./terms.ts";
import { endedOps } from "./ended.ts";
import { intakeOps } from "./intake.ts";
import { internshipsOwnedBy, NOT_FOUND } from "./internships.ts";
import type { Internship, InternshipCreate, InternshipUpdate, InternshipView } from "./schema.ts";
import { REFUSALS } from "@/lib/refusals.ts";
import { assertUnchangedSince, decidedVersion } from "@/lib/moderation/seen_version.ts";

/**
 * Creates internships owned by `owner`, all in one atomic write (all or nothing): unverified,
 * active, with fresh ids and timestamps; one whose texts (any a student reads) ask applicants to pay is held for review
 * (docs/decisions.md, Trust, "The never-pay rule") and enters the moderation queue in the same write. Each is linked
 * to the organization it names, a verified one only when `owner` manages it or is an admin (docs/decisions.md, Trust,
 * "Who lists under a verified name").
 * @throws BusyError after 30 s of races lost to other processes (nothing is created).
 */
export async function createInternships(
  kv: Deno.Kv,
  owner: User,
  items: InternshipCreate[],
): Promise<InternshipView[]> {
  return await insertInternships(kv, { owner, items, viaApiKey: false });
}

/**
 * `createInternships` for a listing posted with an API key: marked `viaApiKey`, so that students read it as imported,
 * not as written by its admin owner (docs/decisions.md, Auth, "Ingest user").
 * @throws BusyError after 30 s of races lost to other processes (nothing is created).
 */
export async function importInternships(
  kv: Deno.Kv,
  owner: User,
  items: InternshipCreate[],
): Promise<InternshipView[]> {
  return await insertInternships(kv, { owner, items, viaApiKey: true });
}

/** `createInternships`, its records marked `viaApiKey` when asked. */
async function insertInternships(
  kv: Deno.Kv,
  { owner, items, viaApiKey }: { owner: User; items: InternshipCreate[]; viaApiKey: boolean },
): Promise<InternshipView[]> {
  const now = new Date().toISOString();
  const organizations = await organizationsForPoster(kv, {
    names: items.map((item) => item.hiringOrganization),
    poster: { userId: owner.id, trusted: canModerate(owner) },
  });
  const records: Internship[] = items.map((item) =>
    withOrganization({
      id: crypto.randomUUID(),
      title: item.title,
      description: item.description ?? null,
      type: item.type ?? null,
      timing: item.timing ?? null,
      link: item.link ?? null,
      hiringOrganization: item.hiringOrganization,
      hiringManager: item.hiringManager ?? null,
      tags: item.tags ?? [],
      stipend: item.stipend ?? null,
      duration: item.duration ?? null,
      experience: item.experience ?? null,
      location: item.location ?? null,
      deadline: item.deadline ?? null,
      isVerified: false,
      isActive: true,
      userId: owner.id,
      createdAt: now,
      updatedAt: now,
      deletedAt: null,
      applyMode: item.applyMode ?? "link",
      questions: questionsWithIds(item.questions ?? []),
      ...(viaApiKey ? { viaApiKey: true as const } : {}),
    }, organizations.get(item.hiringOrganization)!)
  ).map((record) => withPublication(null, { ...record, moderation: moderationOnCreate(record, now) }, now));
  const store = await internshipStore(kv);
  const today = istToday();
  const also = (op: Deno.AtomicOperation) => {
    for (const record of records) moderationQueueOps(op, "internships", null, record);
    countOps(op, [], records.flatMap(organizationCounts));
  };
  // An item already closed (a past deadline) goes to the archive, in the same all-or-nothing write.
  const open = records.filter((record) => isLive(record, today));
  const closed = records.filter((record) => !isLive(record, today));
  const rider = closed.length > 0 ? store.archive.rider({ put: closed }) : undefined;
  if (open.length > 0) await store.writer.insert(open, { also, rider });
  else await store.archive.write({ put: closed }, also);
  store.owners.remember(owner);
  return await viewsOf(store, records, today);
}

/**
 * Replaces the record `id` with `change(record)` as `actor` (owner or admin), in one atomic write, wherever it is,
 * that also moves the record in the moderation queue: one that closes or is deleted leaves the read model for the
 * archive in that write, an archived one that opens again comes back (docs/decisions.md, Open and closed listings,
 * "Coming back"); `change` runs again on the latest record after a lost race, unless `onLostRace` is "give-up".
 * `also` adds the caller's own mutations to that write.
 * @throws NotFoundError for an unknown or deleted id; ForbiddenError for anyone but the owner or
 * an admin; what `change` throws; BusyError after 30 s of lost races (nothing is changed); RaceLost for a lost race
 * with `onLostRace` "give-up" (nothing is changed).
 */
async function writeInternship(
  kv: Deno.Kv,
  { id, actor, change, also, audit, onLostRace }: {
    id: string;
    actor: User;
    change: (record: Internship) => Internship | Promise<Internship>;
    also?: (op: Deno.AtomicOperation, next: Internship, previous: Internship) => void;
    audit?: AuditHook;
    onLostRace?: OnLostRace;
  },
): Promise<{ store: InternshipStore; record: Internship }> {
  const store = await internshipStore(kv);
  const guarded = (record: Internship) => {
    if (record.deletedAt) throw new NotFoundError(NOT_FOUND);
    if (!canManage(actor, record)) throw new ForbiddenError();
    return change(record);
  };
  const record = await updateAnywhere(kv, store, {
    id,
    change: guarded,
    also: (op, next, previous) => {
      moderationQueueOps(op, "internships", previous, next);
      countOps(op, organizationCounts(previous), organizationCounts(next));
      endedOps(op, previous, next);
      also?.(op, next, previous);
      audit?.(op, id);
    },
    onLostRace,
  });
  if (!record) throw new NotFoundError(NOT_FOUND);
  return { store, record };
}

/** Whether `record` is in the public list: active, not deleted, not withheld by moderation. */
function isPublic(record: Internship): boolean {
  return record.isActive && !record.deletedAt && !isWithheld(record);
}

/**
 * `next` (the record that was `before`, null when new) with `publishedAt` and `updatedAt` set to `now` when it becomes
 * public with this write (docs/decisions.md, Alerts, "Published, not created"); else `next` as it is.
 */
function withPublication(before: Internship | null, next: Internship, now: string): Internship {
  if (!isPublic(next) || (before !== null && isPublic(before))) return next;
  return { ...next, publishedAt: now, updatedAt: now };
}

/**
 * Replaces the record `id` with `change(record)` (with `also`'s mutations) in one atomic write, in the read model or
 * the archive, moving it between them when it closes, is deleted or opens again (`updateEither`); one that becomes
 * public with it is stamped so (`withPublication`); its intake entry, which an application's write checks, is set in
 * the same write (`intakeOps`); a lost race is tried again unless `onLostRace` is "give-up".
 * @returns the stored record, or null for an unknown id.
 * @throws RaceLost for a lost race with `onLostRace` "give-up"; as `updateEither`.
 */
async function updateAnywhere(
  kv: Deno.Kv,
  store: InternshipStore,
  { id, change, also, onLostRace }: {
    id: string;
    change: (record: Internship) => Internship | Promise<Internship>;
    also: (op: Deno.AtomicOperation, next: Internship, previous: Internship) => void;
    onLostRace?: OnLostRace;
  },
): Promise<Internship | null> {
  const today = istToday();
  return await updateEither(kv, store, {
    id,
    change: async (record) => withPublication(record, await change(record), new Date().toISOString()),
    also: (op, next, previous) => {
      intakeOps(op, next);
      also(op, next, previous);
    },
    isLive: (record) => isLive(record, today),
    onLostRace,
  });
}

/**
 * Applies `patch` (only the fields given) as owner or admin, and sets `updatedAt`; `closed` closes applications now
 * (kept when already closed) or reopens them, moving the listing to the archive or back in the same commit. A change of
 * any text a student reads that adds a never-pay phrase holds the listing (`moderationOnUpdate`); a new
 * `hiringOrganization` (or any change of a listing not linked yet) links it to its organization, made when new; a
 * verified one only when the listing's owner (whoever edits it) manages it or is an admin, else the listing is left
 * unlinked (docs/decisions.md, Trust, "Who lists under a verified name"). An edit by anyone but an admin that changes
 * what students read (`readsDifferently`) takes an admin's "Checked" off (`isVerified` false) in the same write
 * (docs/decisions.md, Trust, "Trust filters"); an admin's edit keeps it. Such an edit, or one of the deadline,
 * questions or apply mode, stamps `revisedAt`; one that makes the terms worse for applicants, or changes the title,
 * organization, location or work type they applied to, records it for the `listing-changes` job in the same write
 * (`termsChangeOps`; docs/decisions.md, Applications, "Terms changed after applying").
 * @throws NotFoundError for an unknown or deleted id; ForbiddenError for anyone but the owner
 * or an admin, and for a non-admin setting `isVerified` or `isActive` (nothing is changed); ConflictError
 * (`heldByReports`) for a non-admin's change of what students read while students' reports hold it;
 * InvalidInputError `APPLY_LINK_NEEDED` or `QUESTIONS_NEED_PLATFORM` for apply fields that do not fit the apply mode
 * (`applyFieldsAfter`); BusyError after 30 s of races lost to other processes (nothing is changed).
 */
export async function updateInternship(
  kv: Deno.Kv,
  { id, actor, patch, audit }: { id: string; actor: User; patch: InternshipUpdate; audit?: AuditHook },
): Promise<InternshipView> {
  const { closed, ...fields } = patch;
  const changes: Partial<Internship> = Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined));
  const stored = await storedInternship(kv, id);
  const name = patch.hiringOrganization ?? (stored?.organizationId ? undefined : stored?.hiringOrganization);
  const link = name === undefined || !stored ? undefined : (await organizationsForPoster(kv, {
    names: [name],
    poster: await ownerAsPoster(kv, stored.userId, actor),
  })).get(name);
  const { store, record } = await writeInternship(kv, {
    id,
    actor,
    audit,
    change: (record) => {
      if (!canModerate(actor) && ("isVerified" in changes || "isActive" in changes)) {
        throw new ForbiddenError(REFUSALS.adminOnlyFlags);
      }
      const now = new Date().toISOString();
      let next: Internship = { ...record, ...changes, ...applyFieldsAfter(record, patch), updatedAt: now };
      if (closed !== undefined) next = withClosedAt(next, closed ? record.closedAt ?? now : null);
      if (link !== undefined && next.hiringOrganization === name) next = withOrganization(next, link);
      // What students reported stays what the admin judges (docs/decisions.md, Trust, "A reported listing keeps its text").
      if (!canModerate(actor) && heldByReports(moderationOf(record)) && readsDifferently(record, next)) {
        throw new ConflictError(REFUSALS.heldByReports);
      }
      if (next.isVerified && !canModerate(actor) && readsDifferently(record, next)) {
        next = { ...next, isVerified: false };
      }
      if (readsDifferently(record, next) || termsDiffer(record, next)) next = { ...next, revisedAt: now };
      const moderation = moderationOnUpdate(moderationOf(record), { before: record, after: next }, now);
      return moderation === moderationOf(record) ? next : { ...next, moderation };
    },
    also: (op, next, previous) => termsChangeOps(op, previous, next),
  });
  const [view] = await viewsOf(store, [record], istToday());
  return view;
}

/**
 * Unlinks internship `id` from organization `organizationId`, a listing of someone else than its managers and admins
 * when the organization is verified (docs/decisions.md, Trust, "Who lists under a verified name"), as
 * `organizationsForPoster` would have posted it: `organization: null`, the name kept as posted, in one write (live or
 * archived) with the organization's listing count and `also`'s mutations (and checks). Nothing is written when the
 * listing is not (or no longer) linked to it. A lost race is tried again, or with `onLostRace` "give-up" ends the call
 * (for a caller whose checks must be read again first).
 * @returns whether it was unlinked. @throws BusyError after 30 s of races lost to other processes; RaceLost for a lost
 *   race with `onLostRace` "give-up" (nothing written).
 */
export async function unlinkInternship(
  kv: Deno.Kv,
  { id, organizationId, also, onLostRace }: {
    id: string;
    organizationId: string;
    also?: (op: Deno.AtomicOperation) => void;
    onLostRace?: OnLostRace;
  },
): Promise<boolean> {
  let unlinked = false;
  await updateAnywhere(kv, await internshipStore(kv), {
    id,
    onLostRace,
    change: (record) => {
      unlinked = record.organizationId === organizationId;
      return unlinked ? withOrganization(record, null) : record;
    },
    also: (op, next, previous) => {
      countOps(op, organizationCounts(previous), organizationCounts(next));
      also?.(op);
    },
  });
  return unlinked;
}

/**
 * Marks internship `id`, linked to organization `organizationId`, as its manager's or an admin's (`linkedByManager`):
 * the `organizations-unlink` job found its owner so when it judged it (docs/decisions.md, Trust, "Who lists under a
 * verified name"). One write, live or archived; nothing when it is no longer linked to it or is marked already.
 * @returns whether it was marked. @throws BusyError after 30 s of races lost to other processes.
 */
export async function markLinkedByManager(
  kv: Deno.Kv,
  { id, organizationId }: { id: string; organizationId: string },
): Promise<boolean> {
  let marked = false;
  await updateAnywhere(kv, await internshipStore(kv), {
    id,
    change: (record) => {
      marked = record.organizationId === organizationId && record.linkedByManager !== true;
      return marked ? { ...record, linkedByManager: true } : record;
    },
    also: () => {},
  });
  return marked;
}

/**
 * Whether `after` reads differently from `before` to the never-pay rule or a student: any of its texts
 * (`listingTexts`: title, description, location, organization and the rest), its apply link or its stipend.
 */
function readsDifferently(before: Internship, after: Internship): boolean {
  return textsChanged(before, after) || (before.link ?? null) !== (after.link ?? null) ||
    (before.stipend ?? null) !== (after.stipend ?? null);
}

/** `record` with applications closed at `closedAt`, or open (until its deadline) for null. */
function withClosedAt(record: Internship, closedAt: string | null): Internship {
  const { closedAt: _, ...rest } = record;
  return closedAt === null ? rest : { ...rest, closedAt };
}

/**
 * `record` linked to organization `link.id`, marked with whether its owner managed it or was an admin then
 * (`linkedByManager`), or not linked to any for null (docs/decisions.md, Trust, "Who lists under a verified name").
 */
function withOrganization(record: Internship, link: OrganizationLink | null): Internship {
  const { organizationId: _, linkedByManager: _mark, ...rest } = record;
  return link === null ? rest : { ...rest, organizationId: link.id, linkedByManager: link.byManager };
}

/** Internship `id` as stored (live or archived), deleted ones included; undefined for an unknown id. */
async function storedInternship(kv: Deno.Kv, id: string): Promise<Internship | undefined> {
  const { model, archive } = await internshipStore(kv);
  const slot = model.slotOf(id);
  return slot === undefined ? (await archive.records([id])).get(id) : (await model.recordsOf([slot]))[0];
}

/**
 * The owner `ownerId` of a listing as `organizationsForPoster` judges them: trusted when an admin; `actor` is read
 * instead of the store when it is the owner. A forgotten (null) or unknown owner manages nothing and is not trusted.
 */
async function ownerAsPoster(
  kv: Deno.Kv,
  ownerId: string | null,
  actor: User,
): Promise<{ userId: string | null; trusted: boolean }> {
  const owner = ownerId === null ? null : ownerId === actor.id ? actor : await getUser(kv, ownerId);
  return { userId: owner?.id ?? null, trusted: canModerate(owner) };
}

/**
 * Soft-deletes internship `id` as `actor`, its owner or an admin: sets `deletedAt` (and `updatedAt`), with `audit`'s
 * entry (and checks) in the same write. The same write resolves its open reports as removed by its author or an admin,
 * the rest after it (`removingListing`; docs/decisions.md, Trust, "Reports of what is removed"), unless
 * `reportsResolved` (the caller resolves them: `resolveTarget`). A lost race is tried again, or with `onLostRace`
 * "give-up" ends the call.
 * @throws NotFoundError for an unknown or already deleted id; ForbiddenError for anyone else;
 * BusyError after 30 s of races lost to other processes (nothing is changed), or of its reports' writes; RaceLost for a
 * lost race with `onLostRace` "give-up" (nothing is changed).
 */
export async function deleteInternship(
  kv: Deno.Kv,
  { id, actor, audit, onLostRace, reportsResolved = false }: {
    id: string;
    actor: User;
    audit?: AuditHook;
    onLostRace?: OnLostRace;
    reportsResolved?: boolean;
  },
): Promise<void> {
  await removingListing(
    kv,
    { kind: "internship", targetId: id, reports: !reportsResolved, onLostRace },
    ({ reportsRead, join }) =>
      writeInternship(kv, {
        id,
        actor,
        audit,
        onLostRace: "give-up",
        change: async (record) => {
          await reportsRead;
          const now = new Date().toISOString();
          return { ...record, deletedAt: now, updatedAt: now };
        },
        also: (op, next) => {
          join(op, { by: next.userId === actor.id ? "author" : "admin", at: next.deletedAt! });
        },
      }),
  );
}

/**
 * An admin's moderation `decision` on internship `id` with `note` (docs/decisions.md, Trust, "Moderation"): approve
 * lists it (`clear`), reject keeps it out for good (`rejected`). One write, which also moves it in the queue and, when
 * the state changed, sets `updatedAt` (`decidedVersion`: a page read before it is refused after it) and tells the owner
 * if any (`listing_moderated`, with the note). A reject that rejects it resolves its open reports as removed by
 * `removedBy` in the same write, the rest after it (`removingListing`; docs/decisions.md, Trust, "Reports of what is
 * removed"), unless `removedBy` is null (the caller resolves them: `resolveTarget`). Returns the internship as admins
 * read it, and when it was held. `audit`'s entry (and checks), when given, is in the same write.
 * A lost race is tried again, or with `onLostRace` "give-up" ends the call (a caller that reads its checks again).
 * @throws NotFoundError for an unknown or deleted id; ConflictError (`listingChanged`) when `updatedAt` is given and
 *   the record changed since; BusyError after 30 s of lost races (nothing changed), or of its reports' writes;
 *   RaceLost for a lost race with `onLostRace` "give-up" (nothing changed).
 */
export async function moderateInternship(
  kv: Deno.Kv,
  { id, admin, decision, note, updatedAt, notify = true, removedBy = "moderation", audit, onLostRace }: {
    id: string;
    admin: User;
    decision: ModerationDecision;
    note: string | null;
    /** The record's `updatedAt` as the admin read it; none decides on the current text. */
    updatedAt?: string;
    /** False when the caller tells the owner itself (a listing hidden after reports). */
    notify?: boolean;
    /** Who a reject removes it as, for its open reports; null when the caller resolves them. */
    removedBy?: Remover | null;
    audit?: AuditHook;
    onLostRace?: OnLostRace;
  },
): Promise<{ internship: InternshipView; heldAt: string | null }> {
  const { store, record } = await removingListing(
    kv,
    { kind: "internship", targetId: id, reports: decision === "reject" && removedBy !== null, onLostRace },
    ({ reportsRead, join }) =>
      writeInternship(kv, {
        id,
        actor: admin,
        audit,
        onLostRace: "give-up",
        change: async (record) => {
          await reportsRead;
          assertUnchangedSince(record, updatedAt);
          const current = moderationOf(record);
          if (decision === "approve" && current.status === "clear") return record;
          if (decision === "reject" && current.status === "rejected") return record;
          const now = new Date().toISOString();
          // A new version, so a page read before this decision cannot decide again (docs/decisions.md, Trust, "Decide what
          // you read").
          const version = decidedVersion(record.updatedAt, now);
          return { ...record, moderation: moderationDecided(current, { decision, note, now }), updatedAt: version };
        },
        also: (op, next, previous) => {
          if (removedBy && moderationOf(next).status === "rejected" && moderationOf(previous).status !== "rejected") {
            join(op, { by: removedBy, at: new Date().toISOString() });
          }
          if (next.userId === null || !notify) return;
          addNotification(op, moderatedNotification({ kind: "internship", listing: next, userId: next.userId }));
        },
      }),
  );
  const [internship] = await viewsOf(store, [record], istToday());
  return { internship, heldAt: moderationOf(record).heldAt };
}

/**
 * Holds internship `id` because students' reports reached the threshold at `since` (ISO; docs/decisions.md, Trust,
 * "Reports"), in one write that also puts it in the moderation queue; nothing for a rejected, deleted or unknown one,
 * one held for it already, or one an admin decided on since (`moderationOnReports`).
 * @throws BusyError after 30 s of lost races.
 */
export async function holdReportedInternship(kv: Deno.Kv, id: string, since: string): Promise<void> {
  const store = await internshipStore(kv);
  await updateAnywhere(kv, store, {
    id,
    change: (record) => {
      if (record.deletedAt) return record;
      const current = moderationOf(record);
      const next = moderationOnReports(current, { since, now: new Date().toISOString() });
      return next === current ? record : { ...record, moderation: next };
    },
    also: (op, next, previous) => {
      moderationQueueOps(op, "internships", previous, next);
      countOps(op, organizationCounts(previous), organizationCounts(next));
    },
  });
}

/**
 * Releases internship `id` from a hold by students' reports after an admin dismissed them (`moderationOnDismissal`,
 * docs/decisions.md, Trust, "Reports"): listed again unless the never-pay rule holds it too. One write, which also moves
 * it in the moderation queue and the organization's counts, with `audit`'s mutations (and checks); nothing for a
 * deleted or unknown one or one reports do not hold. Its owner is not told (a hold by reports never told them either).
 * A lost race is tried again, or with `onLostRace` "give-up" ends the call. Returns whether it stays held (for another
 * reason).
 * @throws BusyError after 30 s of lost races; RaceLost for a lost race with `onLostRace` "give-up" (nothing changed).
 */
export async function releaseReportedInternship(
  kv: Deno.Kv,
  id: string,
  { audit, onLostRace }: { audit?: AuditHook; onLostRace?: OnLostRace } = {},
): Promise<boolean> {
  const store = await internshipStore(kv);
  const record = await updateAnywhere(kv, store, {
    id,
    onLostRace,
    change: (record) => {
      if (record.deletedAt) return record;
      const current = moderationOf(record);
      const next = moderationOnDismissal(current, new Date().toISOString());
      return next === current ? record : { ...record, moderation: next };
    },
    also: (op, next, previous) => {
      moderationQueueOps(op, "internships", previous, next);
      countOps(op, organizationCounts(previous), organizationCounts(next));
      audit?.(op, id);
    },
  });
  return record !== null && !record.deletedAt && moderationOf(record).status === "held";
}

/**
 * Keeps the internships `userId` posted without their owner (`userId` null, shown as a former member): account
 * deletion. A listing still open that takes applications here closes with it (`closedAt` now, moved to the archive in
 * the same write, its end recorded for its applicants' due times, `endedOps`) unless it is linked to a verified
 * organization, whose managers answer its applicants: nobody else could (docs/decisions.md, Applications, "Every
 * applicant hears back"). The listings that close leave the read model up to 20 of a chunk in one checked write, the
 * others in the read model one checked write each (a listing's chunk is the unit of a write), the archived ones 50 a
 * write, so any number fit KV's limits. After every batch and 50 archived ones it calls `renew` (the deletion's lease),
 * whose throw stops it.
 * @throws BusyError after 30 s of races lost on one write (those done stay done; running it again finishes); what
 *   `renew` throws.
 */
export async function forgetInternshipOwner(
  kv: Deno.Kv,
  userId: string,
  { renew }: { renew?: () => Promise<void> } = {},
): Promise<void> {
  const store = await internshipStore(kv);
  const forget = (record: Internship) => record.userId === userId ? { ...record, userId: null } : record;
  await closeUnansweredOf(kv, store, userId, { change: forget, renew });
  const archived = (await internshipsOwnedBy(kv, userId)).filter((record) =>
    store.model.slotOf(record.id) === undefined
  );
  for (let i = 0; i < archived.length; i += 50) {
    await store.archive.write({ put: archived.slice(i, i + 50).map(forget) });
    await renew?.();
  }
}

/**
 * Closes the open listings of `userId` that take applications here and that nobody else answers (not linked to a
 * verified organization with a manager besides them not suspended, who would, nor linked to one only until the
 * `organizations-unlink` job takes it from that organization, `linkVerdict`; nor rejected by moderation, as a
 * suspension's hide rejects them first, whose applications no manager may move: `movesRefusal`), as their poster
 * closing them does: `closedAt` now, to the archive in the same write, their end recorded (`endedOps`) so their
 * applicants hear back 15 days after. An admin made them a user again, or suspended them with their listings hidden, so
 * they no longer read or answer those applicants (docs/decisions.md, Internships, "A poster made a user again"; Admin,
 * "Suspension"). Up to 20 listings of one chunk in one checked write (`closeEach`), also checking what their verdict
 * read (their organization's record and its other managers': a manager confirmed or a suspension lifted meanwhile is
 * read again and judged again); a listing no longer theirs, or closed meanwhile, is left as it is. With `guard` (a
 * record as read: the demotion's close still to do) each write checks it too, and the first write that finds it changed
 * (the role given back) stops the run: nothing closes after the change's write. Running it again closes what a stopped
 * run left.
 * @returns how many it closed, and whether it stopped at a changed `guard`.
 * @throws BusyError after 30 s of races lost on one write (those done stay done).
 */
export async function closeUnansweredInternships(
  kv: Deno.Kv,
  userId: string,
  { guard }: { guard?: Deno.KvEntry<unknown> } = {},
): Promise<{ closed: number; stopped: boolean }> {
  return await closeUnansweredOf(kv, await internshipStore(kv), userId, { change: (record) => record, guard });
}

/**
 * Writes each listing of `userId` in the read model as `change` makes it, closing it when it is still open, takes
 * applications here and nobody else answers (`closeUnansweredInternships`); writes those this changes as the read
 * model has them (the others are not read again) in `closeEach`'s batches, each checking `guard` when given (stopping
 * once it changed) and what its verdict read, `renew` after each batch.
 */
async function closeUnansweredOf(
  kv: Deno.Kv,
  store: InternshipStore,
  userId: string,
  { change, renew, guard }: {
    change: (record: Internship) => Internship;
    renew?: () => Promise<void>;
    guard?: Deno.KvEntry<unknown>;
  },
): Promise<{ closed: number; stopped: boolean }> {
  const today = istToday();
  const takes = (record: Internship) => (record.applyMode ?? "link") === "platform" && isLive(record, today);
  // Only listings `change` changes or that may close can need a write: a feed's hundreds of listings that take
  // applications elsewhere cost a demotion's request no round trip (each is two or three to a far KV).
  const candidates = (await store.model.recordsOf(store.model.columns.ownerOrder(userId)))
    .filter((record) => change(record) !== record || takes(record));
  const organizationIds = [...new Set(candidates.flatMap((record) => record.organizationId ?? []))];
  /**
   * The verdict on `userId`'s listings from their organizations as read now: whether the leaving poster manages each,
   * and whether another manager not suspended answers its listings.
   */
  const read = async (): Promise<Verdict> => {
    const organizations = new Map(
      await Promise.all(organizationIds.map(async (id) => [id, await readOrganization(kv, id)] as const)),
    );
    /**
     * `record` as the `organizations-unlink` job would leave it (marked its manager's when its owner manages the
     * organization now, judged before they are forgotten), and whether another manager of that organization answers
     * its applicants: it stays linked to a verified organization (`linkVerdict`) that has one, and no admin rejected
     * it (nobody but an admin moves a rejected listing's applications; a suspension's hide among them).
     */
    const judged = (record: Internship): { record: Internship; answered: boolean } => {
      const organization = record.organizationId ? organizations.get(record.organizationId) : undefined;
      const verifiedAt = organization?.entry.value?.isVerified ? organization.entry.value.verifiedAt : undefined;
      if (!organization || !verifiedAt) return { record, answered: false };
      const ownerManages = organization.managers.has(userId);
      const verdict = linkVerdict(record, { verifiedAt, ownerManages });
      const others = [...organization.managers].some((id) => id !== userId && standing(organization, id));
      return {
        record: verdict === "mark" ? { ...record, linkedByManager: true } : record,
        answered: verdict !== "unlink" && others && moderationOf(record).status !== "rejected",
      };
    };
    const closeUnanswered = (record: Internship, answered: boolean): Internship => {
      if (answered || !takes(record)) return record;
      const now = new Date().toISOString();
      return { ...record, closedAt: now, updatedAt: now };
    };
    return {
      change: (record) => {
        if (record.userId !== userId) return record;
        // One moved meanwhile to an organization not read closes at the close's next run (the job's; a second pass).
        if (record.organizationId && !organizations.has(record.organizationId)) return change(record);
        const { record: marked, answered } = judged(record);
        return closeUnanswered(change(marked), answered);
      },
      checks: (record) => {
        const organization = record.organizationId ? organizations.get(record.organizationId) : undefined;
        return organization ? checksOf(organization, record, userId) : [];
      },
    };
  };
  const verdict = await read();
  // Those the write changes as the read model has them are read again and written; the others are left unread.
  const changed = candidates.filter((record) => verdict.change(record) !== record);
  return await closeEach(kv, store, changed, { verdict, read, guard, renew });
}

/**
 * An organization as the verdict on its listings read it: its record (null when there is none), its managers (none
 * unless it is verified), and the user records of those and of the listings' owners asked for, as entries, which each
 * listing's close checks (`checksOf`).
 */
interface OrganizationRead {
  entry: Deno.KvEntryMaybe<Organization>;
  managers: Set<string>;
  users: Map<string, Deno.KvEntryMaybe<User>>;
}

/**
 * Reads organization `id` for a verdict on its listings (`OrganizationRead`): its record, then, when it is verified,
 * its managers, then their user records and those of `owners` (getMany's of ten).
 */
async function readOrganization(kv: Deno.Kv, id: string, owners: readonly string[] = []): Promise<OrganizationRead> {
  const entry = await getOrganization(kv, id);
  if (!entry.value?.isVerified) return { entry, managers: new Set(), users: new Map() };
  const managers = new Set((await managersOf(kv, id)).map((manager) => manager.userId));
  const ids = [...new Set([...managers, ...owners])];
  const users = await getManyChunked<User>(kv, ids.map(userKey));
  return { entry, managers, users: new Map(ids.map((userId, i) => [userId, users[i]])) };
}

/** The user `userId` as `organization`'s read has them when they exist and are not suspended, else undefined. */
function standing(organization: OrganizationRead, userId: string): User | undefined {
  const user = organization.users.get(userId)?.value ?? undefined;
  return user && !user.suspension ? user : undefined;
}

/**
 * What `record`'s close checks of what its verdict read (`organization`): the organization's record (a manager is
 * added only in a write of it: `touchOrganization`, `replaceOrganization`), and the user records of its owner and its
 * managers but `leaving` (whom the close's guard, or their account's deletion, covers), so a manager confirmed, or an
 * owner's or a manager's suspension lifted, meanwhile fails the write, which then reads them again. An organization
 * has few managers (a claim makes one only while nobody else manages it), well within KV's 100 checks.
 */
function checksOf(organization: OrganizationRead, record: Internship, leaving: string): Deno.AtomicCheck[] {
  const ids = new Set([...record.userId === null ? [] : [record.userId], ...organization.managers]);
  ids.delete(leaving);
  return [organization.entry, ...[...ids].flatMap((id) => organization.users.get(id) ?? [])];
}

/**
 * Closes the open listings that take applications here, linked to a verified organization `managerId` manages, that
 * nobody answers once they stop answering them (suspended, or their account deleted before `forgetManager`):
 * docs/decisions.md, Admin, "Suspension"; Data rights, "Deletion". A listing is answered by its owner while they exist,
 * are not suspended and may post (`canPost`); else by a manager of its organization other than `managerId` and its
 * owner, not suspended, unless it is rejected by moderation or its link is one the `organizations-unlink` job takes
 * away (`linkVerdict`). `managerId`'s own listings are left to their own rules (the suspension's hide; the deletion's
 * `internships` step). Reads each organization's postings in the read model (never every listing), its managers and
 * the owners in getMany's of ten; closes as `closeUnansweredInternships` does (`closedAt` now, to the archive in the
 * same write, the end recorded for the applicants, `endedOps`), up to 20 listings of one chunk a checked write
 * (`closeEach`), each checking what its verdict read (the organization, its owners' and managers' records: a manager
 * confirmed or a suspension lifted meanwhile is seen, read again and judged again) and `guard` when given (stopping
 * once it changed: the suspension lifted), `renew` after each batch.
 * @returns how many it closed, and whether it stopped at a changed `guard`.
 * @throws BusyError after 30 s of races lost on one write (those done stay done; running it again finishes).
 */
export async function closeUnansweredOfManager(
  kv: Deno.Kv,
  managerId: string,
  { guard, renew }: { guard?: Deno.KvEntry<unknown>; renew?: () => Promise<void> } = {},
): Promise<{ closed: number; stopped: boolean }> {
  const store = await internshipStore(kv);
  const { columns } = store.model;
  const today = istToday();
  const day = dayNumber(today);
  const takes = (record: Internship) => (record.applyMode ?? "link") === "platform" && isLive(record, today);
  let closed = 0;
  for (const organizationId of await managedBy(kv, managerId)) {
    const organization = (await getOrganization(kv, organizationId)).value;
    if (!organization?.isVerified) continue;
    const slots = columns.organizationOrder(organizationId).filter((slot) =>
      !columns.state(slot).deleted && columns.deadlineDays[slot] >= day && columns.ownerOf(slot) !== managerId
    );
    const listings = (await store.model.recordsOf(slots)).filter((record) =>
      takes(record) && record.userId !== managerId
    );
    if (listings.length === 0) continue;
    const owners = listings.flatMap((record) => record.userId ?? []);
    /** The verdict on the organization's listings from it, its managers and the owners as read now. */
    const read = async (): Promise<Verdict> => {
      const organization = await readOrganization(kv, organizationId, owners);
      const { value } = organization.entry;
      const active = [...organization.managers].filter((id) => id !== managerId && standing(organization, id));
      const answered = (record: Internship): boolean => {
        // Not verified any more, or an owner not read: not this close's to judge.
        if (!value?.isVerified || (record.userId !== null && !organization.users.has(record.userId))) return true;
        const owner = record.userId === null ? undefined : organization.users.get(record.userId)!.value ?? undefined;
        if (owner && !owner.suspension && canPost(owner)) return true;
        if (moderationOf(record).status === "rejected") return false;
        const ownerManages = record.userId !== null && (organization.managers.has(record.userId) || isAdmin(owner));
        if (linkVerdict(record, { verifiedAt: value.verifiedAt, ownerManages }) === "unlink") return false;
        return active.some((id) => id !== record.userId);
      };
      return {
        change: (record) => {
          if (record.organizationId !== organizationId || !takes(record) || answered(record)) return record;
          const now = new Date().toISOString();
          return { ...record, closedAt: now, updatedAt: now };
        },
        checks: (record) => checksOf(organization, record, managerId),
      };
    };
    const verdict = await read();
    const unanswered = listings.filter((record) => verdict.change(record) !== record);
    const run = await closeEach(kv, store, unanswered, { verdict, read, guard, renew });
    closed += run.closed;
    if (run.stopped) return { closed, stopped: true };
  }
  return { closed, stopped: false };
}

/**
 * What decides a close of listings nobody answers, as read: `change` makes a listing's record (as stored) what its
 * write stores, and `checks` lists the entries that decision read, which the listing's write checks.
 */
interface Verdict {
  change: (record: Internship) => Internship;
  checks: (record: Internship) => Deno.AtomicCheck[];
}

/** Listings closed in one write at most (each a few mutations and its verdict's checks; KV takes 100 checks). */
const CLOSE_BATCH = 20;
/**
 * Checks a batch's verdicts add to its write at most, beside the chunk's, the guard's and the archive blocks' it enters
 * (one or two a block: a batch over KV's limits is written one by one, `closeEach`).
 */
const CLOSE_BATCH_CHECKS = 80;

/**
 * Writes each of `listings` (as the read model has them) as `verdict` makes it (from the record as stored), its end
 * recorded (`endedOps`), checking what the verdict read and `guard` when given. Those that close leave their chunk for
 * the archive together, up to `CLOSE_BATCH` of one chunk in one write (`ChunkWriter.take`: its intake entries too, the
 * verdict's checks once each); the rest (changed but left open, moved to another chunk or the archive meanwhile), and
 * a batch KV refuses as over its limits (its listings entering many archive blocks, each rewritten whole: up to 60,000
 * bytes and a check a block), are written one by one (`updateAnywhere`). A write lost to the guard's change stops the
 * run; one lost to its listings' or to a change of what the verdict read reads the verdict again (`read`) and is tried
 * again (30 s); `renew` after each batch and every 20 single writes.
 * @returns how many it closed, and whether it stopped at a changed `guard`.
 * @throws BusyError after 30 s of races lost on one write (those done stay done).
 */
async function closeEach(
  kv: Deno.Kv,
  store: InternshipStore,
  listings: readonly Internship[],
  { verdict, read, guard, renew }: {
    verdict: Verdict;
    read: () => Promise<Verdict>;
    guard?: Deno.KvEntry<unknown>;
    renew?: () => Promise<void>;
  },
): Promise<{ closed: number; stopped: boolean }> {
  let closed = 0;
  let current = verdict;
  /**
   * Runs `write` until it is done; after a lost race, reads the verdict again and tries again, unless the guard
   * changed. @returns whether it stopped at a changed guard.
   */
  const attempt = async (write: () => Promise<unknown>): Promise<boolean> => {
    let stopped = false;
    await retrying(async () => {
      try {
        await write();
        return true;
      } catch (error) {
        if (!(error instanceof RaceLost)) throw error;
        // Lost to a change of the guard (stop), or of the listings or what the verdict read (judge again).
        stopped = guard !== undefined && (await kv.get(guard.key)).versionstamp !== guard.versionstamp;
        if (!stopped) current = await read();
        return stopped;
      }
    }, RETRY_BUDGET_MS);
    return stopped;
  };
  const closes = (next: Internship, record: Internship) => !!next.closedAt && !record.closedAt;
  const singles: string[] = [];
  for (const batch of closeBatches(store, listings, current)) {
    if (batch.chunk < 0) {
      singles.push(...batch.ids);
      continue;
    }
    const wanted = new Set(batch.ids);
    let taken: Internship[] = [];
    const stopped = await attempt(async () => {
      const next = new Map<string, Internship>();
      taken = await store.writer.take(
        batch.chunk,
        (record) => {
          if (!wanted.has(record.id)) return false;
          const changed = current.change(record);
          if (closes(changed, record)) next.set(record.id, changed);
          return next.has(record.id);
        },
        (records) => store.archive.rider({ put: records.map((record) => next.get(record.id)!) }),
        {
          also: (op, records) => {
            const checks = new Map<string, Deno.AtomicCheck>();
            for (const record of records) {
              const written = next.get(record.id)!;
              endedOps(op, record, written);
              intakeOps(op, written);
              for (const check of current.checks(record)) checks.set(JSON.stringify(check.key), check);
            }
            op.check(...checks.values());
            if (guard) op.check(guard);
          },
          onLostRace: "give-up",
        },
      ).catch((error) => {
        // Over KV's limits (the archive blocks the batch enters are its part's size): written one by one below.
        if (error instanceof InvalidInputError) return [];
        throw error;
      });
    });
    if (stopped) return { closed, stopped };
    closed += taken.length;
    const done = new Set(taken.map((record) => record.id));
    singles.push(...batch.ids.filter((id) => !done.has(id)));
    await renew?.();
  }
  for (const [i, id] of singles.entries()) {
    let closing = false;
    const stopped = await attempt(() =>
      updateAnywhere(kv, store, {
        id,
        change: (record) => {
          const next = current.change(record);
          closing = closes(next, record);
          return next;
        },
        also: (op, next, previous) => {
          endedOps(op, previous, next);
          op.check(...current.checks(previous));
          if (guard) op.check(guard);
        },
        onLostRace: "give-up",
      })
    );
    if (stopped) return { closed, stopped };
    if (closing) closed++;
    if (i % 20 === 19) await renew?.();
  }
  return { closed, stopped: false };
}

/**
 * `listings` (as the read model has them) in the batches `closeEach` writes: of one chunk each, up to `CLOSE_BATCH`
 * listings whose checks (`verdict`'s, each key once) stay within `CLOSE_BATCH_CHECKS`; a listing not in a chunk is a
 * batch of chunk -1 (written one by one).
 */
function closeBatches(
  store: InternshipStore,
  listings: readonly Internship[],
  verdict: Verdict,
): { chunk: number; ids: string[] }[] {
  const byChunk = new Map<number, Internship[]>();
  for (const record of listings) {
    const slot = store.model.slotOf(record.id);
    const n = slot === undefined ? -1 : store.model.chunkOfSlot(slot);
    const records = byChunk.get(n) ?? [];
    byChunk.set(n, records);
    records.push(record);
  }
  const batches: { chunk: number; ids: string[] }[] = [];
  for (const [chunk, records] of byChunk) {
    let batch: { chunk: number; ids: string[] } | null = null;
    let checks = new Set<string>();
    for (const record of records) {
      const keys = verdict.checks(record).map((check) => JSON.stringify(check.key));
      const more = keys.filter((key) => !checks.has(key)).length;
      if (!batch || batch.ids.length === CLOSE_BATCH || checks.size + more > CLOSE_BATCH_CHECKS) {
        batches.push(batch = { chunk, ids: [] });
        checks = new Set();
      }
      batch.ids.push(record.id);
      for (const key of keys) checks.add(key);
    }
  }
  return batches;
}

/**
 * Moves every listing of the read model that is closed on IST day `today` or deleted to the archive (the
 * `close-listings` job; docs/decisions.md, Open and closed listings, "Closing"): found in the columns, then taken out
 * chunk by chunk, each chunk's in one checked write with their archive records and blocks, calling `giveWay` between
 * writes. A listing changed meanwhile is judged as stored; one another process moved first is not there any more.
 * @returns how many listings were moved.
 */
export async function closeInternships(
  kv: Deno.Kv,
  { today, giveWay }: { today: string; giveWay: () => Promise<void> },
): Promise<number> {
  const { model, writer, archive } = await internshipStore(kv);
  const day = dayNumber(today);
  const { flags, deadlineDays } = model.columns;
  const chunks = new Set<number>();
  for (const slot of model.slots.order) {
    if ((flags[slot] & DELETED) !== 0 || deadlineDays[slot] < day) chunks.add(model.chunkOfSlot(slot));
  }
  let moved = 0;
  for (const n of chunks) {
    const taken = await writer.take(n, (record) => !isLive(record, today), (taken) => archive.rider({ put: taken }));
    moved += taken.length;
    await giveWay();
  }
  return moved;
}
