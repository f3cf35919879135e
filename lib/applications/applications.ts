/**
 * The applications capability (docs/api.md, Applications; docs/decisions.md, Applications): a student applies to a
 * `platform` internship with their resume (copied at apply time), answers and a cover note; the applicant lists,
 * withdraws and reports the stipend; the poster (owner, manager of the verified organization, or admin) moves
 * applications along, one at a time or up to 100 at once, and each move tells the applicant in the app and by e-mail.
 * Every write is one atomic commit checked against what it read (the record, the one-per-person key, the resume, the
 * tracker item), retried on a lost race.
 */
import pLimit from "p-limit";
import {
  BusyError,
  ConflictError,
  ForbiddenError,
  InvalidInputError,
  NotFoundError,
  UnauthenticatedError,
} from "@/lib/errors.ts";
import { type FieldProblem, fieldProblem } from "@/lib/field_messages.ts";
import type { ObjectStore, StoredObject } from "@/lib/files/object_store.ts";
import {
  currentInternshipRecord,
  type Internship,
  internshipRecord,
  type InternshipView,
  publicInternshipsById,
} from "@/lib/internships/internships.ts";
import type { Question } from "@/lib/internships/schema.ts";
import { appliedTermsOf, keptTerms } from "@/lib/internships/applied_terms.ts";
import { applicationsEndMs, type ListingEnd } from "@/lib/internships/ended.ts";
import { intakeKey, intakeOf } from "@/lib/internships/intake.ts";
import { getOnboardingProfile } from "@/lib/onboarding/onboarding.ts";
import { getOrganization, isManager } from "@/lib/organizations/store.ts";
import { linkVerdict } from "@/lib/organizations/link_verdict.ts";
import {
  applicationHolder,
  copiedResumeFile,
  copyResumeOps,
  dropResumeCopies,
  readResumeEntry,
} from "@/lib/resumes/resumes.ts";
import { followApplicationOps, readTrackerEntries } from "@/lib/saved/saved.ts";
import type { SavedStatus } from "@/lib/saved/schema.ts";
import { emailAllowed, getSettings } from "@/lib/settings/settings.ts";
import type { NotificationType } from "@/lib/notifications/types.ts";
import { getUser, type User, userKey } from "@/lib/users/users.ts";
import { RETRY_BUDGET_MS, retrying } from "@/lib/kv/retry.ts";
import {
  checkMovesAllowed,
  checkPosterMessage,
  checkPosterMove,
  checkStipendReport,
  checkWithdrawal,
  hiredAt,
  isPoster,
  movesAllowed,
} from "./policy.ts";
import { dailyApplicantOps, readDailyEntry, reviseDailyNotice } from "./daily.ts";
import { type Recipient, tellApplicantOps } from "./notices.ts";
import {
  ALREADY_APPLIED,
  type Answer,
  ANSWER_REQUIRED,
  type ApplicantSnapshot,
  type ApplicantView,
  type ApplicationRecord,
  type ApplicationStatus,
  type ApplicationView,
  type ApplyBody,
  CLOSED,
  CLOSED_MEANWHILE,
  type MinePlace,
  type MyApplication,
  NO_RESUME_YET,
  NOT_FOUND,
  OWN_INTERNSHIP,
  type PipelineQuery,
  type PosterApplication,
  type StatusChange,
  type StatusCounts,
  type StipendPaid,
  TAKES_LINK,
  UNKNOWN_QUESTION,
  UNVERIFIED,
  WAITING,
} from "./schema.ts";
import {
  applicationOps,
  forgetLogOps,
  forgetSentOps,
  logEntriesOf,
  type LogEntry,
  personEntries,
  personEntriesOf,
  type PersonEntry,
  personKey,
  readApplications,
  recordKey,
  SENT_INDEX_PROGRESS,
  sentPlaces,
  statusIndex,
} from "./store.ts";
import { backfillDone } from "@/lib/kv/backfill.ts";
import { valueBytes } from "@/lib/kv/value_size.ts";
import { commitPacked, WriteUnit } from "@/lib/kv/packed_writes.ts";
import { pipelinePage } from "./pipeline.ts";
import { REFUSALS } from "@/lib/refusals.ts";
import { isAdmin } from "@/lib/users/roles.ts";
import { canPost } from "@/lib/internships/policy.ts";

export * from "./schema.ts";

/** Attempts of a checked write before it gives up (each lost race means another write went through). */
const ATTEMPTS = 20;
const DAY_MS = 24 * 60 * 60 * 1000;
/** Days after a listing stops taking applications the timeout job rejects a waiting application. */
export const TIMEOUT_AFTER_DEADLINE_DAYS = 15;
/** The most days an application to a listing without a deadline waits, counted from applying. */
export const TIMEOUT_WITHOUT_DEADLINE_DAYS = 30;
/** The latest a deadline counts for the timeout, in days after applying. */
export const TIMEOUT_DEADLINE_CAP_DAYS = 365;
/** The statuses from which the poster sees the applicant's e-mail and phone number. */
const CONTACT_FROM: readonly ApplicationStatus[] = ["shortlisted", "interview", "offer", "hired"];

/** The tracker status an application's status moves the applicant's saved item to (none for a withdrawal). */
const TRACKER_STATUS: Partial<Record<ApplicationStatus, SavedStatus>> = {
  applied: "applied",
  shortlisted: "interviewing",
  interview: "interviewing",
  offer: "offer",
  hired: "offer",
  rejected: "rejected",
};

/** `record` as the applicant and the poster read it. */
export function applicationView(record: ApplicationRecord): ApplicationView {
  return {
    id: record.id,
    internshipId: record.internshipId,
    status: record.status,
    answers: record.answers,
    coverNote: record.coverNote,
    resume: record.resume && { name: record.resume.name, size: record.resume.size },
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
    history: record.history,
    stipendReport: record.stipendReport,
  };
}

/**
 * The applicant of `record` as the poster sees them: contact details only once the application was shortlisted; once
 * it was withdrawn, their name alone (no picture, college, role, field, interests or contact: docs/decisions.md,
 * Applications, "Status changes"); no name (null) once they deleted their account.
 */
export function applicantView(record: ApplicationRecord): ApplicantView {
  const a = record.applicant;
  const id = record.applicantId;
  const name = a?.name ?? null;
  if (record.status === "withdrawn") {
    const none = { image: null, collegeInstitute: null, currentRole: null, fieldOfStudy: null };
    return { id, name, ...none, fieldInterests: [], email: null, contactNumber: null };
  }
  const contact = record.history.some((entry) => CONTACT_FROM.includes(entry.status));
  return {
    id,
    name,
    image: a?.image ?? null,
    collegeInstitute: a?.collegeInstitute ?? null,
    currentRole: a?.currentRole ?? null,
    fieldOfStudy: a?.fieldOfStudy ?? null,
    fieldInterests: a?.fieldInterests ?? [],
    email: contact ? a?.email ?? null : null,
    contactNumber: contact ? a?.contactNumber ?? null : null,
  };
}

/**
 * When the timeout job looks at an application sent at `createdAt` (ISO) to `listing` (docs/decisions.md, Applications,
 * "Every applicant hears back"): 15 days after the listing stops taking applications (`applicationsEndMs`: its
 * deadline's end, its poster's close or its deletion, the earliest), and never later than 30 days after applying to a
 * listing without a deadline or 380 days after applying to one with a deadline (a deadline counts as at most
 * `TIMEOUT_DEADLINE_CAP_DAYS` after applying), so no edit of the listing keeps an applicant waiting longer. A listing
 * without a deadline closed a week after someone applied answers them 15 days after the close, not 30 after applying.
 */
export function timeoutDueAt(listing: ListingEnd, createdAt: string): string {
  const longest = listing.deadline
    ? TIMEOUT_DEADLINE_CAP_DAYS + TIMEOUT_AFTER_DEADLINE_DAYS
    : TIMEOUT_WITHOUT_DEADLINE_DAYS;
  return new Date(Math.min(
    applicationsEndMs(listing) + TIMEOUT_AFTER_DEADLINE_DAYS * DAY_MS,
    Date.parse(createdAt) + longest * DAY_MS,
  )).toISOString();
}

/** The time of the UTC day the timeout job runs, 03:30 (09:00 IST): its schedule and its answer-by dates read it. */
const TIMEOUT_RUN_UTC = { hour: 3, minute: 30 };

/** The `applications-timeout` job's cron schedule, daily at `TIMEOUT_RUN_UTC` ("30 3 * * *"). */
export const TIMEOUT_SCHEDULE = `${TIMEOUT_RUN_UTC.minute} ${TIMEOUT_RUN_UTC.hour} * * *`;

/**
 * When an application still waiting at `dueAt` (ISO) is answered by the timeout job at the latest: its first daily run
 * (`TIMEOUT_SCHEDULE`, 09:00 IST) at or after that moment (ISO).
 */
export function answeredByTimeoutAt(dueAt: string): string {
  const due = Date.parse(dueAt);
  const run = Math.floor(due / DAY_MS) * DAY_MS + (TIMEOUT_RUN_UTC.hour * 60 + TIMEOUT_RUN_UTC.minute) * 60_000;
  return new Date(run >= due ? run : run + DAY_MS).toISOString();
}

/**
 * `given` checked against the internship's `questions`: one answer per known question, every required one answered.
 * Returns the answers with each question's text as asked, in the questions' order (empty answers left out).
 * @throws InvalidInputError `UNKNOWN_QUESTION` for an answer to a question the internship does not have (or a second
 *   answer to one), `ANSWER_REQUIRED` when a required question has no answer; each with the field `answers.{id}`, its
 *   sentence a catalogue message (`fieldProblem`), so a page shows it in its language (docs/decisions.md, Languages,
 *   "Field errors").
 */
export function checkAnswers(questions: readonly Question[], given: readonly { questionId: string; answer: string }[]) {
  const known = new Set(questions.map((question) => question.id));
  const seen = new Set<string>();
  const unknown: FieldProblem[] = [];
  for (const { questionId } of given) {
    if (!known.has(questionId) || seen.has(questionId)) {
      unknown.push(fieldProblem(`answers.${questionId}`, { key: "fields.questionNotAsked" }));
    }
    seen.add(questionId);
  }
  if (unknown.length > 0) throw new InvalidInputError(UNKNOWN_QUESTION, unknown);
  const byId = new Map(given.map((answer) => [answer.questionId, answer.answer]));
  const missing = questions.filter((question) => question.required && !byId.get(question.id))
    .map((question) => fieldProblem(`answers.${question.id}`, { key: "fields.answerQuestion" }));
  if (missing.length > 0) throw new InvalidInputError(ANSWER_REQUIRED, missing);
  return questions.flatMap((question): Answer[] => {
    const answer = byId.get(question.id);
    return answer ? [{ questionId: question.id, question: question.text, answer }] : [];
  });
}

/** The applicant's profile as the application sends it. */
async function snapshotOf(kv: Deno.Kv, user: User): Promise<ApplicantSnapshot> {
  const onboarding = await getOnboardingProfile(kv, user.id);
  return {
    name: user.name,
    image: user.image,
    collegeInstitute: user.collegeInstitute,
    currentRole: user.currentRole,
    fieldOfStudy: onboarding?.fieldOfStudy === "Other"
      ? onboarding.fieldOther ?? "Other"
      : onboarding?.fieldOfStudy ?? null,
    fieldInterests: user.fieldInterests,
    email: user.email,
    contactNumber: user.contactNumber,
  };
}

/** An internship as the applications of it need it: the record and its view. */
export interface Listing {
  record: Internship;
  view: InternshipView;
}

/** The internship `id` in any state. @throws NotFoundError "Internship not found". */
async function listingOf(kv: Deno.Kv, id: string): Promise<Listing> {
  const found = await internshipRecord(kv, id);
  if (!found) throw new NotFoundError(REFUSALS.internshipNotFound);
  return found;
}

/**
 * Whether `user` is the poster of `listing` (its owner, a manager of its verified organization, or an admin). A
 * listing the `organizations-unlink` job would unlink is not its managers' until the job has run (`linkVerdict`, the
 * job's own rule: one not marked as linked by a manager, posted before the verification, whose owner neither manages
 * the organization nor is an admin now; a forgotten owner's only when marked false): whoever claims the page would
 * otherwise read, and answer, a stranger's applicants in the minute before the job unlinks the listing
 * (docs/decisions.md, Applications, "The poster").
 */
export async function isPosterOf(kv: Deno.Kv, user: User | null | undefined, listing: Listing): Promise<boolean> {
  if (!user) return false;
  const organization = listing.view.organization;
  const verifiedOrganizationId = organization?.isVerified ? organization.id : null;
  const { record } = listing;
  const access = { ownerId: record.userId, verifiedOrganizationId, manages: false };
  if (isPoster(user, access)) return true;
  if (verifiedOrganizationId === null || !await isManager(kv, verifiedOrganizationId, user.id)) return false;
  if (record.linkedByManager !== true && await wouldUnlink(kv, record, verifiedOrganizationId)) return false;
  return isPoster(user, { ...access, manages: true });
}

/** Whether the `organizations-unlink` job, run now, would unlink `record` from `organizationId` (`linkVerdict`). */
async function wouldUnlink(kv: Deno.Kv, record: Internship, organizationId: string): Promise<boolean> {
  const ownerId = record.userId;
  const [organization, owner, ownerManages] = await Promise.all([
    getOrganization(kv, organizationId),
    ownerId === null ? null : getUser(kv, ownerId),
    ownerId !== null && isManager(kv, organizationId, ownerId),
  ]);
  const verifiedAt = organization.value?.verifiedAt ?? null;
  return linkVerdict(record, { verifiedAt, ownerManages: ownerManages || isAdmin(owner) }) === "unlink";
}

/** Whether `user` is the poster of internship `id` (false for an unknown one). */
export async function isPosterOfInternship(kv: Deno.Kv, user: User, id: string): Promise<boolean> {
  const listing = await internshipRecord(kv, id);
  return listing !== null && await isPosterOf(kv, user, listing);
}

/**
 * The internship `id` as its poster reads its applications.
 * @throws NotFoundError for an unknown internship and for anyone but its poster.
 */
export async function posterListing(kv: Deno.Kv, id: string, user: User | null | undefined): Promise<Listing> {
  const listing = await internshipRecord(kv, id);
  if (!listing || !await isPosterOf(kv, user, listing)) throw new NotFoundError();
  return listing;
}

/**
 * Checks that `applicant` may apply to `listing` now (every refusal but the ones the write finds).
 * @throws ForbiddenError for an unverified e-mail and for the internship's own poster; NotFoundError for a listing the
 *   public may not read; InvalidInputError `TAKES_LINK` or `CLOSED`.
 */
async function checkCanApply(kv: Deno.Kv, applicant: User, listing: Listing): Promise<void> {
  if (!applicant.emailVerified) throw new ForbiddenError(UNVERIFIED);
  const { record, view } = listing;
  if (!isPublic(listing)) throw new NotFoundError(REFUSALS.internshipNotFound);
  const own = record.userId === applicant.id ||
    (view.organization?.isVerified === true && await isManager(kv, view.organization.id, applicant.id));
  if (own) throw new ForbiddenError(OWN_INTERNSHIP);
  if (view.applyMode !== "platform") throw new InvalidInputError(TAKES_LINK);
  if (view.isClosed) throw new InvalidInputError(CLOSED);
}

/** Whether the public reads `listing`: not deleted, active, not withheld by moderation. */
function isPublic({ record, view }: Listing): boolean {
  return !record.deletedAt && record.isActive && view.moderation.status === "clear";
}

/** Whether `listing` takes applications here now: public, in `platform` mode and not closed. */
function takesApplications(listing: Listing): boolean {
  return isPublic(listing) && listing.view.applyMode === "platform" && !listing.view.isClosed;
}

/**
 * Checks an application of `applicant` to internship `internshipId` without making it (the apply page shows these
 * refusals before the form).
 * @throws what `applyTo` throws before its write: ForbiddenError, NotFoundError, InvalidInputError.
 */
export async function checkApplication(
  kv: Deno.Kv,
  { internshipId, applicant }: { internshipId: string; applicant: User },
): Promise<InternshipView> {
  const listing = await listingOf(kv, internshipId);
  await checkCanApply(kv, applicant, listing);
  return listing.view;
}

/**
 * Applies `applicant` to internship `internshipId` with `body` (docs/decisions.md, Applications, "Applying"): one
 * write, checked against the person's key for this internship (so two concurrent applications make one), the
 * applicant's user record as read (so an application racing the account's deletion, which deletes that record first,
 * is not made), the resume as read (copied into the application), the tracker item (made or moved to `applied`) and
 * the listing's intake entry as read (`intake.ts`: a close, a deletion or a takedown landing meanwhile makes the write
 * fail, and the next attempt finds the listing as KV holds it, not as this process's read model may still have it);
 * the poster's `new_applicant` notice of the day is made in it or counted after it. The record keeps the listing's
 * terms as read (`appliedTerms`: title, organization, stipend, deadline, location, work type, questions;
 * docs/decisions.md, Applications, "Terms applied under").
 * @throws ForbiddenError unverified e-mail, or one's own internship; NotFoundError an internship the public may not
 *   read; UnauthenticatedError when the applicant's account is gone (as for a session whose user was deleted);
 *   InvalidInputError `TAKES_LINK`, `CLOSED`, `UNKNOWN_QUESTION`, `ANSWER_REQUIRED`, `NO_RESUME_YET`; ConflictError
 *   `ALREADY_APPLIED`, or `CLOSED_MEANWHILE` when the listing stopped taking applications after it was read open;
 *   BusyError after 20 lost races.
 */
export async function applyTo(
  kv: Deno.Kv,
  { internshipId, applicant, body }: { internshipId: string; applicant: User; body: ApplyBody },
): Promise<ApplicationView> {
  let listing = await listingOf(kv, internshipId);
  await checkCanApply(kv, applicant, listing);
  let answers = checkAnswers(listing.view.questions, body.answers ?? []);
  const ownerId = listing.record.userId;
  const [snapshot, owner] = await Promise.all([
    snapshotOf(kv, applicant),
    // An owner made a user again no longer reads the applicants, so is not told of them.
    ownerId ? getUser(kv, ownerId).then((user) => canPost(user) ? user : null) : null,
  ]);
  const id = crypto.randomUUID();
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const now = new Date();
    const [account, person, resume, tracker, daily, intake] = await Promise.all([
      kv.get<User>(userKey(applicant.id)),
      kv.get(personKey(applicant.id, internshipId)),
      readResumeEntry(kv, applicant.id),
      readTrackerEntries(kv, applicant.id, internshipId),
      readDailyEntry(kv, internshipId, now),
      kv.get<string>(intakeKey(internshipId)),
    ]);
    if (!account.value) throw new UnauthenticatedError();
    if (person.value) throw new ConflictError(ALREADY_APPLIED);
    if (!resume.value) throw new InvalidInputError(NO_RESUME_YET);
    if (intake.value !== null && intake.value !== intakeOf(listing.record)) {
      // Written since the listing was read, here or by another process: judged as KV holds it now.
      const current = await currentInternshipRecord(kv, internshipId);
      if (!current || !takesApplications(current)) throw new ConflictError(CLOSED_MEANWHILE);
      listing = current;
      answers = checkAnswers(listing.view.questions, body.answers ?? []);
    }
    const op = kv.atomic().check(account, person, intake);
    const at = now.toISOString();
    const record: ApplicationRecord = {
      id,
      internshipId,
      organizationId: listing.view.organization?.id ?? null,
      applicantId: applicant.id,
      applicant: snapshot,
      status: "applied",
      answers,
      coverNote: body.coverNote ?? "",
      resume: copyResumeOps(op, resume as Deno.KvEntry<typeof resume.value>, applicationHolder(id)),
      createdAt: at,
      updatedAt: at,
      history: [{ status: "applied", at, by: "applicant", message: null }],
      firstResponseAt: null,
      dueAt: timeoutDueAt(listing.record, at),
      stipendReport: null,
      appliedTerms: appliedTermsOf(listing.record),
    };
    applicationOps(op, null, record, now.getTime());
    followApplicationOps(op, {
      userId: applicant.id,
      internshipId,
      entries: tracker,
      status: "applied",
      now: at,
      create: true,
    });
    const first = dailyApplicantOps(op, { entry: daily, listing: listing.view, owner, now });
    if ((await op.commit()).ok) {
      if (!first) await reviseDailyNotice(kv, { internship: listing.view, now });
      return applicationView(record);
    }
  }
  throw new BusyError(REFUSALS.applicationsBusy);
}

/** The application `id` as stored, or null. */
async function readOne(kv: Deno.Kv, id: string): Promise<Deno.KvEntry<ApplicationRecord> | null> {
  if (id.length > 100) return null;
  const entry = await kv.get<ApplicationRecord>(recordKey(id));
  return entry.value ? entry as Deno.KvEntry<ApplicationRecord> : null;
}

/** Newest first: the later `createdAt` first, then the greater id. */
function newestFirst(a: MinePlace, b: MinePlace): number {
  if (a.createdAt !== b.createdAt) return a.createdAt < b.createdAt ? 1 : -1;
  return a.id < b.id ? 1 : a.id > b.id ? -1 : 0;
}

/** `userId`'s application records, newest first. */
async function recordsOf(kv: Deno.Kv, userId: string): Promise<ApplicationRecord[]> {
  const entries = (await personEntries(kv, userId)).map(({ entry }) => entry).sort(newestFirst);
  const found = await readApplications(kv, entries.map((entry) => entry.id));
  return entries.flatMap((entry) => found.get(entry.id)?.value ?? []);
}

/**
 * `records` as their applicant reads them, each with its internship as the public reads it, the terms it was made
 * under (null when not kept), and while it waits when it is answered at the latest (`answerBy`; by its listing in any
 * state, as the timeout job judges it: one the public no longer reads, held or taken down or deleted, is read for it).
 */
async function withInternships(kv: Deno.Kv, records: ApplicationRecord[]): Promise<MyApplication[]> {
  const internships = await publicInternshipsById(kv, records.map((record) => record.internshipId));
  const unread = new Set(
    records.filter((record) => WAITING.includes(record.status) && !internships.has(record.internshipId))
      .map((record) => record.internshipId),
  );
  const ends = new Map(
    await Promise.all([...unread].map(async (id) => [id, (await internshipRecord(kv, id))?.record ?? null] as const)),
  );
  return records.map((record) => {
    const internship = internships.get(record.internshipId) ?? null;
    return {
      ...applicationView(record),
      internship,
      appliedTerms: record.appliedTerms ? keptTerms(record.appliedTerms) : null,
      answerBy: answerBy(record, internship ?? ends.get(record.internshipId) ?? null),
    };
  });
}

/**
 * When waiting application `record` is answered at the latest, by the timeout job if nobody answers it first
 * (`answeredByTimeoutAt`): from its due time by `listing` as it is now (its deadline, close, deletion and rejection;
 * the timeout job judges so when it meets it), or its stored due time for a listing gone from the store, and never
 * before now (a deadline removed 40 days after applying: the job's next run answers it); null once answered.
 */
function answerBy(record: ApplicationRecord, listing: ListingEnd | null): string | null {
  if (!WAITING.includes(record.status) || !record.dueAt) return null;
  const dueAt = listing ? timeoutDueAt(listing, record.createdAt) : record.dueAt;
  return answeredByTimeoutAt(new Date(Math.max(Date.parse(dueAt), Date.now())).toISOString());
}

/** A page of a person's applications: the applications, and where the next page starts (null on the last). */
export interface MyApplicationsPage {
  applications: MyApplication[];
  next: MinePlace | null;
}

/**
 * A page of `userId`'s applications (of `status` when given), newest first, each with its internship as the public
 * reads it: `limit` of them, those after `after` or from `from` on (`from` itself included; neither: from the newest).
 * The places come `limit + 1` at a time from the person's entries by when they were sent (`sentPlaces`, of `status`
 * when given), and their records are read until the page and the next one's first are found (one list and one read
 * but in a race), internships for the page only. Until the `applications-sent-index` job has indexed the applications
 * sent before those entries (`backfillDone`), the person's entries (`{id, createdAt}`, small) are listed whole and
 * ordered instead (docs/decisions.md, Applications, "The tracker follows").
 */
export async function myApplications(
  kv: Deno.Kv,
  { userId, status, limit, after, from }: {
    userId: string;
    status?: ApplicationStatus;
    limit: number;
    after?: MinePlace;
    from?: MinePlace;
  },
): Promise<MyApplicationsPage> {
  const start = after ?? from;
  const places = await backfillDone(kv, SENT_INDEX_PROGRESS)
    ? indexedPlaces(kv, {
      userId,
      status,
      before: start ? { createdMs: Date.parse(start.createdAt), id: start.id, inclusive: !after } : null,
      size: limit + 1,
    })
    : listedPlaces(kv, { userId, after, from, size: limit + 1 });
  const found: ApplicationRecord[] = [];
  for await (const ids of places) {
    const read = await readApplications(kv, ids);
    for (const id of ids) {
      const record = read.get(id)?.value;
      if (record && (!status || record.status === status)) found.push(record);
    }
    if (found.length > limit) break;
  }
  const next = found[limit];
  return {
    applications: await withInternships(kv, found.slice(0, limit)),
    next: next ? { createdAt: next.createdAt, id: next.id } : null,
  };
}

/**
 * The ids of `userId`'s applications (of `status` when given) newest first, `size` at a time, from their entries by
 * when they were sent (`sentPlaces`): one list per `size`, from `before` on.
 */
async function* indexedPlaces(
  kv: Deno.Kv,
  { userId, status, before, size }: {
    userId: string;
    status?: ApplicationStatus;
    before: Parameters<typeof sentPlaces>[1]["before"];
    size: number;
  },
): AsyncGenerator<string[]> {
  for (let from = before;;) {
    const places = await sentPlaces(kv, { applicantId: userId, status, before: from, limit: size });
    if (places.length > 0) yield places.map((place) => place.id);
    if (places.length < size) return;
    from = { ...places.at(-1)!, inclusive: false };
  }
}

/**
 * The ids of `userId`'s applications newest first, after `after` or from `from` on, `size` at a time, from their person
 * entries listed whole and ordered (before the entries by when they were sent are complete).
 */
async function* listedPlaces(
  kv: Deno.Kv,
  { userId, after, from, size }: { userId: string; after?: MinePlace; from?: MinePlace; size: number },
): AsyncGenerator<string[]> {
  const places = (await personEntries(kv, userId)).map(({ entry }) => entry).sort(newestFirst)
    .filter((place) => after ? newestFirst(place, after) > 0 : from ? newestFirst(place, from) >= 0 : true);
  for (let i = 0; i < places.length; i += size) yield places.slice(i, i + size).map((place) => place.id);
}

/**
 * `userId`'s applications for their data export (docs/decisions.md, Data rights, "Export"): as `myApplications` (the
 * listing now and `appliedTerms`, its terms when applying), each with the profile its poster was sent (`applicant`:
 * name, picture, e-mail, contact number, college, role, field and interests as they were when applying).
 */
export async function exportedApplications(
  kv: Deno.Kv,
  userId: string,
): Promise<(MyApplication & { applicant: ApplicantSnapshot | null })[]> {
  const records = await recordsOf(kv, userId);
  return (await withInternships(kv, records)).map((view, i) => ({ ...view, applicant: records[i].applicant }));
}

/**
 * When `userId` applied to each of `internshipIds` they applied to, `{internshipId: createdAt}` (the others are absent),
 * read from their person entries of those ids only (`personEntriesOf`).
 */
export async function appliedOn(
  kv: Deno.Kv,
  userId: string,
  internshipIds: readonly string[],
): Promise<Record<string, string>> {
  const entries = await personEntriesOf(kv, userId, internshipIds);
  return Object.fromEntries(entries.map(({ internshipId, entry }) => [internshipId, entry.createdAt]));
}

/**
 * The poster's list of internship `internshipId` for `actor` (docs/decisions.md, Applications, "The poster's list"):
 * the counts per status, one page of `query` (see `pipeline.ts`), each application with its applicant as the poster
 * sees them (and without the intern's stipend report: `PosterApplication`), and the page's `pagination` (`total`: the applications matching status and search). The actor's own
 * application, if they sent one, is not in the list nor in its counts: nobody is the poster of their own application.
 * @throws NotFoundError for an unknown internship and for anyone but its poster.
 */
export async function posterApplications(
  kv: Deno.Kv,
  { internshipId, actor, query }: { internshipId: string; actor: User; query: PipelineQuery },
): Promise<{ applications: PosterApplication[]; counts: StatusCounts; pagination: Pagination }> {
  const listing = await posterListing(kv, internshipId, actor);
  const own = await kv.get<{ id: string }>(personKey(actor.id, internshipId));
  const page = await pipelinePage(kv, internshipId, { ...query, without: own.value?.id ?? null });
  const applications = await posterViews(kv, listing, page.ids);
  const { limit, offset } = query;
  const pagination = { limit, offset, total: page.total, hasMore: offset + page.ids.length < page.total };
  return { applications, counts: page.counts, pagination };
}

/**
 * The ids of every application of `listing` (as `posterListing` answered it to `actor`) in `status` (all, in course
 * order, when absent) matching every word of `search`, in the poster's list's order, without `actor`'s own: all its
 * pages in one read of the list, so that what reads their records page by page (the spreadsheet) neither skips nor
 * repeats one that moves meanwhile.
 */
export async function posterApplicationIds(
  kv: Deno.Kv,
  { listing, actor, status, search }: {
    listing: Listing;
    actor: User;
    status?: ApplicationStatus;
    search: string[];
  },
): Promise<string[]> {
  const internshipId = listing.record.id;
  const own = await kv.get<{ id: string }>(personKey(actor.id, internshipId));
  const without = own.value?.id ?? null;
  const all = { status, search, limit: Number.MAX_SAFE_INTEGER, offset: 0, without };
  return (await pipelinePage(kv, internshipId, all)).ids;
}

/**
 * The applications `ids` of `listing` as its poster reads them (`PosterApplication`: the applicant as the poster sees
 * them, without the intern's stipend report, nothing sent by one who withdrew), in that order; one gone is left out.
 */
export async function posterViews(kv: Deno.Kv, listing: Listing, ids: string[]): Promise<PosterApplication[]> {
  const found = await readApplications(kv, ids);
  return ids.flatMap((id) => {
    const entry = found.get(id);
    if (!entry) return [];
    const { stipendReport: _, ...view } = applicationView(entry.value);
    // A withdrawn application takes back what it sent (docs/decisions.md, Applications, "Status changes").
    const sent = view.status === "withdrawn" ? { answers: [], coverNote: "", resume: null } : {};
    return [{
      ...view,
      ...sent,
      applicant: applicantView(entry.value),
      answerBy: answerBy(entry.value, listing.record),
    }];
  });
}

/** `userId`'s application to internship `internshipId`, or null. */
export async function applicationTo(
  kv: Deno.Kv,
  { userId, internshipId }: { userId: string; internshipId: string },
): Promise<ApplicationView | null> {
  const person = await kv.get<{ id: string }>(personKey(userId, internshipId));
  const entry = person.value && await readOne(kv, person.value.id);
  return entry ? applicationView(entry.value) : null;
}

/** Who is told of a move of `record`: its applicant (null when they deleted their account) and their e-mail switch. */
async function recipientOf(kv: Deno.Kv, record: ApplicationRecord): Promise<Recipient | null> {
  return record.applicantId ? await recipientById(kv, record.applicantId) : null;
}

/** Who `applicantId` is when told of moves (null when they deleted their account), and their e-mail switch. */
export async function recipientById(kv: Deno.Kv, applicantId: string): Promise<Recipient | null> {
  return (await recipientEntry(kv, applicantId)).recipient;
}

/**
 * `recipientById` with the user record's entry as read, for a write that tells them to check: a person who deleted
 * their account after this read makes that write fail (`user.value` is null once they have). `emailOn` is their
 * e-mail switch of `type` (default: `application_status`).
 */
export async function recipientEntry(
  kv: Deno.Kv,
  applicantId: string,
  type: NotificationType = "application_status",
): Promise<{ user: Deno.KvEntryMaybe<User>; recipient: Recipient | null }> {
  const [user, settings] = await Promise.all([kv.get<User>(userKey(applicantId)), getSettings(kv, applicantId)]);
  if (!user.value) return { user, recipient: null };
  return {
    user,
    recipient: {
      userId: user.value.id,
      name: user.value.name,
      email: user.value.email,
      emailOn: user.value.emailVerified && emailAllowed(settings, type),
      language: user.value.language,
    },
  };
}

/** Where a page of the poster's list stands. */
export interface Pagination {
  limit: number;
  offset: number;
  total: number;
  hasMore: boolean;
}

/** What a move needs to say who moved what: the internship's title and organization, and the site's origin. */
interface MoveContext extends NamedListing {
  appUrl: string;
}

/**
 * A listing as a notice to its applicants names it: its title and organization as it reads now, and whether an admin
 * holds or rejected it (`held`), when its words may be what the never-pay rule stopped.
 */
export interface NamedListing {
  title: string;
  organization: string;
  held: boolean;
}

/**
 * The title and organization a notice about application `record` names: `listing`'s as it reads now, or while it is
 * `held` the ones the application was made under, so that a poster cannot carry words an admin is holding back (a fee
 * asked in a title) to every applicant by moving them (docs/decisions.md, Applications, "Telling people"). An
 * application made before those were kept is named by the listing as it reads.
 */
export function namedListing(
  record: ApplicationRecord,
  listing: NamedListing,
): { title: string; organization: string } {
  if (!listing.held) return { title: listing.title, organization: listing.organization };
  return {
    title: record.appliedTerms?.title ?? listing.title,
    organization: record.appliedTerms?.organization ?? listing.organization,
  };
}

/** One move of an application: to what, by whom, with which message. */
interface Move {
  status: ApplicationStatus;
  by: "applicant" | "poster" | "system";
  message: string | null;
}

/** `record` after `move` at `now` (ISO): status, history, first answer, due time. */
function moved(record: ApplicationRecord, move: Move, now: string): ApplicationRecord {
  return {
    ...record,
    status: move.status,
    updatedAt: now,
    history: [...record.history, { status: move.status, at: now, by: move.by, message: move.message }],
    firstResponseAt: record.firstResponseAt ?? (move.by === "poster" ? now : null),
    dueAt: WAITING.includes(move.status) ? record.dueAt : null,
  };
}

/**
 * Adds to `op` the move of `entry` (as read, checked) to `next`: the record and its indexes, the applicant's tracker
 * item (`tracker`, as read; not made again when the applicant removed it) and, for a move by someone else, the
 * applicant's notification and e-mail. Returns the mail's id, or null.
 */
function moveOps(
  op: Deno.AtomicOperation,
  { entry, next, tracker, recipient, context, now }: {
    entry: Deno.KvEntry<ApplicationRecord>;
    next: ApplicationRecord;
    tracker: Awaited<ReturnType<typeof readTrackerEntries>> | null;
    recipient: Recipient | null;
    context: MoveContext;
    now: Date;
  },
): string | null {
  op.check(entry);
  applicationOps(op, entry.value, next, now.getTime());
  const last = next.history.at(-1)!;
  const trackerStatus = TRACKER_STATUS[next.status];
  if (tracker && trackerStatus && next.applicantId) {
    followApplicationOps(op, {
      userId: next.applicantId,
      internshipId: next.internshipId,
      entries: tracker,
      status: trackerStatus,
      now: now.toISOString(),
      create: false,
    });
  }
  if (!recipient || last.by === "applicant") return null;
  return tellApplicantOps(op, {
    recipient,
    applicationId: next.id,
    status: next.status,
    by: last.by,
    message: last.message,
    ...namedListing(next, context),
    appUrl: context.appUrl,
    now,
  });
}

/** The outcome of a write that told the applicant: the record as written and the e-mail to start delivering. */
export interface MoveResult {
  application: ApplicationView;
  mailId: string | null;
}

/**
 * Moves the application `id` by `move` after `check(record)` passes, retrying lost races on fresh reads: the record,
 * the tracker and the applicant's notification and e-mail in one write.
 * @throws what `check` throws; BusyError after 20 lost races.
 */
async function moveOne(
  kv: Deno.Kv,
  { id, move, check, context }: {
    id: string;
    move: Move;
    check: (record: ApplicationRecord) => Promise<void> | void;
    context: (record: ApplicationRecord) => Promise<MoveContext>;
  },
): Promise<MoveResult> {
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const entry = await readOne(kv, id);
    if (!entry) throw new NotFoundError(NOT_FOUND);
    await check(entry.value);
    const now = new Date();
    const next = moved(entry.value, move, now.toISOString());
    const [tracker, recipient, said] = await Promise.all([
      entry.value.applicantId ? readTrackerEntries(kv, entry.value.applicantId, entry.value.internshipId) : null,
      recipientOf(kv, entry.value),
      context(entry.value),
    ]);
    const op = kv.atomic();
    const mailId = moveOps(op, { entry, next, tracker, recipient, context: said, now });
    if ((await op.commit()).ok) return { application: applicationView(next), mailId };
  }
  throw new BusyError(REFUSALS.applicationBusy);
}

/** What a move tells of `listing`: its title and organization name, and whether it is held (`namedListing`). */
function contextOf(listing: Listing, appUrl: string): MoveContext {
  return {
    title: listing.view.title,
    organization: listing.view.organization?.name ?? listing.view.hiringOrganization,
    held: listing.view.moderation.status !== "clear",
    appUrl,
  };
}

/**
 * The poster's move of application `id` to `change.status` with `change.message` (docs/decisions.md, Applications,
 * "Status changes").
 * @throws NotFoundError `NOT_FOUND` for an unknown id and for anyone but the internship's poster (its own applicant is
 *   never its poster); ForbiddenError `LISTING_TAKEN_DOWN` or `LISTING_DELETED` for anyone but an admin once an admin
 *   rejected the listing or it was deleted (`checkMovesAllowed`); InvalidInputError `INVALID_CHANGE` or `FINAL`, or
 *   `MESSAGE_ASKS_TO_PAY` at `message` (the never-pay rule, `checkPosterMessage`); BusyError.
 */
export async function changeStatus(
  kv: Deno.Kv,
  { id, actor, change, appUrl }: { id: string; actor: User; change: StatusChange; appUrl: string },
): Promise<MoveResult> {
  let listing: Listing | null = null;
  return await moveOne(kv, {
    id,
    move: { status: change.status, by: "poster", message: change.message },
    check: async (record) => {
      listing ??= await internshipRecord(kv, record.internshipId);
      const poster = record.applicantId !== actor.id && listing !== null && await isPosterOf(kv, actor, listing);
      if (!poster) throw new NotFoundError(NOT_FOUND);
      checkMovesAllowed(actor, listing!.record);
      checkPosterMove(record.status, change.status);
      checkPosterMessage(change.message);
    },
    context: () => Promise.resolve(contextOf(listing!, appUrl)),
  });
}

/** Most applications read at once, and moved in one write, by a bulk change (each move about 25 mutations). */
const BULK_WRITE = 20;
/** Most estimated bytes of one write of a bulk change: well under KV's 800 KiB a commit, as the timeout job's. */
const BULK_BYTES = 500_000;
/**
 * What a move writes besides its record, search texts and message (bytes, generously): the e-mail's words and layout
 * (under 3 KB without a message), the notification, the tracker item and the index entries.
 */
const MOVE_OVERHEAD_BYTES = 8_000;

/**
 * An upper bound of the bytes the move to `next` with `message` adds to a write (see `valueBytes`): the record, its
 * applicant's search text in the status entry and the change log, and the message in the notification and in the
 * e-mail's text and HTML.
 */
function moveBytes(next: ApplicationRecord, message: string | null): number {
  return valueBytes(next) + 2 * valueBytes(next.applicant) + 3 * valueBytes(message) + MOVE_OVERHEAD_BYTES;
}

/** `items` cut, in order, into runs whose `bytes` add up to at most `limit` each (an item over it alone). */
function byBytes<T>(items: readonly T[], bytes: (item: T) => number, limit: number): T[][] {
  const runs: T[][] = [];
  let size = Infinity;
  for (const item of items) {
    const cost = bytes(item);
    if (size + cost > limit) {
      runs.push([]);
      size = 0;
    }
    runs.at(-1)!.push(item);
    size += cost;
  }
  return runs;
}

/**
 * The poster's move of the applications `ids` of internship `internshipId` to `change.status` (each as
 * `changeStatus`), in writes of at most 20 moves and 500 KB by estimate (long answers and messages fill KV's 800 KiB
 * a commit before 20 moves do): ids of other internships, unknown ids, the actor's own application and applications
 * that cannot make that move are left out. A write that loses a race is done again one application at a time. Returns
 * how many moved and the e-mails to start delivering.
 * @throws NotFoundError for anyone but the internship's poster; ForbiddenError `LISTING_TAKEN_DOWN` or
 *   `LISTING_DELETED` for anyone but an admin once an admin rejected the listing or it was deleted; InvalidInputError `MESSAGE_ASKS_TO_PAY` at `message` (the never-pay rule,
 *   `checkPosterMessage`); nothing moved.
 */
export async function changeMany(
  kv: Deno.Kv,
  { internshipId, actor, change, appUrl }: {
    internshipId: string;
    actor: User;
    change: StatusChange & { ids: string[] };
    appUrl: string;
  },
): Promise<{ updated: number; mailIds: string[] }> {
  const listing = await posterListing(kv, internshipId, actor);
  checkMovesAllowed(actor, listing.record);
  checkPosterMessage(change.message);
  const context = contextOf(listing, appUrl);
  const move: Move = { status: change.status, by: "poster", message: change.message };
  const movable = (record: ApplicationRecord) => {
    if (record.internshipId !== internshipId || record.applicantId === actor.id) return false;
    try {
      checkPosterMove(record.status, change.status);
      return true;
    } catch {
      return false;
    }
  };
  const ids = [...new Set(change.ids)];
  let updated = 0;
  const mailIds: string[] = [];
  for (let i = 0; i < ids.length; i += BULK_WRITE) {
    const entries = [...(await readApplications(kv, ids.slice(i, i + BULK_WRITE))).values()]
      .filter((entry) => movable(entry.value));
    const now = new Date();
    const prepared = await Promise.all(entries.map(async (entry) => ({
      entry,
      next: moved(entry.value, move, now.toISOString()),
      tracker: entry.value.applicantId
        ? await readTrackerEntries(kv, entry.value.applicantId, entry.value.internshipId)
        : null,
      recipient: await recipientOf(kv, entry.value),
    })));
    for (const write of byBytes(prepared, (item) => moveBytes(item.next, move.message), BULK_BYTES)) {
      const op = kv.atomic();
      const mails = write.map((item) => moveOps(op, { ...item, context, now }));
      if ((await op.commit()).ok) {
        updated += write.length;
        mailIds.push(...mails.flatMap((mail) => mail ?? []));
        continue;
      }
      for (const { entry } of write) {
        try {
          const result = await moveOne(kv, {
            id: entry.value.id,
            move,
            check: (record) => {
              if (!movable(record)) throw new InvalidInputError(record.status);
            },
            context: () => Promise.resolve(context),
          });
          updated++;
          if (result.mailId) mailIds.push(result.mailId);
        } catch (error) {
          if (!(error instanceof InvalidInputError || error instanceof NotFoundError)) throw error;
        }
      }
    }
  }
  return { updated, mailIds };
}

/** Applications read at once by `stopCounting` (written in runs of at most 500 KB by estimate, as a bulk move's). */
const UNCOUNT_READ = 20;

/**
 * Stops counting the applications of internship `internshipId` toward organization `organizationId`, once its listing
 * was unlinked from it (docs/decisions.md, Trust, "Who lists under a verified name"): each one recorded with that
 * organization gets `organizationId: null`, and its track record counts are taken back in the same write
 * (`applicationOps`); writes of at most 20 applications and 500 KB by estimate, each checked against its records as
 * read (a lost race reads them again); after at least `limit` changed, it stops.
 * @returns how many changed, and whether it looked at every application of the internship (none is left).
 * @throws BusyError after 30 s of lost races on one write (those done stay done).
 */
export async function stopCounting(
  kv: Deno.Kv,
  { internshipId, organizationId, limit }: { internshipId: string; organizationId: string; limit: number },
): Promise<{ changed: number; done: boolean }> {
  const ids: string[] = [];
  for await (const { id } of statusIndex(kv, internshipId)) ids.push(id);
  let changed = 0;
  for (let i = 0; i < ids.length; i += UNCOUNT_READ) {
    if (changed >= limit) return { changed, done: false };
    const slice = ids.slice(i, i + UNCOUNT_READ);
    await retrying(async () => {
      const counted = [...(await readApplications(kv, slice)).values()]
        .filter((entry) => entry.value.organizationId === organizationId);
      for (const run of byBytes(counted, (entry) => moveBytes(entry.value, null), BULK_BYTES)) {
        const op = kv.atomic();
        for (const entry of run) {
          op.check(entry);
          applicationOps(op, entry.value, { ...entry.value, organizationId: null });
        }
        if (!(await op.commit()).ok) return false;
        changed += run.length;
      }
      return true;
    }, RETRY_BUDGET_MS);
  }
  return { changed, done: true };
}

/**
 * The applicant's withdrawal of their application `id`: only from `applied` or `shortlisted`.
 * @throws NotFoundError `NOT_FOUND` for an unknown id or another person's; InvalidInputError `INVALID_CHANGE` or
 *   `FINAL`; BusyError.
 */
export async function withdraw(kv: Deno.Kv, { id, userId }: { id: string; userId: string }): Promise<ApplicationView> {
  const { application } = await moveOne(kv, {
    id,
    move: { status: "withdrawn", by: "applicant", message: null },
    check: (record) => {
      if (record.applicantId !== userId) throw new NotFoundError(NOT_FOUND);
      checkWithdrawal(record.status);
    },
    context: () => Promise.resolve({ title: "", organization: "", held: false, appUrl: "" }),
  });
  return application;
}

/**
 * `record` (waiting) as the system rejects it at `now` (ISO) because its organization did not answer in time, with
 * `message` (`timeoutMessage` in the applicant's language, English without one); see `timeout.ts`.
 */
export function timedOut(
  record: ApplicationRecord,
  { message, now }: { message: string; now: string },
): ApplicationRecord {
  return moved(record, { status: "rejected", by: "system", message }, now);
}

/**
 * A hired intern's stipend report on their application `id` (docs/decisions.md, Applications, "Stipend reports"): at
 * least 30 days after hiring, one per application, changeable; it counts toward the organization's track record.
 * @throws NotFoundError for an unknown id or another person's; InvalidInputError `STIPEND_TOO_EARLY`; BusyError.
 */
export async function reportStipend(
  kv: Deno.Kv,
  { id, userId, paid }: { id: string; userId: string; paid: StipendPaid },
): Promise<ApplicationView> {
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const entry = await readOne(kv, id);
    if (!entry || entry.value.applicantId !== userId) throw new NotFoundError(NOT_FOUND);
    const now = Date.now();
    checkStipendReport(entry.value.status, hiredAt(entry.value.history), now);
    if (entry.value.stipendReport?.paid === paid) return applicationView(entry.value);
    const next: ApplicationRecord = { ...entry.value, stipendReport: { paid, at: new Date(now).toISOString() } };
    const op = kv.atomic().check(entry);
    applicationOps(op, entry.value, next, now);
    if ((await op.commit()).ok) return applicationView(next);
  }
  throw new BusyError(REFUSALS.applicationBusy);
}

/**
 * The resume copied into application `id`, for `viewer`: its applicant, the internship's poster or an admin; not its
 * poster once an admin rejected the listing or it was deleted (`movesAllowed`), as most resumes carry the e-mail and
 * phone number that such a poster may no longer reach by shortlisting; nor once its applicant withdrew it
 * (docs/decisions.md, Applications, "Status changes").
 * @throws NotFoundError for anyone else, an unknown id, or a resume no longer kept.
 */
export async function applicationResume(
  kv: Deno.Kv,
  files: ObjectStore,
  { id, viewer }: { id: string; viewer: User },
): Promise<{ name: string; file: StoredObject }> {
  const entry = await readOne(kv, id);
  if (!entry) throw new NotFoundError(NOT_FOUND);
  const record = entry.value;
  let allowed = record.applicantId === viewer.id || isAdmin(viewer);
  if (!allowed) {
    const listing = await internshipRecord(kv, record.internshipId);
    allowed = listing !== null && record.status !== "withdrawn" && movesAllowed(viewer, listing.record) &&
      await isPosterOf(kv, viewer, listing);
  }
  const file = allowed && record.resume ? await copiedResumeFile(files, record.resume) : null;
  if (!file || !record.resume) throw new NotFoundError(NOT_FOUND);
  return { name: record.resume.name, file };
}

/** The change log's entries of application `entry` (`logEntriesOf`); none when it is gone. */
function logOf(kv: Deno.Kv, entry: Deno.KvEntry<ApplicationRecord> | undefined): Promise<LogEntry[]> {
  return entry ? logEntriesOf(kv, entry.value) : Promise.resolve([]);
}

/** Applications taken per round of `forgetApplicant`. */
const FORGET_BATCH = 50;

/**
 * Change logs `forgetApplicant` reads at once: each is up to a day of its internship's log, so a round's 50 read side by
 * side would hold 50 lists' pages in the process that also serves requests.
 */
const LOGS_AT_ONCE = 5;

/**
 * Adds to `op` the write that makes application `entry` (as read, checked; null when gone) forget `userId`, who
 * applied to `internshipId` (`forgetApplicant`; `person`, their entry of it), with its earlier changes taken out of the
 * change log (`log`, its entries as read: `logEntriesOf`). Returns the resume copy it lets go of, or null.
 */
function forgetApplicantOps(
  op: Deno.AtomicOperation,
  { userId, internshipId, person, entry, log, now }: {
    userId: string;
    internshipId: string;
    person: PersonEntry;
    entry: Deno.KvEntry<ApplicationRecord> | null;
    log: LogEntry[];
    now: Date;
  },
): { fileId: string; holder: string } | null {
  if (!entry || entry.value.applicantId !== userId) {
    op.delete(personKey(userId, internshipId));
    forgetSentOps(op, userId, person);
    return null;
  }
  const record = entry.value;
  const withdrawn = WAITING.includes(record.status);
  const next: ApplicationRecord = {
    ...(withdrawn ? moved(record, { status: "withdrawn", by: "applicant", message: null }, now.toISOString()) : record),
    applicantId: null,
    applicant: null,
    answers: [],
    coverNote: "",
    resume: null,
  };
  op.check(entry);
  forgetLogOps(op, record.id, log, now.getTime());
  applicationOps(op, record, next, now.getTime());
  return record.resume && { fileId: record.resume.fileId, holder: applicationHolder(record.id) };
}

/**
 * The account deletion step of applications (docs/decisions.md, Data rights): each application of `userId` loses what
 * is about the person (the applicant's id and profile snapshot, the answers, the cover note and the resume copy, whose
 * bytes go once nothing else holds them), and its earlier changes leave the change log (`forgetLogOps`, in the same
 * write: the log's search text is the applicant's name and college); one still waiting is withdrawn, so nobody is asked to answer a deleted
 * person. What the poster wrote and the stipend report stay, counted anonymously in the track record. It works
 * `FORGET_BATCH` applications at a time: their records read at once (10 a `getMany`), each write checked against what
 * it read (the log's entries read with them), the writes packed into few commits (`commitPacked`); one changed meanwhile is read again and written alone
 * (`retrying`). After each batch it drops the resume copies let go of and calls `renew` (the deletion's lease), whose
 * throw stops it. Idempotent: the person's index entries go with each write, so a second run finds nothing.
 * @throws BusyError when one application kept changing for 30 s; what `renew` throws.
 */
export async function forgetApplicant(
  kv: Deno.Kv,
  files: ObjectStore,
  userId: string,
  { renew }: { renew?: () => Promise<void> } = {},
): Promise<void> {
  const people = await personEntries(kv, userId);
  for (let at = 0; at < people.length; at += FORGET_BATCH) {
    const batch = people.slice(at, at + FORGET_BATCH);
    const records = await readApplications(kv, batch.map(({ entry }) => entry.id));
    const fewAtATime = pLimit(LOGS_AT_ONCE);
    const logs = await Promise.all(
      batch.map(({ entry: person }) => fewAtATime(() => logOf(kv, records.get(person.id)))),
    );
    const now = new Date();
    const units = batch.map(({ internshipId, entry: person }, i) => {
      const unit = new WriteUnit();
      const entry = records.get(person.id) ?? null;
      const copy = forgetApplicantOps(unit.op, { userId, internshipId, person, entry, log: logs[i], now });
      return { unit, copy };
    });
    const written = await commitPacked(kv, units.map(({ unit }) => unit));
    const dropped = units.flatMap(({ copy }, i) => written[i] && copy ? [copy] : []);
    for (const [i, { internshipId, entry: person }] of batch.entries()) {
      if (written[i]) continue;
      await retrying(async () => {
        const op = kv.atomic();
        const entry = await readOne(kv, person.id);
        const log = await logOf(kv, entry ?? undefined);
        const copy = forgetApplicantOps(op, { userId, internshipId, person, entry, log, now: new Date() });
        if (!(await op.commit()).ok) return false;
        if (copy) dropped.push(copy);
        return true;
      }, RETRY_BUDGET_MS);
    }
    if (dropped.length > 0) await dropResumeCopies(kv, files, dropped);
    await renew?.();
  }
}
