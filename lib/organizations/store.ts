/**
 * Organization storage (docs/decisions.md, Trust, "Organizations"): the records, their name, slug and verified
 * indexes, the managers, the internship counters, and the directory each process keeps in memory of the summaries
 * internships carry.
 *
 * Keys (owned by this module only):
 * - `["organizations", id]` → `Organization`
 * - `["organizations_by_name", nameKey]` → id: every name an organization had (a rename keeps the old one, so listings
 *   posted under it still match)
 * - `["organizations_by_slug", slug]` → id
 * - `["organizations_verified", id]` → true while verified (the set the `verifiedOnly` filter reads)
 * - `["organization_managers", id, userId]` → `{since}`, and `["organizations_managed", userId, id]` → true
 * - `["organization_counts", id, "internships"]` → KvU64, the live listings posted under it
 * - `["organizations_meta", "changes"]` → KvU64, one more at every change of an existing organization, so other
 *   processes drop their copies of its summary
 * - `["organizations_unlink", id]` → `{since}`: an organization verified (written by the write that verifies it) whose
 *   listings posted by others than its managers and admins the `organizations-unlink` job has still to unlink; its
 *   drop moves the change marker too, as the directory keeps the queue (`OrganizationDirectory.unlinkPending`)
 */
import { BusyError } from "@/lib/errors.ts";
import { counterValue } from "@/lib/stats/counters.ts";
import { nameKey, type Organization, type OrganizationSummary, slugBase, slugCandidates, summaryOf } from "./schema.ts";
import { REFUSALS } from "@/lib/refusals.ts";
import { getManyChunked } from "@/lib/kv/get_many.ts";
import { getUsers } from "@/lib/users/users.ts";

export const orgKey = (id: string): Deno.KvKey => ["organizations", id];
const nameIndexKey = (key: string): Deno.KvKey => ["organizations_by_name", key];
const slugKey = (slug: string): Deno.KvKey => ["organizations_by_slug", slug];
const verifiedKey = (id: string): Deno.KvKey => ["organizations_verified", id];
const managerKey = (id: string, userId: string): Deno.KvKey => ["organization_managers", id, userId];
const managedKey = (userId: string, id: string): Deno.KvKey => ["organizations_managed", userId, id];
const countKey = (id: string): Deno.KvKey => ["organization_counts", id, "internships"];
const CHANGES: Deno.KvKey = ["organizations_meta", "changes"];
const unlinkKey = (id: string): Deno.KvKey => ["organizations_unlink", id];

/** How often (ms) a process checks whether another one changed an organization. */
const CHECK_INTERVAL_MS = 1000;
/** Summaries kept per process before the directory starts over (about 150 bytes each). */
const KEPT_SUMMARIES = 100_000;
/** Attempts of a write that loses races before it gives up. */
const ATTEMPTS = 20;

/**
 * The organizations queued for the `organizations-unlink` job that are verified, with their `verifiedAt` (ISO; null for
 * one verified before it was kept, whose every listing the job judges): readers judge those organizations' listings as
 * the job will (docs/decisions.md, Trust, "Who lists under a verified name").
 */
export type UnlinkPending = ReadonlyMap<string, string | null>;

/**
 * The organizations one process knows: summaries by id and ids by name key, read from KV on first use. A change of an
 * existing organization (here or in another process, seen within a second) drops the summaries and the verified set
 * and moves `version`; ids by name never change, so they are kept.
 */
export class OrganizationDirectory {
  /** Grows whenever an organization changes: what was derived from the summaries stays valid until then. */
  version = 0;
  private readonly summaries = new Map<string, OrganizationSummary>();
  private readonly ids = new Map<string, string>();
  private verified: Promise<ReadonlySet<string>> | null = null;
  private pending: Promise<UnlinkPending> | null = null;
  private marker: bigint | null = null;
  private checkedAt = 0;
  private checking: Promise<void> | null = null;

  constructor(private readonly kv: Deno.Kv) {}

  /** Picks up other processes' changes, reading the change marker at most once a second. */
  refresh(): Promise<void> {
    if (Date.now() - this.checkedAt < CHECK_INTERVAL_MS) return Promise.resolve();
    this.checking ??= this.kv.get<Deno.KvU64>(CHANGES).then((entry) => {
      const marker = entry.value?.value ?? 0n;
      if (this.marker !== null && marker !== this.marker) this.forget();
      this.marker = marker;
      this.checkedAt = Date.now();
    }).finally(() => {
      this.checking = null;
    });
    return this.checking;
  }

  /** Drops what may be stale (after a change) and moves `version`. */
  forget(): void {
    this.summaries.clear();
    this.verified = this.pending = null;
    this.version++;
  }

  /** The summaries of `ids` (those that exist), reading those not known yet; the map may hold others. */
  async summariesOf(ids: Iterable<string>): Promise<ReadonlyMap<string, OrganizationSummary>> {
    const missing = [...new Set(ids)].filter((id) => !this.summaries.has(id));
    if (missing.length > 0) {
      if (this.summaries.size + missing.length > KEPT_SUMMARIES) this.summaries.clear();
      for (const { value } of await getManyChunked<Organization>(this.kv, missing.map(orgKey))) {
        if (value) this.summaries.set(value.id, summaryOf(value));
      }
    }
    return this.summaries;
  }

  /** Remembers `organization` as this process just wrote it. */
  remember(organization: Organization): void {
    this.summaries.set(organization.id, summaryOf(organization));
    this.ids.set(nameKey(organization.name), organization.id);
  }

  /** The ids of the organizations named by `keys` (name keys) that exist, reading those not known yet. */
  async idsByName(keys: readonly string[]): Promise<Map<string, string>> {
    const found = new Map<string, string>();
    const missing: string[] = [];
    for (const key of new Set(keys)) {
      const id = this.ids.get(key);
      if (id) found.set(key, id);
      else missing.push(key);
    }
    const entries = await getManyChunked<string>(this.kv, missing.map(nameIndexKey));
    entries.forEach((entry, i) => {
      if (!entry.value) return;
      this.ids.set(missing[i], entry.value);
      found.set(missing[i], entry.value);
    });
    return found;
  }

  /** The ids of the verified organizations, read once per `version`. */
  verifiedIds(): Promise<ReadonlySet<string>> {
    this.verified ??= (async () => {
      const ids = new Set<string>();
      for await (const entry of this.kv.list({ prefix: ["organizations_verified"] })) ids.add(entry.key[1] as string);
      return ids;
    })();
    return this.verified;
  }

  /**
   * The verified organizations queued for the `organizations-unlink` job (`UnlinkPending`), read once per `version`:
   * one range read of the queue, and when it holds any, one read of their records.
   */
  unlinkPending(): Promise<UnlinkPending> {
    this.pending ??= (async () => {
      const queued = await unlinkQueue(this.kv, Infinity);
      const pending = new Map<string, string | null>();
      if (queued.length === 0) return pending;
      const records = await getManyChunked<Organization>(
        this.kv,
        queued.map((entry) => orgKey(entry.key[1] as string)),
      );
      for (const { value } of records) {
        if (value?.isVerified) pending.set(value.id, value.verifiedAt);
      }
      return pending;
    })();
    return this.pending;
  }
}

const directories = new WeakMap<Deno.Kv, OrganizationDirectory>();

/** The organization directory of `kv` in this process, brought up to date with other processes' changes. */
export async function organizationDirectory(kv: Deno.Kv): Promise<OrganizationDirectory> {
  let directory = directories.get(kv);
  if (!directory) directories.set(kv, directory = new OrganizationDirectory(kv));
  await directory.refresh();
  return directory;
}

/** The organization `id`, or null. */
export async function getOrganization(kv: Deno.Kv, id: string): Promise<Deno.KvEntryMaybe<Organization>> {
  return await kv.get<Organization>(orgKey(id));
}

/** The id of the organization whose slug is `slug`, or null. */
export async function organizationIdBySlug(kv: Deno.Kv, slug: string): Promise<string | null> {
  if (slug.length > 200) return null;
  return (await kv.get<string>(slugKey(slug))).value;
}

/** The organization whose slug is `slug`, or null. */
export async function organizationBySlug(kv: Deno.Kv, slug: string): Promise<Organization | null> {
  const id = await organizationIdBySlug(kv, slug);
  return id ? (await getOrganization(kv, id)).value : null;
}

/**
 * The organization named `name` (matched by `nameKey`), made when there is none: unverified, with a free slug. One
 * checked write, so two processes naming a new organization at once make one.
 * @throws BusyError after 20 lost races.
 */
async function findOrCreate(kv: Deno.Kv, directory: OrganizationDirectory, name: string): Promise<string> {
  const key = nameKey(name);
  const base = slugBase(name);
  let from = 1;
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const byName = await kv.get<string>(nameIndexKey(key));
    if (byName.value) return byName.value;
    const candidates = slugCandidates(base, from, 10);
    const taken = await kv.getMany<string[]>(candidates.map(slugKey));
    const free = taken.find((entry) => entry.value === null);
    if (!free) {
      from += 10;
      continue;
    }
    const organization: Organization = {
      id: crypto.randomUUID(),
      slug: free.key[1] as string,
      name: name.trim().replace(/\s+/g, " "),
      website: null,
      isVerified: false,
      verifiedDomain: null,
      verifiedAt: null,
      about: null,
      createdAt: new Date().toISOString(),
    };
    const result = await kv.atomic().check(byName, free)
      .set(orgKey(organization.id), organization)
      .set(nameIndexKey(key), organization.id)
      .set(slugKey(organization.slug), organization.id)
      .commit();
    if (result.ok) {
      directory.remember(organization);
      return organization.id;
    }
  }
  throw new BusyError(REFUSALS.organizationsBusy);
}

/**
 * The organization id of each of `names` (by `nameKey`), making the organizations that do not exist yet
 * (docs/decisions.md, Trust, "Organizations"). Known names cost nothing (the directory keeps them), unknown ones one
 * read per ten, new ones one write each, made side by side.
 * @throws BusyError after 20 lost races on one name.
 */
export async function resolveOrganizations(kv: Deno.Kv, names: readonly string[]): Promise<Map<string, string>> {
  const directory = await organizationDirectory(kv);
  const keys = names.map(nameKey);
  const found = await directory.idsByName(keys);
  const byKey = new Map(names.map((name, i) => [keys[i], name]));
  const missing = [...byKey].filter(([key]) => !found.has(key));
  // New organizations are made side by side (each its own checked write; a taken slug is retried).
  const made = await Promise.all(missing.map(([, name]) => findOrCreate(kv, directory, name)));
  missing.forEach(([key], i) => found.set(key, made[i]));
  return new Map(names.map((name) => [name, found.get(nameKey(name))!]));
}

/**
 * How a listing is linked to an organization: its id, and whether the listing's owner managed it or was an admin when
 * judged (docs/decisions.md, Trust, "Who lists under a verified name"), which the `organizations-unlink` job trusts.
 */
export interface OrganizationLink {
  id: string;
  byManager: boolean;
}

/**
 * The organization a listing posted by `poster` under each of `names` is linked to (docs/decisions.md, Trust, "Who
 * lists under a verified name"): `resolveOrganizations`, except that a verified organization is given only to an admin
 * (`trusted`) or one of its managers (none for a null `userId`, a forgotten owner); anyone else's listing under its
 * name is left unlinked (null), so it carries no badge and stays out of `verifiedOnly`. Each link says whether the
 * poster manages that organization or is an admin (`byManager`). One read (the organizations the poster manages) for
 * a poster not trusted.
 * @throws BusyError after 20 lost races on one name.
 */
export async function organizationsForPoster(
  kv: Deno.Kv,
  { names, poster }: { names: readonly string[]; poster: { userId: string | null; trusted: boolean } },
): Promise<Map<string, OrganizationLink | null>> {
  const ids = await resolveOrganizations(kv, names);
  if (poster.trusted) return new Map([...ids].map(([name, id]) => [name, { id, byManager: true }]));
  const [verified, managed] = await Promise.all([
    organizationDirectory(kv).then((directory) => directory.verifiedIds()),
    poster.userId === null ? [] : managedBy(kv, poster.userId),
  ]);
  const manages = new Set(managed);
  return new Map([...ids].map(([name, id]) => {
    const byManager = manages.has(id);
    return [name, verified.has(id) && !byManager ? null : { id, byManager }];
  }));
}

/** What a listing counts toward its organization's counter: one while it is linked, not deleted and not rejected. */
export function organizationCounts(
  listing: { organizationId?: string | null; deletedAt: string | null; moderation?: { status: string } } | null,
): [Deno.KvKey, number][] {
  if (!listing?.organizationId || listing.deletedAt || listing.moderation?.status === "rejected") return [];
  return [[countKey(listing.organizationId), 1]];
}

/** How many live listings organization `id` has posted. */
export async function internshipCount(kv: Deno.Kv, id: string): Promise<number> {
  return counterValue(await kv.get<Deno.KvU64>(countKey(id)));
}

/**
 * Replaces the organization `entry` (as read) with `next` in one write checked against it, with its indexes: a new name
 * key (kept beside the old ones; refused when another organization has it), the verified entry, and the change marker;
 * one that becomes verified is queued for the `organizations-unlink` job (`["organizations_unlink", id]`).
 * `also` adds the caller's mutations. Returns false when `entry` changed meanwhile.
 * @returns "taken" when another organization already has `next`'s name.
 */
export async function replaceOrganization(
  kv: Deno.Kv,
  entry: Deno.KvEntry<Organization>,
  next: Organization,
  also?: (op: Deno.AtomicOperation) => void,
): Promise<"ok" | "lost" | "taken"> {
  const op = kv.atomic().check(entry).set(orgKey(next.id), next).sum(CHANGES, 1n);
  const key = nameKey(next.name);
  if (key !== nameKey(entry.value.name)) {
    const byName = await kv.get<string>(nameIndexKey(key));
    if (byName.value && byName.value !== next.id) return "taken";
    op.check(byName).set(nameIndexKey(key), next.id);
  }
  if (next.isVerified && !entry.value.isVerified) queueUnlinkOps(op.set(verifiedKey(next.id), true), next.id);
  if (!next.isVerified && entry.value.isVerified) op.delete(verifiedKey(next.id));
  also?.(op);
  if (!(await op.commit()).ok) return "lost";
  const directory = await organizationDirectory(kv);
  directory.forget();
  directory.remember(next);
  return "ok";
}

/**
 * Adds to `op` the making of `userId` a manager of organization `id` (since `now`); `op` also writes the organization's
 * record (`touchOrganization`, `replaceOrganization`), whose check is how a close of unanswered listings sees a new
 * manager (`closeUnansweredOfManager`).
 */
export function addManagerOps(op: Deno.AtomicOperation, id: string, userId: string, now: string): void {
  op.set(managerKey(id, userId), { since: now }).set(managedKey(userId, id), true);
}

/**
 * Writes the organization `entry` (as read) unchanged with `also`'s mutations, checked against it, moving the change
 * marker (a new manager of a verified organization changes how its listings read while the `organizations-unlink` job
 * has them to judge). Returns false when `entry` changed meanwhile.
 */
export async function touchOrganization(
  kv: Deno.Kv,
  entry: Deno.KvEntry<Organization>,
  also: (op: Deno.AtomicOperation) => void,
): Promise<boolean> {
  const op = kv.atomic().check(entry).set(entry.key, entry.value).sum(CHANGES, 1n);
  also(op);
  if (!(await op.commit()).ok) return false;
  (await organizationDirectory(kv)).forget();
  return true;
}

/** Adds to `op` a check that `userId` does not manage organization `id`: the write fails once they do. */
export function checkNotManagerOps(op: Deno.AtomicOperation, id: string, userId: string): void {
  op.check({ key: managerKey(id, userId), versionstamp: null });
}

/** Whether `userId` manages organization `id`. */
export async function isManager(kv: Deno.Kv, id: string, userId: string): Promise<boolean> {
  return (await kv.get(managerKey(id, userId))).value !== null;
}

/** Whether each of `pairs` (an organization id and a user id) is one of that organization's managers: reads of ten. */
export async function managesEach(
  kv: Deno.Kv,
  pairs: readonly { organizationId: string; userId: string }[],
): Promise<boolean[]> {
  const entries = await getManyChunked(
    kv,
    pairs.map(({ organizationId, userId }) => managerKey(organizationId, userId)),
  );
  return entries.map((entry) => entry.value !== null);
}

/**
 * Whether organization `id` has a manager other than `userId` who can act for it: one whose account exists and is not
 * suspended. A suspended manager signs in to nothing, so answers no applicant and keeps nobody from claiming the
 * organization (docs/decisions.md, Trust, "Verification by domain"). Reads the managers, then, when there are others,
 * their accounts (one more round trip).
 */
export async function hasManagerOtherThan(kv: Deno.Kv, id: string, userId: string): Promise<boolean> {
  const others = (await managersOf(kv, id)).map((manager) => manager.userId).filter((other) => other !== userId);
  if (others.length === 0) return false;
  return [...(await getUsers(kv, others)).values()].some((user) => !user.suspension);
}

/** The ids of the organizations `userId` manages. */
export async function managedBy(kv: Deno.Kv, userId: string): Promise<string[]> {
  const ids: string[] = [];
  for await (const entry of kv.list({ prefix: ["organizations_managed", userId] })) ids.push(entry.key[2] as string);
  return ids;
}

/** The managers of organization `id`: user ids and since when. */
export async function managersOf(kv: Deno.Kv, id: string): Promise<{ userId: string; since: string }[]> {
  const managers: { userId: string; since: string }[] = [];
  for await (const entry of kv.list<{ since: string }>({ prefix: ["organization_managers", id] })) {
    managers.push({ userId: entry.key[2] as string, since: entry.value.since });
  }
  return managers;
}

/** Removes `userId` as a manager of every organization (account deletion); idempotent. */
export async function forgetManager(kv: Deno.Kv, userId: string): Promise<void> {
  for (const id of await managedBy(kv, userId)) {
    await kv.atomic().delete(managerKey(id, userId)).delete(managedKey(userId, id)).commit();
  }
}

/** Adds to `op` the queueing of organization `id` for the `organizations-unlink` job (verified at `now`). */
export function queueUnlinkOps(op: Deno.AtomicOperation, id: string, now = new Date()): void {
  op.set(unlinkKey(id), { since: now.toISOString() });
}

/** The organizations queued for the `organizations-unlink` job (verified since), as read: at most `limit`. */
export async function unlinkQueue(kv: Deno.Kv, limit: number): Promise<Deno.KvEntry<{ since: string }>[]> {
  const options = Number.isFinite(limit) ? { limit } : {};
  return await Array.fromAsync(kv.list<{ since: string }>({ prefix: ["organizations_unlink"] }, options));
}

/**
 * Takes `entry` (as read) off the unlink queue, moving the change marker (readers stop judging the organization's
 * listings as the job would: `OrganizationDirectory.unlinkPending`); false when it changed meanwhile (verified again:
 * kept).
 */
export async function dropFromUnlinkQueue(kv: Deno.Kv, entry: Deno.KvEntry<{ since: string }>): Promise<boolean> {
  if (!(await kv.atomic().check(entry).delete(entry.key).sum(CHANGES, 1n).commit()).ok) return false;
  (await organizationDirectory(kv)).forget();
  return true;
}

/** Every organization, in key order (for the admin list; an admin-only scan). */
export async function* allOrganizations(kv: Deno.Kv): AsyncGenerator<Organization> {
  for await (const entry of kv.list<Organization>({ prefix: ["organizations"] }, { batchSize: 500 })) {
    yield entry.value;
  }
}

/** The verified organizations' records, by id. */
export async function verifiedOrganizations(kv: Deno.Kv): Promise<Organization[]> {
  const ids: string[] = [];
  for await (const entry of kv.list({ prefix: ["organizations_verified"] })) ids.push(entry.key[1] as string);
  return (await getManyChunked<Organization>(kv, ids.map(orgKey))).flatMap(({ value }) => value ? [value] : []);
}
