/**
 * Deterministic generator of realistic internship records for the demo data set and the
 * benchmark: titles, organizations, descriptions, types, timings, tags, Indian cities and
 * remote, stipends from unpaid (0) to ₹50,000 a month or unstated, deadlines and creation
 * times spread over the past months. The same `seed` always gives the same records and ids.
 */
import { type Internship, INTERNSHIP_TIMINGS, INTERNSHIP_TYPES } from "./schema.ts";
import { internshipStore } from "./store.ts";

const ROLES: [string, string[]][] = [
  ["Software Engineering Intern", ["software", "javascript", "react", "node.js"]],
  ["Backend Developer Intern", ["software", "python", "django", "sql"]],
  ["Frontend Developer Intern", ["software", "react", "typescript", "css"]],
  ["Data Science Intern", ["data", "python", "machine learning", "statistics"]],
  ["Data Analyst Intern", ["data", "excel", "sql", "power bi"]],
  ["Machine Learning Intern", ["machine learning", "python", "pytorch", "ai"]],
  ["Product Management Intern", ["product", "strategy", "analytics"]],
  ["UI/UX Design Intern", ["design", "figma", "ux research"]],
  ["Graphic Design Intern", ["design", "illustrator", "branding"]],
  ["Digital Marketing Intern", ["marketing", "seo", "social media"]],
  ["Content Writing Intern", ["content", "writing", "seo"]],
  ["Business Development Intern", ["sales", "business", "communication"]],
  ["Finance Intern", ["finance", "excel", "accounting"]],
  ["Human Resources Intern", ["hr", "recruitment", "communication"]],
  ["Operations Intern", ["operations", "supply chain", "excel"]],
  ["Mobile App Developer Intern", ["software", "flutter", "android", "kotlin"]],
  ["Cloud & DevOps Intern", ["software", "aws", "docker", "linux"]],
  ["Cybersecurity Intern", ["security", "networking", "linux"]],
  ["Research Intern", ["research", "writing", "statistics"]],
  ["Social Media Intern", ["marketing", "social media", "content"]],
];

const ORGANIZATIONS = [
  "Zeta Fintech",
  "Kisan Connect",
  "Byteloom Labs",
  "Swasth Health",
  "Pragati Foundation",
  "CloudNine Systems",
  "Urban Bazaar",
  "Vidya EdTech",
  "Tarang Media",
  "GreenGrid Energy",
  "Nimbus Analytics",
  "Sarthi Logistics",
  "Indus Robotics",
  "PaySetu",
  "Mitti Organics",
  "Chalo Mobility",
  "Kalakaar Studio",
  "Arogya AI",
  "Yatra Ventures",
  "Shakti Microfinance",
  "Quantum Leaf",
  "Desi Threads",
  "Saksham NGO",
  "Bharat DataWorks",
];

const CITIES = [
  "Bengaluru, Karnataka",
  "Mumbai, Maharashtra",
  "Pune, Maharashtra",
  "Hyderabad, Telangana",
  "Chennai, Tamil Nadu",
  "New Delhi, Delhi",
  "Gurugram, Haryana",
  "Noida, Uttar Pradesh",
  "Kolkata, West Bengal",
  "Ahmedabad, Gujarat",
  "Jaipur, Rajasthan",
  "Kochi, Kerala",
  "Indore, Madhya Pradesh",
  "Chandigarh",
  "Bhubaneswar, Odisha",
];

const MANAGERS = ["Priya Sharma", "Arjun Mehta", "Neha Iyer", "Rahul Verma", "Ananya Rao", "Vikram Singh", null];
const DURATIONS = ["1 month", "2 months", "3 months", "6 months", null];
const EXPERIENCE = ["No experience needed", "Beginner", "Some project experience", "0-1 years", null];
const STIPENDS = [0, 0, 2000, 5000, 5000, 8000, 10000, 10000, 12000, 15000, 15000, 20000, 25000, 30000, 40000, 50000];
const PERKS = [
  "Certificate and letter of recommendation on completion.",
  "Flexible hours and a mentor from the core team.",
  "Pre-placement offer for strong performers.",
  "Work on live projects used by thousands of customers.",
  "Weekly learning sessions with senior engineers and managers.",
];

/** A small seeded pseudo-random generator (mulberry32) returning numbers in [0, 1). */
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

function uuidFrom(next: () => number): string {
  const hex = Array.from({ length: 32 }, () => Math.floor(next() * 16).toString(16));
  hex[12] = "4";
  hex[16] = "89ab"[Math.floor(next() * 4)];
  const h = hex.join("");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/**
 * `count` internship records owned in turn by `ownerIds`, created within the 120 days before
 * `now` (ms), about 5 % inactive and 3 % soft-deleted when `withHidden` is set.
 */
export function generateInternships(
  count: number,
  ownerIds: string[],
  options: { seed?: number; now?: number; withHidden?: boolean } = {},
): Internship[] {
  const next = random(options.seed ?? 1);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)];
  const now = options.now ?? Date.now();
  const records: Internship[] = [];
  for (let i = 0; i < count; i++) {
    const [title, roleTags] = pick(ROLES);
    const organization = pick(ORGANIZATIONS);
    const type = next() < 0.05 ? null : pick(INTERNSHIP_TYPES);
    const city = pick(CITIES);
    const createdAt = new Date(now - Math.floor(next() * 120 * 86_400_000)).toISOString();
    const deadline = new Date(Date.parse(createdAt) + (15 + Math.floor(next() * 60)) * 86_400_000);
    const stipend = next() < 0.1 ? null : pick(STIPENDS);
    const hidden = options.withHidden ? next() : 1;
    records.push({
      id: uuidFrom(next),
      title,
      description:
        `${organization} is looking for a ${title.toLowerCase()} to join the team${
          type === "remote" ? " remotely" : ` in ${city.split(",")[0]}`
        }. You will work on ${roleTags.slice(0, 2).join(" and ")} with a small team, ship real work every week ` +
        `and learn from experienced mentors. ${pick(PERKS)}`,
      type,
      timing: next() < 0.1 ? null : pick(INTERNSHIP_TIMINGS),
      link: `https://careers.${organization.toLowerCase().replace(/[^a-z]+/g, "")}.in/jobs/${i + 1}`,
      hiringOrganization: organization,
      hiringManager: pick(MANAGERS),
      tags: [...roleTags.slice(0, 1 + Math.floor(next() * roleTags.length))],
      stipend,
      duration: pick(DURATIONS),
      experience: pick(EXPERIENCE),
      location: type === "remote" ? "Remote" : city,
      deadline: next() < 0.15 ? null : deadline.toISOString().slice(0, 10),
      isVerified: next() < 0.7,
      isActive: hidden < 0.03 || hidden >= 0.08,
      userId: ownerIds[i % ownerIds.length],
      createdAt,
      updatedAt: createdAt,
      deletedAt: hidden < 0.03 ? createdAt : null,
    });
  }
  return records;
}

/** Records per atomic write of `importInternships` (about 400 KB of records and their index, under KV's 800 KiB). */
const IMPORT_BATCH = 300;

/**
 * Stores the records whose ids are not stored yet, in atomic batches of `IMPORT_BATCH`, in list order
 * (newest first, ties by id descending; docs/decisions.md, Internships), so that records next to each other in
 * the list share a chunk: a page then reads one or two record chunks, not one chunk per record as
 * records in arbitrary order did. Each stored record is the oldest so far, so the read model
 * appends it to its order instead of moving the whole order. Returns how many were new.
 */
export async function importInternships(kv: Deno.Kv, records: Internship[]): Promise<number> {
  const { model, writer } = await internshipStore(kv);
  const fresh = records.filter((record) => model.slotOf(record.id) === undefined)
    .map((record) => ({ record, createdMs: Date.parse(record.createdAt) }))
    .sort((a, b) => b.createdMs - a.createdMs || (a.record.id < b.record.id ? 1 : a.record.id > b.record.id ? -1 : 0))
    .map(({ record }) => record);
  for (let i = 0; i < fresh.length; i += IMPORT_BATCH) await writer.insert(fresh.slice(i, i + IMPORT_BATCH));
  return fresh.length;
}
