/**
 * The listings the scale benchmarks seed (docs/performance.md, Scale): open internships (created in the last 60 days,
 * open for days to come or without a deadline, about 5 % inactive and 3 % deleted) and closed ones (created over the
 * three years before, their deadline passed), generated in slices and written directly through the store: the open
 * ones through the chunked writer, the deleted and closed ones as one bulk seed of the archive. Every listing is linked
 * to its organization and counted toward it, and the one-time organization link is recorded as done, as in a database
 * after that link: otherwise the `organizations-link` job would walk the whole seed from the first minute of a
 * benchmark's server on, and its writes would share the run's CPU and KV with the requests measured.
 */
import { generateInternships, importInternships } from "@/lib/internships/fixtures.ts";
import { internshipStore } from "@/lib/internships/store.ts";
import type { Internship } from "@/lib/internships/schema.ts";
import { markLinked } from "@/lib/organizations/link.ts";
import { organizationCounts, resolveOrganizations } from "@/lib/organizations/store.ts";

const DAY_MS = 86_400_000;
/** Listings generated per slice (a million records at once would hold gigabytes twice over). */
const SLICE = 50_000;

/** `count` generated listings from `seed`: open ones (deadline ahead or none) or closed ones (deadline passed). */
function listings(count: number, owners: string[], seed: number, closed: boolean): Internship[] {
  const now = Date.now();
  return generateInternships(count, owners, { seed, now, withHidden: !closed }).map((record, i) => {
    if (!closed) {
      const createdAt = new Date(now - (i % 60) * DAY_MS - (i % 86_400) * 1000).toISOString();
      const deadline = record.deadline === null
        ? null
        : new Date(now + (1 + i % 75) * DAY_MS).toISOString().slice(0, 10);
      return { ...record, createdAt, updatedAt: createdAt, deletedAt: record.deletedAt && createdAt, deadline };
    }
    const created = now - (80 + (i * 7919) % 1015) * DAY_MS - (i % 86_400) * 1000;
    const createdAt = new Date(created).toISOString();
    const deadline = new Date(created + (15 + i % 60) * DAY_MS).toISOString().slice(0, 10);
    return { ...record, createdAt, updatedAt: createdAt, deadline };
  });
}

/** What a seed wrote: a sample of open listing ids (active, not deleted) and of closed ones, for requests to use. */
export interface SeededListings {
  openIds: string[];
  closedIds: string[];
  /** How long the open ones took, and all of it, in ms. */
  openMs: number;
  seedMs: number;
}

/** Seeds `open` open and `closed` closed internships owned in turn by `owners` into `kv` (see the module docstring). */
export async function seedListings(
  kv: Deno.Kv,
  { open, closed, owners }: { open: number; closed: number; owners: string[] },
): Promise<SeededListings> {
  const started = performance.now();
  const openIds: string[] = [], closedIds: string[] = [];
  const archived: Internship[] = [];
  const counts = new Map<string, { key: Deno.KvKey; count: number }>();
  /** `records` linked to their organizations (made when new), counted toward them in `counts`. */
  const linked = async (records: Internship[]) => {
    const ids = await resolveOrganizations(kv, [...new Set(records.map((r) => r.hiringOrganization))]);
    return records.map((record) => {
      const next = { ...record, organizationId: ids.get(record.hiringOrganization)! };
      for (const [key] of organizationCounts(next)) {
        const counted = counts.get(next.organizationId) ?? { key, count: 0 };
        counted.count++;
        counts.set(next.organizationId, counted);
      }
      return next;
    });
  };
  for (let from = 0; from < open; from += SLICE) {
    const records = await linked(listings(Math.min(SLICE, open - from), owners, 7 + from, false));
    openIds.push(...records.filter((r) => r.isActive && !r.deletedAt).slice(0, 1000).map((r) => r.id));
    await importInternships(kv, records.filter((r) => !r.deletedAt));
    archived.push(...records.filter((r) => r.deletedAt));
  }
  const openMs = performance.now() - started;
  for (let from = 0; from < closed; from += SLICE) {
    const records = await linked(listings(Math.min(SLICE, closed - from), owners, 1_000_003 + from, true));
    closedIds.push(...records.slice(0, 200).map((r) => r.id));
    archived.push(...records);
  }
  await (await internshipStore(kv)).archive.seed(archived);
  const op = kv.atomic();
  for (const { key, count } of counts.values()) op.sum(key, BigInt(count));
  await op.commit();
  await markLinked(kv, { linked: open + closed, now: new Date() });
  return { openIds, closedIds, openMs, seedMs: performance.now() - started };
}

/** A seeded pseudo-random generator (mulberry32) in [0, 1). */
export function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A random list query of the filters people use (a type, a tag, a city, a stipend floor, search words). */
export function randomFilter(next: () => number): URLSearchParams {
  const pick = <T>(items: readonly T[]) => items[Math.floor(next() * items.length)];
  const params = new URLSearchParams();
  if (next() < 0.4) params.set("types", pick(["remote", "hybrid", "onsite", "remote,hybrid"]));
  if (next() < 0.4) params.set("tags", pick(["python", "react", "design", "sql", "marketing", "finance", "data"]));
  if (next() < 0.4) params.set("location", pick(["bengaluru", "pune", "mumbai", "delhi", "hyderabad", "chennai"]));
  if (next() < 0.3) params.set("minStipend", String(pick([2000, 5000, 10000, 20000])));
  if (next() < 0.4) {
    params.set("search", pick(["data", "analyst", "design intern", "marketing", "zeta", "python team"]));
  }
  if ([...params.keys()].length === 0) params.set("search", pick(["intern", "remote", "finance"]));
  return params;
}
