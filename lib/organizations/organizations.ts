/**
 * The organizations capability (docs/api.md, Trust; docs/decisions.md, Trust, "Organizations"): an organization's
 * public profile with its track record, a manager's and an admin's changes, and the admin list.
 */
import type { AuditHook } from "@/lib/admin_log/admin_log.ts";
import { BusyError, ConflictError, ForbiddenError, InvalidInputError, NotFoundError } from "@/lib/errors.ts";
import { fieldProblem } from "@/lib/field_messages.ts";
import { type OnLostRace, RaceLost } from "@/lib/kv/retry.ts";
import { moneyPhrasesIn } from "@/lib/moderation/never_pay.ts";
import type { User } from "@/lib/users/users.ts";
import { type InternshipView, openInternshipsOf } from "@/lib/internships/internships.ts";
import {
  type AdminOrganizationQuery,
  type AdminPatch,
  type ManagerPatch,
  nameKey,
  type Organization,
} from "./schema.ts";
import { trackRecordOf, trackRecordVersion } from "@/lib/applications/track_record.ts";
import {
  allOrganizations,
  getOrganization,
  internshipCount,
  isManager,
  managedBy,
  managersOf,
  organizationBySlug,
  organizationIdBySlug,
  replaceOrganization,
  verifiedOrganizations,
} from "./store.ts";
import { REFUSALS } from "@/lib/refusals.ts";
import { isAdmin } from "@/lib/users/roles.ts";

export * from "./schema.ts";

/** The answer of an unknown slug or id. */
export const NOT_FOUND = REFUSALS.organizationNotFound;

/**
 * An organization's track record (`GET /api/organizations/{slug}`): its open internships now, its live listings in
 * all, and its application figures (0, or null below 5 applications; stipend reports only from 3 answers).
 */
export interface OrganizationStats {
  openInternships: number;
  internships: number;
  applications: number;
  /** Share (0 to 1) of applicants the poster answered within 14 days; null below 5 applications. */
  responseRate: number | null;
  medianDaysToFirstResponse: number | null;
  stipendReports: { yes: number; partly: number; no: number };
}

/** The profile of an organization: the record and its stats. */
export interface OrganizationProfile {
  organization: Organization;
  stats: OrganizationStats;
}

/**
 * The stats of `organization`, with `openInternships` as counted by the caller, and the application figures from the
 * track record's counters (docs/decisions.md, Applications, "Track record").
 */
async function statsOf(kv: Deno.Kv, organization: Organization, openInternships: number): Promise<OrganizationStats> {
  const [internships, record] = await Promise.all([
    internshipCount(kv, organization.id),
    trackRecordOf(kv, organization.id),
  ]);
  return { openInternships, internships, ...record };
}

/**
 * The organization whose slug is `slug` with its stats and a page of its open internships (`offset`, `limit`).
 * @throws NotFoundError "Organization not found".
 */
export async function organizationProfile(
  kv: Deno.Kv,
  { slug, offset = 0, limit = 20 }: { slug: string; offset?: number; limit?: number },
): Promise<OrganizationProfile & { internships: InternshipView[] }> {
  const organization = await organizationBySlug(kv, slug);
  if (!organization) throw new NotFoundError(NOT_FOUND);
  const open = await openInternshipsOf(kv, { organizationId: organization.id, offset, limit });
  return {
    organization,
    stats: await statsOf(kv, organization, open.total),
    internships: open.internships,
  };
}

/**
 * What the page of the organization `slug` is rendered from, as a version for page caches: its record's versionstamp
 * and its track record's change marker ("none" for an unknown slug). Two key reads.
 */
export async function organizationVersion(kv: Deno.Kv, slug: string): Promise<string> {
  const id = await organizationIdBySlug(kv, slug);
  if (!id) return "none";
  const [entry, marker] = await Promise.all([getOrganization(kv, id), trackRecordVersion(kv, id)]);
  return `${entry.versionstamp}:${marker}`;
}

/** The refusal of a name another organization already has. */
export const NAME_TAKEN = REFUSALS.nameTaken;

/** The sentence of the refusal to change a verified organization's website (docs/decisions.md, Trust). */
export const WEBSITE_LOCKED = REFUSALS.websiteLocked;

/** The refusal of a claim, or a manager's website change, after an admin took the verification away. */
export const VERIFICATION_REMOVED = REFUSALS.verificationRemoved;

/**
 * `user`'s change of the organization `slug` as its manager (an admin may too): `about`, and `website` until the
 * organization is verified or an admin took its verification away (docs/decisions.md, Trust, "Verification by
 * domain"). A changed `about` goes through the never-pay rule as a listing's texts do (docs/decisions.md, Trust, "The
 * never-pay rule"): refused when it asks applicants to pay.
 * @throws NotFoundError for an unknown slug; ForbiddenError for anyone but its managers and admins, and for a
 * website change of a verified organization or of one an admin un-verified (admins change it as admins);
 * InvalidInputError (at `about`) for an about text that asks applicants to pay; BusyError after lost races.
 */
export async function updateAsManager(
  kv: Deno.Kv,
  { slug, user, patch }: { slug: string; user: User; patch: ManagerPatch },
): Promise<Organization> {
  const found = await organizationBySlug(kv, slug);
  if (!found) throw new NotFoundError(NOT_FOUND);
  if (!isAdmin(user) && !await isManager(kv, found.id, user.id)) throw new ForbiddenError();
  return await change(kv, found.id, (current) => {
    if (patch.website !== undefined && patch.website !== current.website) {
      if (current.isVerified) throw new ForbiddenError(WEBSITE_LOCKED);
      if (current.verificationRemovedAt) throw new ForbiddenError(VERIFICATION_REMOVED);
    }
    if (patch.about && patch.about !== current.about && moneyPhrasesIn(patch.about).length > 0) {
      throw new InvalidInputError(REFUSALS.aboutAsksToPay, [fieldProblem("about", { key: "fields.aboutAsksToPay" })]);
    }
    return { ...current, ...defined(patch) };
  });
}

/**
 * An admin's change of organization `id`: name (its slug stays; the old name keeps matching), website, about text,
 * and the verified state (verifying sets `verifiedAt` and lifts `verificationRemovedAt`; un-verifying a verified one
 * is `removeVerification`'s), with `audit`'s entry in the same write.
 * @throws NotFoundError for an unknown id; ConflictError when another organization has the name; BusyError.
 */
export async function updateAsAdmin(
  kv: Deno.Kv,
  { id, patch, audit }: { id: string; patch: AdminPatch; audit?: AuditHook },
) {
  let summary: string | undefined;
  return await change(kv, id, (current) => {
    // The entry names a change of the verified state only when there is one (a website edit sends the box as it was).
    summary = patch.isVerified === undefined || patch.isVerified === current.isVerified
      ? undefined
      : patch.isVerified
      ? "verified"
      : "not verified";
    let next: Organization = { ...current, ...defined(patch) };
    if (patch.name !== undefined) next.name = patch.name.replace(/\s+/g, " ");
    if (patch.isVerified === true) {
      if (!current.isVerified) next.verifiedAt = new Date().toISOString();
      delete next.verificationRemovedAt;
    }
    if (patch.isVerified === false && current.isVerified) next = removed(next);
    return next;
  }, { also: audit && ((op) => audit(op, id, summary)) });
}

/**
 * An admin takes organization `id`'s verification away (a report resolved with `hide`; docs/decisions.md, Trust,
 * "Verification by domain"), verified or not: unverified, without `verifiedAt` and `verifiedDomain`, and marked
 * `verificationRemovedAt`, so no claim verifies it and only an admin changes its website until an admin verifies it.
 * `audit`'s mutations (and checks) join the write (none when nothing changes); a lost race is tried again, or with
 * `onLostRace` "give-up" ends the call.
 * @throws NotFoundError for an unknown id; BusyError; RaceLost for a lost race with `onLostRace` "give-up" (nothing
 *   changed).
 */
export async function removeVerification(
  kv: Deno.Kv,
  id: string,
  { audit, onLostRace }: { audit?: AuditHook; onLostRace?: OnLostRace } = {},
): Promise<Organization> {
  return await change(kv, id, removed, { also: audit && ((op) => audit(op, id)), onLostRace });
}

/** `organization` with its verification taken away by an admin (the first time kept). */
function removed(organization: Organization): Organization {
  return {
    ...organization,
    isVerified: false,
    verifiedAt: null,
    verifiedDomain: null,
    verificationRemovedAt: organization.verificationRemovedAt ?? new Date().toISOString(),
  };
}

/** The fields of `patch` that were given. */
function defined<T extends object>(patch: T): Partial<T> {
  return Object.fromEntries(Object.entries(patch).filter(([, value]) => value !== undefined)) as Partial<T>;
}

/**
 * Replaces organization `id` with `edit(current)`, checked against what was read, retried on a lost race unless
 * `onLostRace` is "give-up"; nothing is written when `edit` changes nothing; `also` adds the caller's mutations to the
 * write.
 * @throws NotFoundError; what `edit` throws; ConflictError for a name another organization has; BusyError after 20 lost
 *   races; RaceLost for a lost race with `onLostRace` "give-up".
 */
async function change(
  kv: Deno.Kv,
  id: string,
  edit: (current: Organization) => Organization,
  { also, onLostRace }: { also?: (op: Deno.AtomicOperation) => void; onLostRace?: OnLostRace } = {},
): Promise<Organization> {
  for (let attempt = 0; attempt < 20; attempt++) {
    const entry = await getOrganization(kv, id);
    if (!entry.value) throw new NotFoundError(NOT_FOUND);
    const next = edit(entry.value);
    if (JSON.stringify(next) === JSON.stringify(entry.value)) return entry.value;
    const outcome = await replaceOrganization(kv, entry as Deno.KvEntry<Organization>, next, also);
    if (outcome === "taken") throw new ConflictError(NAME_TAKEN);
    if (outcome === "ok") return next;
    if (onLostRace === "give-up") throw new RaceLost();
  }
  throw new BusyError(REFUSALS.organizationBusy);
}

/** A page of the admin list, each organization with its live listing count. */
export interface AdminOrganizationPage {
  organizations: (Organization & { internships: number })[];
  pagination: { limit: number; offset: number; total: number; hasMore: boolean };
}

/**
 * The admin list: organizations whose name holds `search` (any case), verified ones only or unverified ones only when
 * asked, by name; verified ones are read from their index, otherwise every organization is scanned (an admin page,
 * not a public one).
 */
export async function listForAdmin(kv: Deno.Kv, query: AdminOrganizationQuery): Promise<AdminOrganizationPage> {
  let candidates: Organization[];
  if (query.verified === true) candidates = await verifiedOrganizations(kv);
  else {
    candidates = [];
    for await (const organization of allOrganizations(kv)) candidates.push(organization);
  }
  const matches = candidates.filter((organization) =>
    (query.verified === undefined || organization.isVerified === query.verified) &&
    nameKey(organization.name).includes(query.search)
  ).sort((a, b) => a.name.localeCompare(b.name, "en"));
  const page = matches.slice(query.offset, query.offset + query.limit);
  const counts = await Promise.all(page.map((organization) => internshipCount(kv, organization.id)));
  return {
    organizations: page.map((organization, i) => ({ ...organization, internships: counts[i] })),
    pagination: {
      limit: query.limit,
      offset: query.offset,
      total: matches.length,
      hasMore: query.offset + page.length < matches.length,
    },
  };
}

/** The organizations `userId` manages, with since when (the account export). */
export async function organizationsManagedBy(
  kv: Deno.Kv,
  userId: string,
): Promise<{ id: string; slug: string; name: string; since: string }[]> {
  const managed: { id: string; slug: string; name: string; since: string }[] = [];
  for (const id of await managedBy(kv, userId)) {
    const organization = (await getOrganization(kv, id)).value;
    const since = (await managersOf(kv, id)).find((manager) => manager.userId === userId)?.since;
    if (organization && since) managed.push({ id, slug: organization.slug, name: organization.name, since });
  }
  return managed;
}
