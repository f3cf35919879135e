/**
 * The Application resource (docs/api.md, Applications; docs/decisions.md, Applications): statuses and their order,
 * the record and the views answered to the applicant and to the poster, and the zod schemas of every body and query.
 */
import { z } from "zod";
import { TextSchema } from "@/lib/text.ts";
import type { ResumeCopy } from "@/lib/resumes/resumes.ts";
import type { InternshipView } from "@/lib/internships/schema.ts";
import type { AppliedTerms, StoredAppliedTerms } from "@/lib/internships/applied_terms.ts";
import { REFUSALS } from "@/lib/refusals.ts";

/** Where an application stands, in the order of its course (`rejected` and `withdrawn` end it anywhere). */
export const APPLICATION_STATUSES = [
  "applied",
  "shortlisted",
  "interview",
  "offer",
  "hired",
  "rejected",
  "withdrawn",
] as const;
export type ApplicationStatus = typeof APPLICATION_STATUSES[number];

/** The statuses a poster moves an application to. */
export const POSTER_STATUSES = ["shortlisted", "interview", "offer", "hired", "rejected"] as const;
export type PosterStatus = typeof POSTER_STATUSES[number];

/** The statuses an application waits for the poster in: the timeout job rejects those left in them. */
export const WAITING: readonly ApplicationStatus[] = ["applied", "shortlisted"];

/** Who changed an application's status. */
export type ChangedBy = "applicant" | "poster" | "system";

/** How a hired intern says the stipend was paid. */
export const STIPEND_PAID = ["yes", "partly", "no"] as const;
export type StipendPaid = typeof STIPEND_PAID[number];

/** Longest answer to a screening question, cover note and message, in characters. */
export const ANSWER_MAX = 1000;
export const COVER_NOTE_MAX = 2000;
export const MESSAGE_MAX = 2000;
/** Most applications one bulk change names. */
export const MAX_BULK = 100;
/** Largest page of the poster's list and of the applicant's (`GET /api/me/applications`). */
export const MAX_PAGE = 100;
/** Default page of the poster's list and of the applicant's. */
export const DEFAULT_PAGE = 20;

/** The refusals of §Applications, word for word. */
export const TAKES_LINK = REFUSALS.takesLink;
export const CLOSED = REFUSALS.closed;
export const CLOSED_MEANWHILE = REFUSALS.closedMeanwhile;
export const NO_RESUME_YET = REFUSALS.noResume;
export const ALREADY_APPLIED = REFUSALS.alreadyApplied;
export const INVALID_CHANGE = REFUSALS.invalidChange;
export const FINAL = REFUSALS.final;
export const NOT_FOUND = REFUSALS.applicationNotFound;
export const ANSWER_REQUIRED = REFUSALS.answerRequired;
export const UNKNOWN_QUESTION = REFUSALS.unknownQuestion;
export const UNVERIFIED = REFUSALS.verifyToApply;
export const OWN_INTERNSHIP = REFUSALS.ownInternship;
export const MESSAGE_ASKS_TO_PAY = REFUSALS.messageAsksToPay;
export const LISTING_TAKEN_DOWN = REFUSALS.listingTakenDown;
export const LISTING_DELETED = REFUSALS.listingDeleted;

/** An answer to a screening question, with the question's text as it was asked. */
export interface Answer {
  questionId: string;
  question: string;
  answer: string;
}

/** One status change: to what, when, by whom, and the poster's (or the system's) message to the applicant. */
export interface HistoryEntry {
  status: ApplicationStatus;
  at: string;
  by: ChangedBy;
  message: string | null;
}

/** A hired intern's report of the stipend: paid as listed, partly, or not; when it was given (or last changed). */
export interface StipendReport {
  paid: StipendPaid;
  at: string;
}

/** The applicant as the application was sent: their profile then (null once they deleted their account). */
export interface ApplicantSnapshot {
  name: string;
  image: string | null;
  collegeInstitute: string | null;
  currentRole: string | null;
  fieldOfStudy: string | null;
  fieldInterests: string[];
  email: string;
  contactNumber: string | null;
}

/** An application as stored. Times are ISO 8601. */
export interface ApplicationRecord {
  id: string;
  internshipId: string;
  /**
   * The internship's organization when the application was sent (its track record counts it), or null; null too once
   * its listing was unlinked from that organization when it was verified (`stopCounting`).
   */
  organizationId: string | null;
  /** The applicant; null once they deleted their account. */
  applicantId: string | null;
  applicant: ApplicantSnapshot | null;
  status: ApplicationStatus;
  answers: Answer[];
  coverNote: string;
  /** The resume copied at apply time; null once the applicant deleted their account. */
  resume: ResumeCopy | null;
  createdAt: string;
  updatedAt: string;
  history: HistoryEntry[];
  /** When the poster first changed its status, or null. */
  firstResponseAt: string | null;
  /** When the timeout job is due to look at it (while `applied` or `shortlisted`), or null. */
  dueAt: string | null;
  stipendReport: StipendReport | null;
  /**
   * The listing's terms when the application was made (docs/decisions.md, Applications, "Terms applied under"); absent
   * on applications made before they were kept; without `title` and `organization` on those kept before these were.
   */
  appliedTerms?: StoredAppliedTerms;
}

/** An application as answered to the applicant and the poster. */
export interface ApplicationView {
  id: string;
  internshipId: string;
  status: ApplicationStatus;
  answers: Answer[];
  coverNote: string;
  resume: { name: string; size: number } | null;
  createdAt: string;
  updatedAt: string;
  history: HistoryEntry[];
  stipendReport: StipendReport | null;
}

/**
 * The applicant as the poster sees them: `email` and `contactNumber` null until the application was shortlisted; `id`
 * and `name` null once they deleted their account (a page words that in its reader's language).
 */
export interface ApplicantView {
  id: string | null;
  name: string | null;
  image: string | null;
  collegeInstitute: string | null;
  currentRole: string | null;
  fieldOfStudy: string | null;
  fieldInterests: string[];
  email: string | null;
  contactNumber: string | null;
}

/**
 * An application with its internship (null once the internship is gone from public view) and the terms it was made
 * under (`appliedTerms`; null for an application made before they were kept), as the applicant lists it.
 */
/**
 * An application as its applicant lists it: with its internship as the public reads it, the terms applied under, and
 * while it waits for an answer (`applied`, `shortlisted`) when the timeout job answers it at the latest (`answerBy`,
 * ISO; null otherwise).
 */
export type MyApplication = ApplicationView & {
  internship: InternshipView | null;
  appliedTerms: AppliedTerms | null;
  answerBy: string | null;
};

/**
 * An application with its applicant, as the poster lists it: without the hired intern's stipend report, which counts
 * toward the organization's track record only from 3 answers, so that no poster learns who answered what
 * (docs/decisions.md, Applications, "Stipend reports").
 */
export type PosterApplication = Omit<ApplicationView, "stipendReport"> & {
  applicant: ApplicantView;
  /** While it waits: when the timeout job closes it unanswered at the latest (ISO); null otherwise. */
  answerBy: string | null;
};

/** How many applications of an internship are in each status. */
export type StatusCounts = Record<ApplicationStatus, number>;

const plain = (max: number) => TextSchema.trim().max(max);

/** `POST /api/internships/{id}/applications`: the answers (one per question at most) and the cover note. */
export const ApplyBodySchema = z.strictObject({
  answers: z.array(z.strictObject({ questionId: z.string().max(100), answer: plain(ANSWER_MAX) })).max(20)
    .optional(),
  coverNote: plain(COVER_NOTE_MAX).optional(),
});
export type ApplyBody = z.infer<typeof ApplyBodySchema>;

/** `PATCH /api/applications/{id}`: the new status and an optional plain-text message to the applicant. */
export const StatusChangeSchema = z.strictObject({
  status: z.enum(APPLICATION_STATUSES),
  message: plain(MESSAGE_MAX).optional().transform((text) => text || null),
});
export type StatusChange = z.infer<typeof StatusChangeSchema>;

/** `POST /api/internships/{id}/applications/bulk`: at most 100 ids, the status and the message. */
export const BulkChangeSchema = z.strictObject({
  ids: z.array(z.string().max(100)).min(1).max(MAX_BULK),
  status: z.enum(APPLICATION_STATUSES),
  message: plain(MESSAGE_MAX).optional().transform((text) => text || null),
});
export type BulkChange = z.infer<typeof BulkChangeSchema>;

/** `POST /api/me/applications/{id}/stipend-report`. */
export const StipendReportSchema = z.strictObject({ paid: z.enum(STIPEND_PAID) });

const integer = (min: number, max: number) =>
  z.string().trim().regex(/^\d+$/, "Expected an integer").transform(Number).pipe(z.number().int().min(min).max(max));
const status = z.union([z.enum(APPLICATION_STATUSES), z.literal("").transform(() => undefined)]).optional();

/** A place in a person's applications, newest first: when one was sent, and its id. */
export interface MinePlace {
  createdAt: string;
  id: string;
}

/** A `MinePlace` as a cursor: `createdAt` and id joined by `~` (what `nextCursor` holds and `cursor` takes back). */
const MINE_CURSOR = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z)~([^~]{1,100})$/;

/** `place` as a cursor (`MINE_CURSOR`). */
export function mineCursorOf(place: MinePlace): string {
  return `${place.createdAt}~${place.id}`;
}

/** A cursor (`mineCursorOf`) read back into its place. */
export const MineCursorSchema = z.string().regex(MINE_CURSOR, "Expected the nextCursor of a previous page")
  .refine((cursor) => Number.isFinite(Date.parse(cursor.split("~")[0])), "Expected the nextCursor of a previous page")
  .transform((cursor): MinePlace => {
    const [, createdAt, id] = cursor.match(MINE_CURSOR)!;
    return { createdAt, id };
  });

/**
 * Where the tracker's forms answer to after changing application `id` (303): the tracker saying it changed, on the page
 * of applications from `from` on when that is a place (`mineCursorOf`; anything else: the newest page).
 */
export function trackerReturn(id: string, from: string): string {
  const params = new URLSearchParams();
  if (MINE_CURSOR.test(from)) params.set("applications-from", from);
  params.set("changed", id);
  return `/me/tracker?${params}#application-${encodeURIComponent(id)}`;
}

/**
 * `GET /api/me/applications?status=&limit=&cursor=`: one status (all when absent), `limit` 1–100 (default 20), `cursor`
 * the previous page's `nextCursor` (the applications sent before its last).
 */
export const MyApplicationsQuerySchema = z.strictObject({
  status,
  limit: integer(1, MAX_PAGE).default(DEFAULT_PAGE),
  cursor: MineCursorSchema.optional().describe("The `nextCursor` of the previous page: the applications after it"),
});

/**
 * `GET /api/internships/{id}/applications?status=&search=&limit=&offset=`: one status (all when absent), search words
 * over the applicant's name, college, role and field (lower case), `limit` 1–100 (default 20), `offset`.
 */
export const PipelineQuerySchema = z.strictObject({
  status,
  search: z.string().max(200).optional().transform((text) => (text ?? "").toLowerCase().split(/\s+/).filter(Boolean)),
  limit: integer(1, MAX_PAGE).default(DEFAULT_PAGE),
  offset: integer(0, Number.MAX_SAFE_INTEGER).default(0),
});
export type PipelineQuery = z.infer<typeof PipelineQuerySchema>;

/** `GET /api/internships/{id}/applications/export?status=&search=`: the tab and search of the list, every page. */
export const PipelineExportQuerySchema = PipelineQuerySchema.pick({ status: true, search: true });
