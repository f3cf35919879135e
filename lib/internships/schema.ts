/**
 * The Internship resource (docs/api.md, Internships, docs/decisions.md, Internships): its record type, the
 * enum value lists, and the zod schemas of the create and update bodies and the list query.
 */
import { z } from "zod";
import { TextSchema } from "@/lib/text.ts";
import type { Role } from "@/lib/users/users.ts";
import type { Moderation, ModerationView } from "@/lib/moderation/moderation.ts";
import type { OrganizationSummary } from "@/lib/organizations/schema.ts";
import { REFUSALS } from "@/lib/refusals.ts";

/** Values of `type`. */
export const INTERNSHIP_TYPES = ["remote", "hybrid", "onsite"] as const;
export type InternshipType = typeof INTERNSHIP_TYPES[number];

/**
 * The orders of the list (docs/decisions.md, Internships, "Sorting"): `newest` first (the default); `deadline`, the
 * soonest deadline first and listings without one last; `stipend`, the highest monthly stipend first and unstated
 * ones last. Equal keys keep the newest first.
 */
export const INTERNSHIP_SORTS = ["newest", "deadline", "stipend"] as const;
export type InternshipSort = typeof INTERNSHIP_SORTS[number];

/** Values of `timing`. */
export const INTERNSHIP_TIMINGS = ["full_time", "part_time"] as const;
export type InternshipTiming = typeof INTERNSHIP_TIMINGS[number];

/**
 * How students apply (docs/decisions.md, Applications, "Apply mode"): on the organization's own site (`link`, the
 * default) or here on the platform (`platform`), with up to `MAX_QUESTIONS` screening questions.
 */
export const APPLY_MODES = ["link", "platform"] as const;
export type ApplyMode = typeof APPLY_MODES[number];

/** Most screening questions of one internship. */
export const MAX_QUESTIONS = 5;
/** Longest screening question, in characters. */
export const QUESTION_MAX = 300;
/** The refusal of screening questions on a listing that takes applications on its own site. */
export const QUESTIONS_NEED_PLATFORM = REFUSALS.questionsNeedPlatform;
/** The refusal of an update that would leave a `link` listing without its link. */
export const APPLY_LINK_NEEDED = REFUSALS.applyLinkNeeded;

/** A screening question: its id (made by the server), its text, and whether an answer is required. */
export interface Question {
  id: string;
  text: string;
  required: boolean;
}

/** Largest page size of the list. */
export const MAX_LIMIT = 100;
/** Default page size of the list (docs/api.md, Internships). */
export const DEFAULT_LIMIT = 10;
/** Most items in one create batch (docs/decisions.md, Internships). */
export const MAX_BATCH = 100;

/** An internship as stored and returned; optional fields are `null` when unset. */
export interface Internship {
  id: string;
  title: string;
  description: string | null;
  type: InternshipType | null;
  timing: InternshipTiming | null;
  /** The application page on the organization's own site; null only for a `platform` listing, which needs none. */
  link: string | null;
  hiringOrganization: string;
  hiringManager: string | null;
  tags: string[];
  /** Monthly, in rupees. */
  stipend: number | null;
  duration: string | null;
  experience: string | null;
  location: string | null;
  /** `YYYY-MM-DD` or a full ISO 8601 timestamp. */
  deadline: string | null;
  isVerified: boolean;
  isActive: boolean;
  /** The owner; null once they deleted their account (docs/decisions.md, Data rights). */
  userId: string | null;
  createdAt: string;
  updatedAt: string;
  deletedAt: string | null;
  /** The never-pay rule's and the admins' state (docs/decisions.md, Trust, "Moderation"); absent: clear. */
  moderation?: Moderation;
  /**
   * The organization named by `hiringOrganization` (docs/decisions.md, Trust, "Organizations"); absent on a listing
   * stored before organizations until the one-time link reaches it, and on one posted under a verified organization's
   * name by someone who does not manage it (docs/decisions.md, Trust, "Who lists under a verified name").
   */
  organizationId?: string;
  /**
   * Whether its owner managed `organizationId` or was an admin when it was linked, or when the `organizations-unlink`
   * job last kept it for them (docs/decisions.md, Trust, "Who lists under a verified name"); absent on a listing not
   * linked and on one linked before this was kept.
   */
  linkedByManager?: boolean;
  /** How students apply; absent on a listing stored before apply modes: `link`. */
  applyMode?: ApplyMode;
  /** The screening questions of a `platform` listing; absent: none. */
  questions?: Question[];
  /**
   * When its poster or an admin closed applications before the deadline (docs/decisions.md, Open and closed listings,
   * "Closed by the poster"); absent: open until its deadline.
   */
  closedAt?: string;
  /**
   * When it last became public (active, not deleted, not withheld by moderation): on creation unless held, else on
   * release from a hold or an admin making it active again (docs/decisions.md, Alerts, "Published, not created").
   * Absent on records stored before it was kept: `createdAt`.
   */
  publishedAt?: string;
  /**
   * When an edit last changed what students read (texts, link, stipend, deadline, questions, apply mode), not an
   * admin-only field (docs/decisions.md, Applications, "Terms changed after applying"); absent: never since it was
   * kept.
   */
  revisedAt?: string;
  /**
   * True when it was posted with an API key (`POST /api/internships` with `Authorization: Bearer`): a feed's listing
   * that its admin owner did not write, which students read as imported (docs/decisions.md, Auth, "Ingest user").
   * Absent: posted by a person, on the site or with a session.
   */
  viaApiKey?: true;
}

/** When `record` became public as alert digests count it (`publishedAt`, else `createdAt`), in ms since the epoch. */
export function publishedMs(record: Pick<Internship, "createdAt" | "publishedAt">): number {
  return Date.parse(record.publishedAt ?? record.createdAt);
}

/** The owner object on every read (docs/api.md, Internships, "Who may do what"). */
export interface InternshipOwner {
  id: string;
  name: string;
  image: string | null;
  role: Role;
}

/**
 * An internship as read responses carry it: the record plus its owner (null: a former member, "Former member"), its
 * organization `{id, slug, name, isVerified}` (null until linked), whether it is closed (its deadline's IST day is
 * before today, or its poster closed applications, `closedAt`; docs/decisions.md, Dates), its moderation state as
 * `{status, reasons}`, and how students apply
 * (`applyMode`, `questions`; older records: `link`, none).
 */
export interface InternshipView extends
  Omit<
    Internship,
    | "moderation"
    | "organizationId"
    | "linkedByManager"
    | "applyMode"
    | "questions"
    | "closedAt"
    | "publishedAt"
    | "revisedAt"
    | "viaApiKey"
  > {
  /** Posted with an API key: a feed's listing (`Internship.viaApiKey`). */
  viaApiKey: boolean;
  applyMode: ApplyMode;
  /** When an edit last changed what students read, or null (`Internship.revisedAt`). */
  revisedAt: string | null;
  /** When applications were closed before the deadline, or null. */
  closedAt: string | null;
  questions: Question[];
  user: InternshipOwner | null;
  organization: OrganizationSummary | null;
  isClosed: boolean;
  moderation: ModerationView;
}

const text = (max: number) => TextSchema.trim().min(1).max(max);
const optionalText = (max: number) =>
  TextSchema.trim().max(max).nullish().transform((v) => (v === undefined ? undefined : v || null));

/** `YYYY-MM-DD` (a real calendar date) or an ISO 8601 timestamp with time zone. */
const deadline = z.string().trim().refine((v) => {
  const date = /^(\d{4})-(\d{2})-(\d{2})$/.exec(v);
  if (date) {
    const d = new Date(`${v}T00:00:00Z`);
    return !Number.isNaN(d.getTime()) && d.toISOString().startsWith(v);
  }
  return z.iso.datetime({ offset: true }).safeParse(v).success;
}, "Invalid date: expected YYYY-MM-DD or an ISO 8601 timestamp").meta({
  anyOf: [{ format: "date" }, { format: "date-time" }],
});

const fields = {
  title: text(200),
  description: optionalText(5000),
  type: z.enum(INTERNSHIP_TYPES).nullish(),
  timing: z.enum(INTERNSHIP_TIMINGS).nullish(),
  link: z.url({ protocol: /^https?$/, hostname: z.regexes.domain }).max(2000).nullish(),
  hiringOrganization: text(200),
  hiringManager: optionalText(200),
  tags: z.array(text(50)).max(20).nullish().transform((tags) =>
    tags === undefined ? undefined : [...new Map((tags ?? []).map((t) => [t.toLowerCase(), t])).values()]
  ),
  stipend: z.number().min(0).max(10_000_000).nullish(),
  duration: optionalText(100),
  experience: optionalText(200),
  location: optionalText(200),
  deadline: deadline.nullish(),
  applyMode: z.enum(APPLY_MODES).optional(),
  questions: z.array(
    z.object({
      id: z.string().max(100).optional(),
      text: text(QUESTION_MAX),
      required: z.boolean().optional(),
    }),
  ).max(MAX_QUESTIONS).optional(),
};

/** A screening question as a poster sends it: `id` keeps an existing question's id (else a new one is made). */
export type QuestionInput = NonNullable<z.infer<typeof fields.questions>>[number];

/** The fields `applyFieldsChecked` reads. */
const APPLY_FIELDS = new Set(["applyMode", "link", "questions"]);

/** The sentence of a missing `link` on a listing that takes applications on its own site. */
export const LINK_NEEDED = { key: "fields.required" } as const;

/**
 * The issues of a create's apply fields: a listing that takes applications on its own site needs its `link`, and has no
 * questions.
 */
function applyFieldsChecked(
  item: { applyMode?: ApplyMode; link?: string | null; questions?: QuestionInput[] },
  ctx: z.RefinementCtx,
): void {
  if (item.applyMode === "platform") return;
  if (!item.link) ctx.addIssue({ code: "custom", path: ["link"], message: LINK_NEEDED.key });
  if ((item.questions?.length ?? 0) > 0) {
    ctx.addIssue({ code: "custom", path: ["questions"], message: QUESTIONS_NEED_PLATFORM });
  }
}

/**
 * One item of a create body. Unknown fields (including `isVerified`, `isActive`, `userId`, `id`
 * and timestamps) are dropped: creation sets them. `applyMode` defaults to `link`, which needs `link` (refused with the
 * other fields' problems); a `platform` listing may leave `link` out. `questions` (at most 5, each 1–300 characters, `required` default true) only with
 * `platform`.
 */
export const InternshipCreateSchema = z.object(fields).superRefine(applyFieldsChecked, {
  // Checked beside the other fields' problems (all in one answer), unless the body is not an object or an apply field
  // itself is refused.
  when: ({ value, issues }) =>
    typeof value === "object" && value !== null && !Array.isArray(value) &&
    !issues.some((issue) => APPLY_FIELDS.has(String(issue.path?.[0]))),
});
export type InternshipCreate = z.infer<typeof InternshipCreateSchema>;

/** A batch create body: 1 to 100 items; an issue's `path` starts with the item's index. */
export const InternshipBatchSchema = z.array(InternshipCreateSchema).min(1).max(MAX_BATCH);

/**
 * An update body: any subset of the fields; `isVerified` and `isActive` are for admins only; `closed` true closes
 * applications now (`closedAt`), false reopens them (docs/decisions.md, Open and closed listings, "Closed by the poster").
 */
export const InternshipUpdateSchema = z.object({
  ...Object.fromEntries(Object.entries(fields).map(([k, s]) => [k, s.optional()])) as {
    [K in keyof typeof fields]: z.ZodOptional<typeof fields[K]>;
  },
  isVerified: z.boolean().optional(),
  isActive: z.boolean().optional(),
  closed: z.boolean().optional().describe("true: close applications now (closedAt); false: reopen them"),
});
export type InternshipUpdate = z.infer<typeof InternshipUpdateSchema>;

const integer = (min: number, max: number) =>
  z.string().trim().regex(/^-?\d+$/, "Expected an integer").transform(Number).pipe(z.number().int().min(min).max(max));
const amount = z.string().trim().regex(/^\d+(\.\d+)?$/, "Expected a non-negative number").transform(Number)
  .pipe(z.number().min(0));
const list = z.string().transform((v) => v.split(",").map((s) => s.trim()).filter(Boolean));
const flag = z.enum(["true", "false"]).transform((v) => v === "true");

/**
 * The list query (docs/decisions.md, Internships) parsed from string query parameters: `limit` 1–100 (default 10),
 * `offset` ≥ 0 (default 0), `types` and `tags` comma-separated, `location`, `minStipend` and `maxStipend` in rupees
 * (inclusive), `search` (alias `q`), `verifiedOnly` (the internship or its organization verified) and `paidOnly` (a
 * stipend of at least ₹1; docs/decisions.md, Trust, "Trust filters"), `includeClosed` (closed listings are left out
 * unless true), `mine` (the caller's own listings, inactive and closed ones included; needs a session:
 * docs/decisions.md, Internships), `sort` (`INTERNSHIP_SORTS`, default `newest`) and the admin-only flags
 * `includeInactive`, `includeDeleted`. Tags, location and search words come out lower case.
 */
export const InternshipQuerySchema = z.object({
  limit: integer(1, MAX_LIMIT).default(DEFAULT_LIMIT),
  offset: integer(0, Number.MAX_SAFE_INTEGER).default(0),
  types: list.pipe(z.array(z.enum(INTERNSHIP_TYPES))).default([]),
  tags: list.transform((tags) => tags.map((t) => t.toLowerCase())).pipe(z.array(z.string().max(50)).max(20))
    .default([]),
  location: z.string().trim().max(200).transform((v) => v.toLowerCase() || undefined).optional(),
  minStipend: amount.optional(),
  maxStipend: amount.optional(),
  search: z.string().max(200).optional(),
  q: z.string().max(200).optional(),
  mine: flag.default(false),
  verifiedOnly: flag.default(false),
  paidOnly: flag.default(false),
  includeClosed: flag.default(false),
  includeInactive: flag.default(false),
  includeDeleted: flag.default(false),
  sort: z.enum(INTERNSHIP_SORTS).default("newest")
    .describe("newest first (default); deadline: soonest first, none last; stipend: highest first, unstated last"),
}).transform(({ q, search, ...query }) => ({
  ...query,
  search: (search ?? q ?? "").toLowerCase().split(/\s+/).filter(Boolean),
})).refine(
  (query) => query.minStipend === undefined || query.maxStipend === undefined || query.minStipend <= query.maxStipend,
  { path: ["maxStipend"], message: "fields.maxBelowMin" },
);

/** A parsed list query; `search` holds the lower-case search words. */
export type InternshipQuery = z.infer<typeof InternshipQuerySchema>;

/** The query of a request without parameters (parsed once: the unfiltered first page is the hot path). */
export const DEFAULT_QUERY: InternshipQuery = InternshipQuerySchema.parse({});
