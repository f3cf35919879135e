/**
 * Filters over open and closed listings give what a plain scan of the records gives (docs/decisions.md, Open and
 * closed listings, "Reading closed listings"): a property test over random listings (every state, tied creation
 * times, cities under their other names, organizations verified or not, listings held by moderation) and random
 * queries (every filter, `verifiedOnly` and `paidOnly` too, the admin flags, `mine`, any page),
 * answered once with every listing in the read model, again after the `close-listings` job moved the closed and
 * deleted ones to the archive (in several blocks), and again once the archive's owner index is built (`mine` reads
 * through it).
 */
import { assertEquals } from "@/tests/helpers/assert.ts";
import {
  type Internship,
  INTERNSHIP_TYPES,
  InternshipQuerySchema,
  listInternships,
} from "@/lib/internships/internships.ts";
import { closeInternships } from "@/lib/internships/writes.ts";
import { internshipSearchText } from "@/lib/internships/columns.ts";
import { cityVariants } from "@/lib/internships/cities.ts";
import { isClosedOn } from "@/lib/internships/policy.ts";
import { internshipStore } from "@/lib/internships/store.ts";
import { createUser, type User } from "@/lib/users/users.ts";
import { resolveOrganizations } from "@/lib/organizations/store.ts";
import { updateAsAdmin } from "@/lib/organizations/organizations.ts";

/** A seeded pseudo-random generator (mulberry32) in [0, 1). */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const TODAY = "2030-06-15";
const TAGS = ["Python", "react", "Data", "design", "SQL", "go"];
const PLACES = ["Bengaluru, Karnataka", "Bangalore", "Pune", "Poona", "Remote", "New Delhi", "Mumbai", null];
const WORDS = ["data", "analyst", "intern", "bangalore", "bengaluru", "pune", "design", "backend", "writer", "zeta"];
const STIPENDS = [null, 0, 5000, 10000, 15000, 25000];
const DEADLINES = [
  "2029-01-01",
  "2029-09-09",
  "2030-06-14",
  "2030-06-15",
  "2030-06-16T02:00:00+05:30",
  "2031-01-01",
  null,
];

/** The ids of the organizations the listings name, by name (made by the test). */
type Organizations = Map<string, string>;

function listings(next: () => number, owners: User[], count: number, organizations: Organizations): Internship[] {
  const pick = <T>(items: readonly T[]) => items[Math.floor(next() * items.length)];
  const words = (n: number) => Array.from({ length: n }, () => pick(WORDS)).join(" ");
  const base = Date.UTC(2030, 0, 1);
  return Array.from({ length: count }, (_, i) => {
    // Every fourth listing shares its creation time with the one before (a batch).
    const createdAt = new Date(base + (i - (i % 4 === 3 ? 1 : 0)) * 60_000).toISOString();
    const hidden = next();
    const hiringOrganization = pick(["Zeta Labs", "Kisan Connect", "Pune Works"]);
    const held = next() < 0.08;
    return {
      id: crypto.randomUUID(),
      title: `${pick(["Data", "Design", "Backend"])} ${words(1)}`,
      description: next() < 0.2 ? null : words(2 + Math.floor(next() * 8)),
      type: next() < 0.2 ? null : pick(INTERNSHIP_TYPES),
      timing: null,
      link: "https://x.example/a",
      hiringOrganization,
      hiringManager: null,
      tags: TAGS.filter(() => next() < 0.25),
      stipend: pick(STIPENDS),
      duration: null,
      experience: null,
      location: pick(PLACES),
      deadline: pick(DEADLINES),
      isVerified: next() < 0.2,
      isActive: hidden >= 0.1,
      userId: pick(owners).id,
      createdAt,
      updatedAt: createdAt,
      deletedAt: hidden < 0.05 ? createdAt : null,
      // Most listings linked to their organization, some not yet (as before the one-time link).
      ...next() < 0.9 ? { organizationId: organizations.get(hiringOrganization)! } : {},
      ...held
        ? {
          moderation: {
            status: "held" as const,
            reasons: ["Asks applicants to pay"],
            heldAt: createdAt,
            decidedAt: null,
            note: null,
          },
        }
        : {},
    };
  });
}

type Params = Record<string, string>;

function query(next: () => number): Params {
  const pick = <T>(items: readonly T[]) => items[Math.floor(next() * items.length)];
  const params: Params = { limit: String(1 + Math.floor(next() * 100)) };
  if (next() < 0.8) params.includeClosed = "true";
  if (next() < 0.3) params.types = INTERNSHIP_TYPES.filter(() => next() < 0.5).join(",") || "remote";
  if (next() < 0.3) params.tags = TAGS.filter(() => next() < 0.3).join(",") || "python";
  if (next() < 0.3) params.location = pick(["bengaluru", "BANGALORE", "poona", "remote", "delhi", "mum", "karnataka"]);
  if (next() < 0.3) params.minStipend = String(pick([0, 5000, 10000]));
  if (next() < 0.3) params.maxStipend = String(pick([10000, 25000, 100000]));
  if (params.minStipend && params.maxStipend && Number(params.minStipend) > Number(params.maxStipend)) {
    delete params.maxStipend;
  }
  if (next() < 0.4) {
    params.search = Array.from({ length: 1 + Math.floor(next() * 2) }, () => {
      const word = pick(WORDS);
      return next() < 0.3 ? word.slice(1, 4) : word;
    }).join(" ");
  }
  if (next() < 0.3) params.verifiedOnly = "true";
  if (next() < 0.3) params.paidOnly = "true";
  if (next() < 0.3) params.includeInactive = "true";
  if (next() < 0.2) params.includeDeleted = "true";
  if (next() < 0.15) params.mine = "true";
  return params;
}

/**
 * The plain scan: the list rules applied to every record, newest first (then id descending); `verified` holds the ids
 * of the verified organizations.
 */
function reference(records: Internship[], params: Params, viewer: User | null, verified: Set<string>): string[] {
  const q = InternshipQuerySchema.parse(params);
  const admin = viewer?.role === "admin";
  const includeInactive = q.mine || (admin && q.includeInactive);
  const includeDeleted = admin && q.includeDeleted;
  return records.filter((r) =>
    (!q.mine || r.userId === viewer?.id) &&
    (includeInactive || (r.isActive && (r.moderation?.status ?? "clear") === "clear")) &&
    (includeDeleted || !r.deletedAt) &&
    (q.mine || q.includeClosed || !isClosedOn(r.deadline, TODAY)) &&
    (q.types.length === 0 || (r.type !== null && q.types.includes(r.type))) &&
    (q.tags.length === 0 || r.tags.some((tag) => q.tags.includes(tag.toLowerCase()))) &&
    (q.location === undefined ||
      cityVariants(q.location).some((place) => (r.location ?? "").toLowerCase().includes(place))) &&
    (q.minStipend === undefined || (r.stipend !== null && r.stipend >= q.minStipend)) &&
    (q.maxStipend === undefined || (r.stipend !== null && r.stipend <= q.maxStipend)) &&
    (!q.paidOnly || (r.stipend !== null && r.stipend >= 1)) &&
    (!q.verifiedOnly || r.isVerified || (r.organizationId !== undefined && verified.has(r.organizationId))) &&
    q.search.every((word) => cityVariants(word).some((v) => internshipSearchText(r).includes(v)))
  ).sort((x, y) => x.createdAt !== y.createdAt ? (x.createdAt < y.createdAt ? 1 : -1) : x.id < y.id ? 1 : -1)
    .map((r) => r.id);
}

Deno.test("filters over open and closed listings answer what a plain scan of the records answers", async () => {
  using kv = await Deno.openKv(":memory:");
  const next = random(35);
  const make = (role: "member" | "admin", i: number) =>
    createUser(kv, { name: `${role} ${i}`, email: `${role}${i}@x.example`, emailVerified: true, role });
  const owners = [await make("member", 1), await make("member", 2), await make("admin", 3)];
  const viewers = [null, ...owners];
  const organizations = await resolveOrganizations(kv, ["Zeta Labs", "Kisan Connect", "Pune Works"]);
  await updateAsAdmin(kv, { id: organizations.get("Zeta Labs")!, patch: { isVerified: true } });
  const verified = new Set([organizations.get("Zeta Labs")!]);
  const records = listings(next, owners, 2600, organizations);
  const { model, writer, archive } = await internshipStore(kv);
  for (let i = 0; i < records.length; i += 100) await writer.insert(records.slice(i, i + 100));

  const check = async (label: string) => {
    for (let n = 0; n < 120; n++) {
      const params = query(next);
      const viewer = params.mine ? owners[Math.floor(next() * owners.length)] : viewers[Math.floor(next() * 4)];
      const expected = reference(records, params, viewer, verified);
      const limit = Number(params.limit);
      const offset = next() < 0.5 ? 0 : Math.floor(next() * (expected.length + 5));
      const page = await listInternships(kv, {
        query: InternshipQuerySchema.parse({ ...params, offset: String(offset) }),
        viewer,
        today: TODAY,
      });
      const context = `${label}: ${JSON.stringify({ ...params, offset, viewer: viewer?.role ?? null })}`;
      assertEquals(page.pagination.total, expected.length, context);
      assertEquals(page.internships.map((i) => i.id), expected.slice(offset, offset + limit), context);
    }
  };
  await check("all in the read model");
  const moved = await closeInternships(kv, { today: TODAY, giveWay: () => Promise.resolve() });
  assertEquals(moved, records.filter((r) => r.deletedAt || isClosedOn(r.deadline, TODAY)).length);
  assertEquals(model.slots.live, records.length - moved);
  const directory = await Array.fromAsync(kv.list({ prefix: archive.keys.directory }));
  assertEquals(directory.length > 1, true, `the archive holds several blocks (${directory.length})`);
  await check("closed and deleted ones archived");
  // `mine` then reads the archived ones through the owner index.
  await archive.indexOwners({ giveWay: () => Promise.resolve(), until: Infinity });
  await check("the owner index built");
});
