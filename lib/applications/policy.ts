/**
 * Who may do what with applications, and how a status moves (docs/decisions.md, Applications, "Status changes"): the
 * one home of these rules, used by the domain functions and the pages alike.
 */
import { ForbiddenError, InvalidInputError } from "@/lib/errors.ts";
import { fieldProblem } from "@/lib/field_messages.ts";
import type { ModerationStatus } from "@/lib/moderation/moderation.ts";
import { moneyPhrasesIn } from "@/lib/moderation/never_pay.ts";
import type { User } from "@/lib/users/users.ts";
import {
  type ApplicationStatus,
  FINAL,
  INVALID_CHANGE,
  LISTING_DELETED,
  LISTING_TAKEN_DOWN,
  MESSAGE_ASKS_TO_PAY,
  WAITING,
} from "./schema.ts";
import { REFUSALS } from "@/lib/refusals.ts";
import { isAdmin } from "@/lib/users/roles.ts";
import { canPost } from "@/lib/internships/policy.ts";

/** The course of an application, each step after the one before; a poster may skip steps forwards. */
const COURSE: readonly ApplicationStatus[] = ["applied", "shortlisted", "interview", "offer", "hired"];
/** Statuses nothing moves out of. */
const FINAL_STATUSES: readonly ApplicationStatus[] = ["hired", "rejected", "withdrawn"];

/** Whether nothing moves an application in `status` any more. */
export function isFinal(status: ApplicationStatus): boolean {
  return FINAL_STATUSES.includes(status);
}

/**
 * Checks a poster's move from `from` to `to`: forwards along applied → shortlisted → interview → offer → hired (steps
 * may be skipped), or to `rejected` from any status but `hired` and `withdrawn`.
 * @throws InvalidInputError `FINAL` out of `hired`, `rejected` or `withdrawn`; `INVALID_CHANGE` for any other move.
 */
export function checkPosterMove(from: ApplicationStatus, to: ApplicationStatus): void {
  if (isFinal(from)) throw new InvalidInputError(FINAL);
  if (to === "rejected") return;
  const [at, next] = [COURSE.indexOf(from), COURSE.indexOf(to)];
  if (next <= at || at < 0) throw new InvalidInputError(INVALID_CHANGE, [{ field: "status", message: INVALID_CHANGE }]);
}

/**
 * The statuses a poster may move an application in `status` to (`checkPosterMove` allows each), in course order, with
 * `rejected` last; none out of a final status.
 */
export function posterMovesFrom(status: ApplicationStatus): ApplicationStatus[] {
  if (isFinal(status)) return [];
  return [...COURSE.slice(COURSE.indexOf(status) + 1), "rejected"];
}

/** What deciding whether a listing's applications still move needs: its moderation state (absent: clear), its deletion. */
export interface MovableListing {
  moderation?: { status: ModerationStatus } | null;
  deletedAt?: string | null;
}

/**
 * Why `user`, a poster of `listing`, may not move its applications, or null when they may (docs/decisions.md,
 * Applications, "Status changes"): an admin always may; anyone else not once an admin rejected the listing (a scam
 * taken down, a suspended poster's hide: `LISTING_TAKEN_DOWN`), so its poster cannot go on shortlisting its applicants
 * to read their e-mail and phone number or write to them; nor once the listing was deleted (`LISTING_DELETED`), as an
 * admin can no longer take a deleted listing down, so deleting a reported listing would otherwise keep that going.
 */
export function movesRefusal(user: User, listing: MovableListing): string | null {
  if (isAdmin(user)) return null;
  if (listing.moderation?.status === "rejected") return LISTING_TAKEN_DOWN;
  return listing.deletedAt ? LISTING_DELETED : null;
}

/** Whether `user`, a poster of `listing`, may move its applications (`movesRefusal` says none). */
export function movesAllowed(user: User, listing: MovableListing): boolean {
  return movesRefusal(user, listing) === null;
}

/**
 * Checks `movesAllowed`.
 * @throws ForbiddenError `LISTING_TAKEN_DOWN` or `LISTING_DELETED`.
 */
export function checkMovesAllowed(user: User, listing: MovableListing): void {
  const refusal = movesRefusal(user, listing);
  if (refusal) throw new ForbiddenError(refusal);
}

/**
 * Whether a poster's `message` to applicants asks them for money, by the never-pay rule's phrases (docs/decisions.md,
 * Trust, "The never-pay rule").
 */
export function messageAsksToPay(message: string | null): boolean {
  return !!message && moneyPhrasesIn(message).length > 0;
}

/**
 * Checks a poster's `message` sent with a move: one that asks the applicants for money is refused, as a manager's
 * about text is, since a move has no held state to wait in and the message reaches them by e-mail at once.
 * @throws InvalidInputError `MESSAGE_ASKS_TO_PAY` at the field `message` (a catalogue message, `fieldProblem`).
 */
export function checkPosterMessage(message: string | null): void {
  if (messageAsksToPay(message)) {
    throw new InvalidInputError(MESSAGE_ASKS_TO_PAY, [fieldProblem("message", { key: "fields.messageAsksToPay" })]);
  }
}

/**
 * Checks the applicant's withdrawal of an application in `from`: only from `applied` or `shortlisted`.
 * @throws InvalidInputError `FINAL` out of a final status, `INVALID_CHANGE` from `interview` or `offer`.
 */
export function checkWithdrawal(from: ApplicationStatus): void {
  if (isFinal(from)) throw new InvalidInputError(FINAL);
  if (!WAITING.includes(from)) throw new InvalidInputError(INVALID_CHANGE);
}

/** How long after being hired an intern may report the stipend (ms): 30 days. */
export const STIPEND_REPORT_AFTER_MS = 30 * 24 * 60 * 60 * 1000;
/** The refusal of a stipend report that comes too early or for an application not hired. */
export const STIPEND_TOO_EARLY = REFUSALS.stipendTooEarly;

/**
 * Checks that an application in `status`, hired at `hiredAt` (ISO, or null), may carry a stipend report at `now` (ms).
 * @throws InvalidInputError `STIPEND_TOO_EARLY`.
 */
export function checkStipendReport(status: ApplicationStatus, hiredAt: string | null, now: number): void {
  if (status !== "hired" || !hiredAt || now - Date.parse(hiredAt) < STIPEND_REPORT_AFTER_MS) {
    throw new InvalidInputError(STIPEND_TOO_EARLY);
  }
}

/** What deciding whether someone is an internship's poster needs to know of it. */
export interface PipelineAccess {
  /** The internship's owner (null: a former member). */
  ownerId: string | null;
  /** Its organization, when it is verified (managers of an unverified one see nothing). */
  verifiedOrganizationId: string | null;
  /** Whether the person manages that organization. */
  manages: boolean;
}

/**
 * Whether `user` is the poster of an internship (docs/decisions.md, Applications, "The poster"): its owner while they
 * may post (`canPost`: not once an admin made them a user again, not even as a manager of its organization), a manager
 * of its verified organization, or an admin.
 */
export function isPoster(user: User | null | undefined, access: PipelineAccess): boolean {
  if (!user) return false;
  if (isAdmin(user)) return true;
  if (user.id === access.ownerId) return canPost(user);
  return access.verifiedOrganizationId !== null && access.manages;
}

/** Whether the history says the application was hired, and when. */
export function hiredAt(history: readonly { status: ApplicationStatus; at: string }[]): string | null {
  return history.findLast((entry) => entry.status === "hired")?.at ?? null;
}
