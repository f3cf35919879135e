/**
 * zod schemas of the opportunity create body, the list queries and the review body
 * (CONTRACT.md §5 and §8).
 */
import { z } from "zod";
import { OPPORTUNITY_STATUSES, OPPORTUNITY_TYPES, REVIEW_ACTIONS } from "./types.ts";

/** Largest page size of every list. */
export const MAX_LIMIT = 100;
/** Default page size of the public list (as for internships). */
export const DEFAULT_LIMIT = 10;
/** Default page size of the admin queue (CONTRACT.md §5). */
export const ADMIN_DEFAULT_LIMIT = 50;

const text = (max: number) => z.string().trim().min(1).max(max);
const optionalText = (max: number) => z.string().trim().max(max).nullish().transform((v) => v || null);

/** A real calendar date written `YYYY-MM-DD`. */
const calendarDate = z.string().trim().refine((v) => {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(v)) return false;
  const d = new Date(`${v}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().startsWith(v);
}, "Invalid date: expected YYYY-MM-DD");

/**
 * A create body: `title`, `description`, `location`, `type`, `startDate`, `endDate` (not before
 * `startDate`), optional `link` (http(s) URL) and `organizer`. Other fields (`isVerified`,
 * `isActive`, `userId`, `id`, timestamps) are dropped: creation sets them.
 */
export const OpportunityCreateSchema = z.object({
  title: text(200),
  description: text(5000),
  location: text(200),
  type: z.enum(OPPORTUNITY_TYPES),
  startDate: calendarDate,
  endDate: calendarDate,
  link: z.url({ protocol: /^https?$/, hostname: z.regexes.domain }).max(2000).nullish().or(z.literal(""))
    .transform((v) => v || null),
  organizer: optionalText(200),
}).refine((o) => o.endDate >= o.startDate, { path: ["endDate"], message: "endDate must not be before startDate" });
export type OpportunityCreate = z.infer<typeof OpportunityCreateSchema>;

const integer = (min: number, max: number) =>
  z.string().trim().regex(/^-?\d+$/, "Expected an integer").transform(Number).pipe(z.number().int().min(min).max(max));
const words = (v: string | undefined) => (v ?? "").toLowerCase().split(/\s+/).filter(Boolean);

/**
 * Query of `GET /api/opportunities`: `type`, `search` (alias `q`; every word a case-insensitive
 * substring of title, description, location or organizer), `limit` 1–100 (default 10), `offset`
 * ≥ 0, `mine=true` (the caller's own in every state; needs a session).
 */
export const OpportunityQuerySchema = z.object({
  type: z.enum(OPPORTUNITY_TYPES).optional(),
  search: z.string().max(200).optional(),
  q: z.string().max(200).optional(),
  limit: integer(1, MAX_LIMIT).default(DEFAULT_LIMIT),
  offset: integer(0, Number.MAX_SAFE_INTEGER).default(0),
  mine: z.enum(["true", "false"]).transform((v) => v === "true").default(false),
}).transform(({ q, search, ...rest }) => ({ ...rest, search: words(search ?? q) }));
export type OpportunityQuery = z.infer<typeof OpportunityQuerySchema>;

/**
 * Query of `GET /api/admin/opportunities`: `status` (`pending`, `approved`, `rejected`, `all`;
 * default `pending`), `search`, `limit` 1–100 (default 50), `offset` ≥ 0.
 */
export const AdminQueueQuerySchema = z.object({
  status: z.enum([...OPPORTUNITY_STATUSES, "all"]).default("pending"),
  search: z.string().max(200).optional(),
  limit: integer(1, MAX_LIMIT).default(ADMIN_DEFAULT_LIMIT),
  offset: integer(0, Number.MAX_SAFE_INTEGER).default(0),
}).transform(({ search, ...rest }) => ({ ...rest, search: words(search) }));
export type AdminQueueQuery = z.infer<typeof AdminQueueQuerySchema>;

/** Body of `PATCH /api/admin/opportunities/{id}`. */
export const ReviewSchema = z.object({ action: z.enum(REVIEW_ACTIONS) });
