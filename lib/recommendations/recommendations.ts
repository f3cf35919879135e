/**
 * Recommendations (docs/decisions.md, Recommendations; docs/api.md, Recommendations): the open internships and
 * opportunities and the toolkits that fit what a person declared in onboarding and on their profile, each with a
 * score in [0, 1] and the reasons, codes naming what matched with their values (`RecommendationReason`; the page words
 * them in the reader's language). Only declared answers are used, never what the person viewed or clicked.
 *
 * Signals: interests (`domainPreferences`, the profile's `fieldInterests`, `fieldOfStudy` or `fieldOther`), each with
 * keywords (`INTEREST_KEYWORDS`, or the words of the interest itself); the location (`locationValue`); the
 * opportunity types (`opportunityInterests` of onboarding and profile); the struggles (`struggles`, with
 * `STRUGGLE_KEYWORDS`). A keyword matches a word that equals it or, from 4 letters on, starts with it; a keyword of
 * several words matches that phrase.
 *
 * Scores are sums of the named weights below (each kind's weights sum to 1):
 * - internship: an interest among its tags `W_INTEREST_TAG`, in its text (title, description, organization; keywords
 *   of 4 letters or more, through the list's search index) `W_INTEREST_TEXT`; in the person's place `W_LOCATION`;
 * - opportunity: its type among the person's opportunity interests `W_OPPORTUNITY_TYPE`, an interest in its title or
 *   description `W_INTEREST_TEXT`, in the person's place `W_LOCATION`;
 * - toolkit: a struggle in its category or title `W_STRUGGLE`, an interest in its category, title or description
 *   `W_TOOLKIT_INTEREST`.
 * What the person chose counts more than what is near it, so the generic never crowds out the declared: the field of
 * study, an interest they did not pick but studied, counts `W_FIELD_FACTOR` of a chosen interest; a listing elsewhere
 * in their state, or remote or online (which suit every place), scores `W_NEARBY` rather than `W_LOCATION`. The place
 * is each part of `locationValue` ("Pune, Maharashtra": the city Pune in Maharashtra; a state alone covers its cities),
 * matched as whole names under any of a city's names.
 * Higher scores first, ties newest first. Left out: what the public lists do not show (closed, inactive, deleted,
 * unpublished), what the person saved, and toolkits they bought. Someone who declared nothing gets the newest open
 * listings with score 0 and no reasons.
 */
import { z } from "zod";
import { istToday } from "@/lib/dates.ts";
import { cityVariants } from "@/lib/internships/cities.ts";
import { type IndianState, indianState } from "@/lib/purchases/indian_states.ts";
import { stateOfPlace } from "@/lib/purchases/place_of_supply.ts";
import { dayNumber, typeCode } from "@/lib/internships/columns.ts";
import { type InternshipView, publicInternshipsById } from "@/lib/internships/internships.ts";
import { internshipStore } from "@/lib/internships/store.ts";
import { getOnboardingProfile } from "@/lib/onboarding/onboarding.ts";
import { openPublishedOpportunities, type OpportunityView } from "@/lib/opportunities/opportunities.ts";
import { ownedToolkitIds } from "@/lib/purchases/purchases.ts";
import { type SavedRecord, savedRecordsOf } from "@/lib/saved/saved.ts";
import { listActiveToolkits, type Toolkit } from "@/lib/toolkits/catalog.ts";
import type { User } from "@/lib/users/users.ts";
import {
  W_FIELD_FACTOR,
  W_INTEREST_TAG,
  W_INTEREST_TEXT,
  W_LOCATION,
  W_NEARBY,
  W_OPPORTUNITY_TYPE,
  W_STRUGGLE,
  W_TOOLKIT_INTEREST,
} from "./weights.ts";

export * from "./weights.ts";

/** What can be recommended. */
export const RECOMMENDATION_KINDS = ["internships", "opportunities", "toolkits"] as const;
export type RecommendationKind = typeof RECOMMENDATION_KINDS[number];

/** The query of `GET /api/me/recommendations`: `kind` required, `limit` 1–50 (default 10). */
export const RecommendationQuerySchema = z.object({
  kind: z.enum(RECOMMENDATION_KINDS),
  limit: z.coerce.number().int().min(1).max(50).default(10),
});
export type RecommendationQuery = z.infer<typeof RecommendationQuerySchema>;

/**
 * Why a listing was picked, a code with its values, worded for the reader by the page (`components/ForYou.tsx`):
 * `interest` one of the person's interests or opportunity types (`label` as stored: "Data & AI", "hackathons"),
 * `field` their field of study (`label`), `place` their place as they wrote it, `state` elsewhere in their state (its
 * name), `remote` remote or online (open wherever they are), `helpsWith` one of their struggles (`label` as stored:
 * "Building a resume").
 */
export type RecommendationReason =
  | { code: "interest"; label: string }
  | { code: "field"; label: string }
  | { code: "place"; place: string }
  | { code: "state"; state: string }
  | { code: "remote" }
  | { code: "helpsWith"; label: string };

/** One recommendation: the listing as the public read answers it, its score and why. */
export interface Recommendation<L> {
  listing: L;
  score: number;
  reasons: RecommendationReason[];
}

/** Recommendations of each kind. */
export interface RecommendationsByKind {
  internships: Recommendation<InternshipView>[];
  opportunities: Recommendation<OpportunityView>[];
  toolkits: Recommendation<Toolkit>[];
}

/** Keywords of the interests onboarding and the profile offer (domain preferences and fields of study). */
export const INTEREST_KEYWORDS: Record<string, string[]> = {
  "software development": ["software", "developer", "backend", "frontend", "full stack", "web development", "coding"],
  "data & ai": ["data", "ai", "ml", "machine learning", "analytics", "analyst", "artificial intelligence"],
  "product management": ["product"],
  "design": ["design", "ui", "ux", "figma"],
  "marketing": ["marketing", "seo", "social media", "brand", "growth"],
  "finance": ["finance", "financial", "accounting", "investment", "banking", "fintech"],
  "consulting": ["consulting", "consultant", "strategy"],
  "research": ["research"],
  "entrepreneurship": ["startup", "entrepreneur", "founder"],
  "social impact": ["ngo", "nonprofit", "impact", "sustainability"],
  "engineering": ["engineering", "engineer"],
  "computer science": ["software", "developer", "computer", "programming", "coding"],
  "business": ["business", "operations", "management"],
  "commerce": ["commerce", "accounting", "finance"],
  "arts & humanities": ["writing", "content", "humanities", "arts"],
  "science": ["science", "research", "laboratory"],
  "law": ["legal", "law"],
  "medicine": ["medical", "health", "healthcare", "clinical"],
};

/** Keywords of the struggles onboarding offers, matched against toolkit categories and titles. */
export const STRUGGLE_KEYWORDS: Record<string, string[]> = {
  "finding opportunities": ["opportunit", "internship", "job search", "career"],
  "building a resume": ["resume", "cv", "portfolio"],
  "preparing for interviews": ["interview"],
  "networking": ["network", "linkedin", "outreach"],
  "choosing a career path": ["career"],
  "learning new skills": ["skill", "course", "learn", "bootcamp"],
  "getting referrals": ["referral", "network", "cold email"],
};

/** At most this many interests count (a person's lists hold at most 20 each). */
const MAX_INTERESTS = 30;
const STOP_WORDS = new Set(["and", "the", "for", "with", "other"]);

/** Something a person declared, with the words that find it in a listing and the reason that names it. */
interface Signal {
  reason: RecommendationReason;
  /** 1 for what the person chose, `W_FIELD_FACTOR` for their field of study. */
  weight: number;
  keywords: string[];
  /** Whether `text` (lower case) mentions one of the keywords. */
  test: (text: string) => boolean;
}

/** What a person declared, as the scoring uses it. */
interface Signals {
  /** Chosen interests first, then the field of study. */
  interests: Signal[];
  /** The cities of the person's place, lower case, under each of their names; empty when not given or only a state. */
  places: string[];
  /** The state of the person's place (named, or that of their city); null when unknown. */
  state: IndianState | null;
  /** As the person wrote it, for the reason; null when not given. */
  place: string | null;
  /** Opportunity types (singular, lower case) the person is interested in, with the reason. */
  types: Map<string, RecommendationReason>;
  struggles: Signal[];
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** A test for `keywords`: a word equal to a keyword or, from 4 letters on, starting with it; a phrase as a whole. */
function keywordTest(keywords: string[]): (text: string) => boolean {
  if (keywords.length === 0) return () => false;
  const parts = keywords.map((k) => k.length >= 4 ? escape(k) : `${escape(k)}(?![a-z0-9])`);
  const pattern = new RegExp(`(?:^|[^a-z0-9])(?:${parts.join("|")})`);
  return (text) => pattern.test(text);
}

/** The keywords of an interest or struggle named `label`: the known ones, else the label's own words. */
function keywordsOf(label: string, known: Record<string, string[]>): string[] {
  const key = label.trim().toLowerCase();
  return known[key] ?? key.split(/[^a-z0-9+#]+/).filter((word) => word.length >= 3 && !STOP_WORDS.has(word));
}

function signal(reason: RecommendationReason, label: string, known: Record<string, string[]>, weight = 1): Signal {
  const keywords = keywordsOf(label, known);
  return { reason, weight, keywords, test: keywordTest(keywords) };
}

/** Words of a place that name no city or state ("India"). */
const NOT_A_PLACE = new Set(["india", "bharat"]);

/** Whether `text` (lower case) holds `name` as whole words ("pune" is in "pune, maharashtra", not in "puneet"). */
function holdsName(text: string, name: string): boolean {
  const at = text.indexOf(name);
  if (at === -1) return false;
  const boundary = (c: string | undefined) => c === undefined || !/[a-z0-9]/.test(c);
  return (boundary(text[at - 1]) && boundary(text[at + name.length])) ||
    holdsName(text.slice(at + 1), name);
}

/** The cities (each under all of its names) and the state of a place a person wrote, e.g. "Pune, Maharashtra". */
function placeOf(value: string): { places: string[]; state: IndianState | null } {
  const parts = value.toLowerCase().split(/[,/(|)]/).map((part) => part.trim().replace(/\s+/g, " "));
  const cities = parts.filter((part) => part.length >= 3 && !NOT_A_PLACE.has(part) && !indianState(part));
  return { places: cities.flatMap(cityVariants), state: stateOfPlace(value) };
}

/** `user`'s declared signals: onboarding answers and profile interests. */
async function signalsOf(kv: Deno.Kv, user: User): Promise<Signals> {
  const onboarding = await getOnboardingProfile(kv, user.id);
  const interests = new Map<string, Signal>();
  const add = (label: string, reason: RecommendationReason, weight = 1) => {
    const key = label.trim().toLowerCase();
    if (key && !interests.has(key)) interests.set(key, signal(reason, label, INTEREST_KEYWORDS, weight));
  };
  for (const label of onboarding?.domainPreferences ?? []) add(label, { code: "interest", label });
  for (const label of user.fieldInterests) add(label, { code: "interest", label });
  const field = onboarding?.fieldOfStudy === "Other" ? onboarding.fieldOther : onboarding?.fieldOfStudy;
  if (field) add(field, { code: "field", label: field }, W_FIELD_FACTOR);
  const types = new Map<string, RecommendationReason>();
  for (const label of [...onboarding?.opportunityInterests ?? [], ...user.opportunityInterests]) {
    const type = label.trim().toLowerCase().replace(/s$/, "");
    if (type && !types.has(type)) types.set(type, { code: "interest", label: label.trim().toLowerCase() });
  }
  const place = onboarding?.locationValue?.trim() || null;
  return {
    interests: [...interests.values()].filter((s) => s.keywords.length > 0).slice(0, MAX_INTERESTS),
    ...(place ? placeOf(place) : { places: [], state: null }),
    place,
    types,
    struggles: (onboarding?.struggles ?? []).map((label) =>
      signal({ code: "helpsWith", label: label.trim() }, label, STRUGGLE_KEYWORDS)
    ).filter((s) => s.keywords.length > 0),
  };
}

/** A score of summed weights, to two decimals (so 0.4 + 0.3 reads 0.7). */
const rounded = (score: number) => Math.round(score * 100) / 100;

/** The state code of each listing location seen (lower case), or "" for none: the same few names recur. */
const stateCodes = new Map<string, string>();
const STATE_CODES_KEPT = 20_000;

function stateCodeOf(location: string): string {
  let code = stateCodes.get(location);
  if (code === undefined) {
    code = stateOfPlace(location)?.code ?? "";
    if (stateCodes.size >= STATE_CODES_KEPT) stateCodes.clear();
    stateCodes.set(location, code);
  }
  return code;
}

const REMOTE = /(^|[^a-z])(remote|online|anywhere)([^a-z]|$)/;

/** How a listing's `location` (lower case) fits the person's place, if they gave one. */
type PlaceFit = "place" | "state" | "remote" | null;

function placeFit(location: string, remote: boolean, { places, state, place }: Signals): PlaceFit {
  if (place === null) return null;
  if (places.some((name) => holdsName(location, name))) return "place";
  if (state && location !== "" && stateCodeOf(location) === state.code) return places.length > 0 ? "state" : "place";
  return remote || REMOTE.test(location) ? "remote" : null;
}

/** The weight of a place fit. */
const PLACE_WEIGHT = { place: W_LOCATION, state: W_NEARBY, remote: W_NEARBY } as const;

/** The reason of a place fit. */
function placeReason(fit: Exclude<PlaceFit, null>, signals: Signals): RecommendationReason {
  if (fit === "place") return { code: "place", place: signals.place! };
  return fit === "state" ? { code: "state", state: signals.state!.name } : { code: "remote" };
}

/** Keeps the `limit` best of what it is offered: higher scores first, and of equal ones those offered first. */
class TopK<T> {
  readonly items: { item: T; score: number }[] = [];
  constructor(private readonly limit: number) {}

  offer(item: T, score: number): void {
    const { items } = this;
    if (items.length === this.limit && score <= items[items.length - 1].score) return;
    let at = items.length;
    while (at > 0 && items[at - 1].score < score) at--;
    items.splice(at, 0, { item, score });
    if (items.length > this.limit) items.pop();
  }
}

/** Search marks of internship text words, kept per read-model version (keyword sets repeat across people). */
const textMarkCache = new Map<string, Uint8Array>();
const TEXT_MARKS_KEPT = 64;

type InternshipModel = Awaited<ReturnType<typeof internshipStore>>["model"];

/** Marks, by slot, the internships whose text holds one of `keywords` (those of 4 letters or more). */
function internshipTextMarks(model: InternshipModel, keywords: string[]): Uint8Array | null {
  const usable = keywords.filter((k) => k.length >= 4);
  if (usable.length === 0) return null;
  const key = `${model.version}\0${usable.join("\0")}`;
  let marks = textMarkCache.get(key);
  if (!marks) {
    marks = new Uint8Array(model.slots.count);
    for (const keyword of usable) {
      const found = model.searchMarks(keyword.split(/\s+/));
      for (let slot = 0; slot < found.length; slot++) marks[slot] |= found[slot];
    }
    if (textMarkCache.size >= TEXT_MARKS_KEPT) textMarkCache.delete(textMarkCache.keys().next().value!);
    textMarkCache.set(key, marks);
  }
  return marks;
}

/** What listing recommendations weigh: the person's signals, the ids they saved (left out), how many, IST `today`. */
interface ListingPick {
  signals: Signals;
  saved: Set<string>;
  limit: number;
  today: string;
}

async function recommendInternships(
  kv: Deno.Kv,
  { signals, saved, limit, today }: ListingPick,
): Promise<Recommendation<InternshipView>[]> {
  const { model } = await internshipStore(kv);
  const { columns } = model;
  const view = columns.publicView();
  const day = dayNumber(today);
  const { interests } = signals;
  // The best (first: chosen ones come first) interest among a tag list's tags, -1 for none; lists are shared.
  const tagBest = new Map<readonly string[], number>();
  const tagInterest = (tags: readonly string[]) => {
    let best = tagBest.get(tags);
    if (best === undefined) {
      best = interests.findIndex((s) => tags.some((tag) => s.test(tag)));
      tagBest.set(tags, best);
    }
    return best;
  };
  // By slot, 1 + the best interest found in the listing's text, 0 for none.
  const textInterest = new Uint8Array(interests.length > 0 ? model.slots.count : 0);
  for (let k = interests.length - 1; k >= 0; k--) {
    const marks = internshipTextMarks(model, interests[k].keywords);
    if (marks) { for (let slot = 0; slot < marks.length; slot++) if (marks[slot]) textInterest[slot] = k + 1; }
  }
  const remote = typeCode("remote");
  const fitOf = columns.locations.names.map((name) => placeFit(name, false, signals));
  const fitAt = (i: number) =>
    fitOf[view.locationCodes[i]] ?? (view.types[i] === remote ? placeFit("", true, signals) : null);
  const excluded = new Set([...saved].flatMap((id) => model.slotOf(id) ?? []));
  const top = new TopK<number>(limit);
  const scoring = interests.length > 0 || signals.place !== null;
  const { slots, deadlineDays } = view;
  for (let i = 0; i < slots.length; i++) {
    if (deadlineDays[i] < day) continue;
    const slot = slots[i];
    if (excluded.has(slot)) continue;
    let score = 0;
    if (scoring) {
      const tag = interests.length > 0 ? tagInterest(columns.tags[slot]) : -1;
      if (tag !== -1) score += W_INTEREST_TAG * interests[tag].weight;
      const text = interests.length > 0 ? textInterest[slot] : 0;
      if (text !== 0) score += W_INTEREST_TEXT * interests[text - 1].weight;
      const fit = fitAt(i);
      if (fit) score += PLACE_WEIGHT[fit];
    }
    top.offer(slot, rounded(score));
    if (!scoring && top.items.length === limit) break;
  }
  const ids = top.items.map(({ item }) => model.slots.ids[item]);
  const listings = await publicInternshipsById(kv, ids, today);
  return top.items.flatMap(({ item: slot, score }, i) => {
    const listing = listings.get(ids[i]);
    if (!listing) return [];
    const reasons: RecommendationReason[] = [];
    const tag = interests.length > 0 ? tagInterest(columns.tags[slot]) : -1;
    const text = interests.length > 0 ? textInterest[slot] - 1 : -1;
    const matched = tag === -1 ? text : text === -1 ? tag : Math.min(tag, text);
    if (matched !== -1) reasons.push(interests[matched].reason);
    const fit = placeFit((listing.location ?? "").toLowerCase(), listing.type === "remote", signals);
    if (fit) reasons.push(placeReason(fit, signals));
    return [{ listing, score, reasons }];
  });
}

async function recommendOpportunities(
  kv: Deno.Kv,
  { signals, saved, limit, today }: ListingPick,
): Promise<Recommendation<OpportunityView>[]> {
  const open = (await openPublishedOpportunities(kv, today)).filter((o) => !saved.has(o.id))
    .sort((a, b) => b.createdAt.localeCompare(a.createdAt));
  const top = new TopK<Recommendation<OpportunityView>>(limit);
  for (const listing of open) {
    const reasons: RecommendationReason[] = [];
    let score = 0;
    const typeReason = signals.types.get(listing.type);
    if (typeReason) {
      score += W_OPPORTUNITY_TYPE;
      reasons.push(typeReason);
    }
    const text = `${listing.title}\n${listing.description}`.toLowerCase();
    const interest = signals.interests.find((s) => s.test(text));
    if (interest) {
      score += W_INTEREST_TEXT * interest.weight;
      reasons.push(interest.reason);
    }
    const fit = placeFit((listing.location ?? "").toLowerCase(), false, signals);
    if (fit) {
      score += PLACE_WEIGHT[fit];
      reasons.push(placeReason(fit, signals));
    }
    top.offer({ listing, score: rounded(score), reasons }, rounded(score));
  }
  return top.items.map(({ item }) => item);
}

async function recommendToolkits(
  kv: Deno.Kv,
  { user, signals, limit }: { user: User; signals: Signals; limit: number },
) {
  const owned = new Set(await ownedToolkitIds(kv, user.id));
  const top = new TopK<Recommendation<Toolkit>>(limit);
  for (const listing of await listActiveToolkits(kv)) {
    if (owned.has(listing.id)) continue;
    const reasons: RecommendationReason[] = [];
    let score = 0;
    const heading = `${listing.category ?? ""}\n${listing.title}`.toLowerCase();
    const struggle = signals.struggles.find((s) => s.test(heading));
    if (struggle) {
      score += W_STRUGGLE;
      reasons.push(struggle.reason);
    }
    const interest = signals.interests.find((s) => s.test(`${heading}\n${listing.description}`.toLowerCase()));
    if (interest) {
      score += W_TOOLKIT_INTEREST * interest.weight;
      reasons.push(interest.reason);
    }
    top.offer({ listing, score: rounded(score), reasons }, rounded(score));
  }
  return top.items.map(({ item }) => item);
}

/**
 * The `limit` best listings of `kind` for `user` on IST day `today` (see the module docstring), best first. Listings
 * the person saved are left out: `saved` are their saved records when the caller read them already (the home page
 * reads them once for its parts), otherwise they are read here, beside the person's signals.
 */
export async function recommend<K extends RecommendationKind>(
  kv: Deno.Kv,
  { user, kind, limit, today = istToday(), saved: given }: {
    user: User;
    kind: K;
    limit: number;
    today?: string;
    saved?: readonly SavedRecord[];
  },
): Promise<RecommendationsByKind[K]> {
  if (kind === "toolkits") {
    const signals = await signalsOf(kv, user);
    return await recommendToolkits(kv, { user, signals, limit }) as RecommendationsByKind[K];
  }
  const [signals, records] = await Promise.all([signalsOf(kv, user), given ?? savedRecordsOf(kv, user.id)]);
  const saved = new Set(records.filter((record) => record.kind === kind).map((record) => record.id));
  return (kind === "internships"
    ? await recommendInternships(kv, { signals, saved, limit, today })
    : await recommendOpportunities(kv, { signals, saved, limit, today })) as RecommendationsByKind[K];
}
