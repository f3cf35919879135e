/**
 * Saved items and the application tracker (docs/api.md, Student space; docs/decisions.md, Student space): the kinds,
 * statuses and limits, the record and item types, and the zod schemas of the `PUT` body and the list query.
 */
import { z } from "zod";
import { TextSchema } from "@/lib/text.ts";
import { REFUSALS } from "@/lib/refusals.ts";
import { type InternshipView, MAX_LIMIT } from "@/lib/internships/schema.ts";
import type { OpportunityView } from "@/lib/opportunities/schema.ts";

/** What can be saved: the path segment `{kind}` of `/api/me/saved/{kind}/{id}`. */
export const SAVED_KINDS = ["internships", "opportunities"] as const;
export type SavedKind = typeof SAVED_KINDS[number];

/** The tracker's statuses, in the order of an application's course. */
export const SAVED_STATUSES = ["saved", "applied", "interviewing", "offer", "rejected"] as const;
export type SavedStatus = typeof SAVED_STATUSES[number];

/** Most items one person may save. */
export const MAX_SAVED = 500;
/** Longest note, in characters. */
export const NOTE_MAX = 500;
/** The error of the save past `MAX_SAVED`. */
export const TOO_MANY_SAVED = REFUSALS.tooManySaved;

/** A saved item as stored: which listing, its tracker status and note, and when it was saved and changed. */
export interface SavedRecord {
  kind: SavedKind;
  id: string;
  status: SavedStatus;
  /** Plain text, "" for none. */
  note: string;
  savedAt: string;
  updatedAt: string;
  statusChangedAt: string;
}

/** A saved item as answered: the record and its listing as the public read answers it (null once deleted or hidden). */
export type SavedItem =
  | SavedRecord & { kind: "internships"; listing: InternshipView | null }
  | SavedRecord & { kind: "opportunities"; listing: OpportunityView | null };

/** What the tracker shows of a saved item's listing: its title, organization and last day (`YYYY-MM-DD` or null). */
export interface TrackerListing {
  title: string;
  organization: string | null;
  lastDay: string | null;
}

/**
 * A saved item as the tracker page carries it: the record and what a row shows of its listing (null once deleted or
 * hidden), not the listing's description and other fields.
 */
export type TrackerItem = SavedRecord & { listing: TrackerListing | null };

/** Whether `value` names a kind (a bad `{kind}` in a path is 404, not 400). */
export function isSavedKind(value: string): value is SavedKind {
  return (SAVED_KINDS as readonly string[]).includes(value);
}

/**
 * The body of `PUT /api/me/saved/{kind}/{id}`: `status` one of `SAVED_STATUSES`, `note` plain text of at most 500
 * characters (trimmed; null clears it). Either may be absent: the item keeps what it has (a new one: `saved`, "").
 */
export const SavedChangeSchema = z.object({
  status: z.enum(SAVED_STATUSES).optional(),
  note: TextSchema.trim().max(NOTE_MAX).nullable().optional().transform((note) => note === null ? "" : note),
});
export type SavedChange = z.infer<typeof SavedChangeSchema>;

/**
 * Where a page of saved items ends: the last item's `updatedAt`, kind and id, joined by `~` (what `nextCursor` holds
 * and `cursor` takes back).
 */
const CURSOR = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z)~(internships|opportunities)~([^~]{1,100})$/;

/** A place in the saved list's order (newest `updatedAt` first, then kind and id): the item a page ended with. */
export interface SavedCursor {
  updatedAt: string;
  kind: SavedKind;
  id: string;
}

/** `item` as the `nextCursor` of a page that ends with it. */
export function cursorOf(item: SavedCursor): string {
  return `${item.updatedAt}~${item.kind}~${item.id}`;
}

/**
 * The query of `GET /api/me/saved`: `kind` and `status` narrow the list (absent or empty: all); `limit` items a page,
 * 1–500 (default 500, so one page holds anyone's items); `cursor`, the previous page's `nextCursor`, reads on after it.
 */
export const SavedQuerySchema = z.object({
  kind: z.union([z.enum(SAVED_KINDS), z.literal("").transform(() => undefined)]).optional(),
  status: z.union([z.enum(SAVED_STATUSES), z.literal("").transform(() => undefined)]).optional(),
  limit: z.coerce.number().int().min(1).max(MAX_SAVED).default(MAX_SAVED),
  cursor: z.string().regex(CURSOR, "Expected the nextCursor of a previous page").optional()
    .transform((cursor): SavedCursor | undefined => {
      const [, updatedAt, kind, id] = cursor?.match(CURSOR) ?? [];
      return cursor === undefined ? undefined : { updatedAt, kind: kind as SavedKind, id };
    })
    .describe("The `nextCursor` of the previous page: the items after it"),
});
export type SavedQuery = z.infer<typeof SavedQuerySchema>;

/**
 * The query of `GET /api/me/saved/ids`: `internships`, the comma-separated ids of the internship cards a page shows (at
 * most 100, a list page's most), for which `applied` says when the person applied (absent: none are asked about).
 */
export const SavedIdsQuerySchema = z.object({
  internships: z.string().transform((ids) => ids.split(",").map((id) => id.trim()).filter(Boolean))
    .pipe(z.array(z.string().max(100)).max(MAX_LIMIT, `Expected at most ${MAX_LIMIT} ids`))
    .optional()
    .transform((ids) => ids ?? [])
    .describe(`The ids of the internships shown, comma-separated, at most ${MAX_LIMIT}`),
});
