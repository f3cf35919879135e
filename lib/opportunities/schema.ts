/**
 * The Opportunity resource (docs/api.md, Opportunities, docs/decisions.md, Opportunities): its record, the type
 * and review-state value lists, and the zod schemas of the submission body, the public list
 * query, the admin queue query and the review body.
 */
import { z } from "zod";
import { TextSchema } from "@/lib/text.ts";
import { type FieldProblem, fieldProblems, PARSE_WITH_INPUT } from "@/lib/field_messages.ts";
import { withScheme } from "@/lib/browser/input_formats.ts";
import type { Role } from "@/lib/users/roles.ts";
import {
  isWithheld,
  type Moderation,
  type ModerationStatus,
  type ModerationView,
} from "@/lib/moderation/moderation.ts";
import { SeenUpdatedAtSchema } from "@/lib/moderation/seen_version.ts";

/** Values of `type`. */
export const OPPORTUNITY_TYPES = ["hackathon", "grant", "competition", "ideathon"] as const;
export type OpportunityType = typeof OPPORTUNITY_TYPES[number];

/**
 * Review states, derived from the flags (docs/decisions.md, Opportunities): awaiting review = `isVerified: false,
 * isActive: true`; approved = both true; rejected = `isActive: false`.
 */
export const OPPORTUNITY_STATUSES = ["pending", "approved", "rejected"] as const;
export type OpportunityStatus = typeof OPPORTUNITY_STATUSES[number];

/** Default and largest page sizes: the public list as internships (10, 100), the admin queue 50 and 100. */
export const DEFAULT_LIMIT = 10;
export const ADMIN_DEFAULT_LIMIT = 50;
export const MAX_LIMIT = 100;

/** An opportunity as stored; optional text fields are `null` when unset. Dates are `YYYY-MM-DD`. */
export interface Opportunity {
  id: string;
  title: string;
  description: string | null;
  location: string | null;
  type: OpportunityType;
  startDate: string;
  endDate: string;
  link: string | null;
  organizer: string | null;
  /** The submitter; null once they deleted their account (docs/decisions.md, Data rights). */
  userId: string | null;
  isVerified: boolean;
  isActive: boolean;
  createdAt: string;
  updatedAt: string;
  /** The never-pay rule's and the admins' state (docs/decisions.md, Trust, "Moderation"); absent: clear. */
  moderation?: Moderation;
  /**
   * The last rejection by review, with the reason the admin gave the submitter (docs/decisions.md, Opportunities,
   * "Reject with a reason, resubmit"); kept while a resubmission awaits review, cleared by approval. Absent: none.
   */
  rejection?: Rejection | null;
  /**
   * When it last became public: on submission when published at once, else on approval or on release from a hold
   * (docs/decisions.md, Alerts, "Published, not created"). Absent on records stored before it was kept: `createdAt`.
   */
  publishedAt?: string;
}

/** When `record` became public as alert digests count it (`publishedAt`, else `createdAt`), in ms since the epoch. */
export function publishedMs(record: Pick<Opportunity, "createdAt" | "publishedAt">): number {
  return Date.parse(record.publishedAt ?? record.createdAt);
}

/** A review's rejection: when, and why in the admin's words (null when they gave none). */
export interface Rejection {
  reason: string | null;
  at: string;
}

/** Who posted it, on every read (docs/decisions.md, Opportunities). */
export interface PostedBy {
  id: string;
  name: string;
  role: Role;
}

/**
 * An opportunity as read responses carry it; `postedBy` null for a former member ("Former member"); `isClosed` when
 * its `endDate` is before today in India (docs/decisions.md, Dates); `moderation` as `{status, reasons}`.
 */
export interface OpportunityView extends Omit<Opportunity, "moderation" | "rejection" | "publishedAt"> {
  postedBy: PostedBy | null;
  isClosed: boolean;
  moderation: ModerationView;
  rejection: Rejection | null;
}

/**
 * The review state of a record: one held by moderation awaits review whatever its flags (docs/decisions.md, Trust,
 * "Moderation").
 */
export function statusOf(
  o: Pick<Opportunity, "isVerified" | "isActive"> & { moderation?: { status: ModerationStatus } },
): OpportunityStatus {
  if (!o.isActive) return "rejected";
  return o.isVerified && !isWithheld(o) ? "approved" : "pending";
}

const text = (max: number) => TextSchema.trim().min(1).max(max);
const optionalText = (max: number) => TextSchema.trim().max(max).nullish().transform((v) => v || null);

/** The earliest start or end of an opportunity (docs/decisions.md, Opportunities, "Dates"). */
export const EARLIEST_DATE = "2000-01-01";
/** The latest start or end of an opportunity is this many years after today (UTC). */
export const MAX_YEARS_AHEAD = 3;
/** The end of an opportunity is at most this many years after its start. */
export const MAX_SPAN_YEARS = 2;

/** The date `years` years after `date` (both `YYYY-MM-DD`; 29 February goes to 1 March in a common year). */
function yearsAfter(date: string, years: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCFullYear(d.getUTCFullYear() + years);
  return d.toISOString().slice(0, 10);
}

/** The latest date an opportunity may start or end, `MAX_YEARS_AHEAD` years after `now`'s day in UTC. */
export function latestDate(now = new Date()): string {
  return yearsAfter(now.toISOString().slice(0, 10), MAX_YEARS_AHEAD);
}

/** A real calendar date written `YYYY-MM-DD`, from `EARLIEST_DATE` to `latestDate()`. */
const date = z.string().trim().regex(/^\d{4}-\d{2}-\d{2}$/, "fields.dateFormat").refine((v) => {
  const d = new Date(`${v}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().startsWith(v);
}, "fields.realDate").refine((v) => v >= EARLIEST_DATE, "fields.dateFrom2000")
  .refine((v) => v <= latestDate(), "fields.dateYearsAhead").meta({ format: "date" });

/**
 * A submission body. `title`, `type`, `startDate` and `endDate` are required, each from `EARLIEST_DATE` to
 * `latestDate()`; `endDate` is not before `startDate` nor more than `MAX_SPAN_YEARS` after it; `link` is an http(s)
 * URL. Unknown fields (`isVerified`, `isActive`, `userId`, `id`, timestamps) are dropped: submission sets them.
 */
export const OpportunityCreateSchema = z.object({
  title: text(200),
  description: optionalText(5000),
  location: optionalText(200),
  type: z.enum(OPPORTUNITY_TYPES),
  startDate: date,
  endDate: date,
  link: z.url({ protocol: /^https?$/, hostname: z.regexes.domain }).max(2000).nullish().transform((v) => v ?? null),
  organizer: optionalText(200),
}).refine((o) => o.endDate >= o.startDate, {
  path: ["endDate"],
  message: "fields.endBeforeStart",
}).refine((o) => o.endDate <= yearsAfter(o.startDate, MAX_SPAN_YEARS), {
  path: ["endDate"],
  message: "fields.spanTooLong",
});
export type OpportunityCreate = z.infer<typeof OpportunityCreateSchema>;

/** The fields of the opportunity form, in page order (each control's `name`). */
export const OPPORTUNITY_FORM_FIELDS = [
  "title",
  "type",
  "startDate",
  "endDate",
  "location",
  "organizer",
  "link",
  "description",
] as const;
export type OpportunityFormField = typeof OPPORTUNITY_FORM_FIELDS[number];

/**
 * The opportunity form's text fields (blank ones unset; a link typed without `https://` gets it, docs/decisions.md,
 * Islands, "Input as people type it") as a submission, or the problems of the fields in error: the page's plain HTML
 * form (docs/decisions.md, Islands, "Forms work without JavaScript") checks what `POST /api/opportunities` checks.
 */
export function parseOpportunityForm(
  fields: Record<OpportunityFormField, string>,
): { ok: true; input: OpportunityCreate } | { ok: false; problems: FieldProblem[] } {
  const body = Object.fromEntries(
    Object.entries(fields).map(([name, value]) => [name, (name === "link" ? withScheme(value) : value.trim()) || null]),
  );
  const parsed = OpportunityCreateSchema.safeParse(body, PARSE_WITH_INPUT);
  if (parsed.success) return { ok: true, input: parsed.data };
  return { ok: false, problems: fieldProblems(parsed.error.issues) };
}

const integer = (min: number, max: number) =>
  z.string().trim().regex(/^\d+$/, "Expected an integer").transform(Number).pipe(z.number().int().min(min).max(max));
const words = (search: string | undefined) => (search ?? "").toLowerCase().split(/\s+/).filter(Boolean);

/**
 * The public list query: `type` (one type or several, comma-separated), `search` (alias `q`;
 * every word must occur in the title, description, organizer or location), `limit` 1–100
 * (default 10), `offset`, `includeClosed` (default true: closed ones are listed after the open ones; false leaves
 * them out), and `mine=true` for the caller's own submissions in every state.
 */
export const OpportunityQuerySchema = z.object({
  type: z.string().transform((v) => v.split(",").map((s) => s.trim()).filter(Boolean))
    .pipe(z.array(z.enum(OPPORTUNITY_TYPES))).default([]),
  search: z.string().max(200).optional(),
  q: z.string().max(200).optional(),
  limit: integer(1, MAX_LIMIT).default(DEFAULT_LIMIT),
  offset: integer(0, Number.MAX_SAFE_INTEGER).default(0),
  includeClosed: z.enum(["true", "false"]).transform((v) => v === "true").default(true),
  mine: z.enum(["true", "false"]).transform((v) => v === "true").default(false),
}).transform(({ q, search, ...query }) => ({ ...query, search: words(search ?? q) }));
export type OpportunityQuery = z.infer<typeof OpportunityQuerySchema>;

/** The admin queue query: `status` (default `pending`, or `all`), `search`, `limit` 1–100 (default 50), `offset`. */
export const AdminOpportunityQuerySchema = z.object({
  status: z.enum([...OPPORTUNITY_STATUSES, "all"]).default("pending"),
  search: z.string().max(200).optional(),
  limit: integer(1, MAX_LIMIT).default(ADMIN_DEFAULT_LIMIT),
  offset: integer(0, Number.MAX_SAFE_INTEGER).default(0),
}).transform(({ search, ...query }) => ({ ...query, search: words(search) }));
export type AdminOpportunityQuery = z.infer<typeof AdminOpportunityQuerySchema>;

/** The review body of `PATCH /api/admin/opportunities/{id}`. */
/** Most characters of a rejection's reason. */
export const REASON_MAX = 1000;

/**
 * The review body: `action`, and with `reject` an optional `reason` for the submitter (trimmed, at most `REASON_MAX`
 * characters; blank is none), and optionally the `updatedAt` the admin read (`SeenUpdatedAtSchema`). A reason sent
 * with `approve` is ignored.
 */
export const ReviewSchema = z.object({
  action: z.enum(["approve", "reject"]),
  reason: optionalText(REASON_MAX).describe("Why it was rejected, shown to the submitter (with reject)"),
  updatedAt: SeenUpdatedAtSchema,
});
export type ReviewAction = z.infer<typeof ReviewSchema>["action"];
export type Review = z.infer<typeof ReviewSchema>;
