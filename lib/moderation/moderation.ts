/**
 * The moderation state of a listing, internship or opportunity (docs/decisions.md, Trust, "Moderation"): `clear`
 * (listed as usual), `held` (kept out of every public surface until an admin decides; its owner and admins still read
 * it, with the reasons) or `rejected` (never listed). Pure rules over the state stored on the record; the domains call
 * them in their own writes, and `queue.ts` keeps the admin queue's index in those same writes.
 */
import { ASKS_TO_PAY, moneyPhrasesIn } from "./never_pay.ts";

/** The states, in the order the admin queue shows them. */
export const MODERATION_STATUSES = ["clear", "held", "rejected"] as const;
export type ModerationStatus = typeof MODERATION_STATUSES[number];

/** The reason of a listing held by three students' reports (docs/decisions.md, Trust, "Reports"). */
export const REPORTED_BY_STUDENTS = "Reported by students";

/** The reason of a listing an admin rejected without its being held. */
export const REJECTED_BY_ADMIN = "Rejected by an admin";

/** An admin's decision on a held listing: `approve` lists it (`clear`), `reject` keeps it out for good (`rejected`). */
export const MODERATION_DECISIONS = ["approve", "reject"] as const;
export type ModerationDecision = typeof MODERATION_DECISIONS[number];

/** The moderation state as a listing record stores it. Times are ISO 8601. */
export interface Moderation {
  status: ModerationStatus;
  /**
   * Why it is held or was rejected, as fixed English codes (`ASKS_TO_PAY`, `REPORTED_BY_STUDENTS`,
   * `REJECTED_BY_ADMIN`) that a page words in its reader's language (`lib/browser/moderation_format.ts`); empty when
   * clear.
   */
  reasons: string[];
  /** When it was last held; null when it never was. */
  heldAt: string | null;
  /** When an admin last decided, and the note they wrote for the owner (null for none). */
  decidedAt: string | null;
  note: string | null;
}

/** The moderation state as every read response carries it: `{status, reasons}`. */
export interface ModerationView {
  status: ModerationStatus;
  reasons: string[];
}

/** The state of a listing no rule ever held (and of records stored before moderation existed). */
export const CLEAR: Moderation = Object.freeze({
  status: "clear",
  reasons: [],
  heldAt: null,
  decidedAt: null,
  note: null,
}) as Moderation;

/** The stored state of `record`, `CLEAR` for a record without one. */
export function moderationOf(record: { moderation?: Moderation | null }): Moderation {
  return record.moderation ?? CLEAR;
}

/** `{status, reasons}` of `record` for a read response. */
export function moderationView(record: { moderation?: Moderation | null }): ModerationView {
  const { status, reasons } = moderationOf(record);
  return { status, reasons: [...reasons] };
}

/**
 * Whether students' reports hold the listing of `moderation` (stored, or as read responses carry it): its owner may not
 * change what it says until an admin decides, so the admin judges the text that was reported (docs/decisions.md,
 * Trust, "A reported listing keeps its text").
 */
export function heldByReports(
  moderation: { status: ModerationStatus; reasons?: readonly string[] } | undefined,
): boolean {
  return moderation?.status === "held" && (moderation.reasons ?? []).includes(REPORTED_BY_STUDENTS);
}

/** Whether `record` (stored, or as read responses carry it) is kept out of the public surfaces: held or rejected. */
export function isWithheld(record: { moderation?: { status: ModerationStatus } | null }): boolean {
  return (record.moderation?.status ?? "clear") !== "clear";
}

/**
 * The texts of a listing the never-pay rule reads: every free text a student reads of it (docs/decisions.md, Trust,
 * "The never-pay rule"). An internship has the title, description, location, organization, hiring manager, experience,
 * duration, tags and screening questions; an opportunity the title, description, location and organizer. A field a
 * kind of listing lacks is absent.
 */
export interface ListingText {
  title: string;
  description: string | null;
  location?: string | null;
  hiringOrganization?: string;
  hiringManager?: string | null;
  experience?: string | null;
  duration?: string | null;
  tags?: readonly string[];
  questions?: readonly { text: string }[];
  organizer?: string | null;
}

/** The free texts of `listing` the never-pay rule reads, in a fixed order (absent and empty fields left out). */
export function listingTexts(listing: ListingText): string[] {
  const { title, description, location, hiringOrganization, hiringManager, experience, duration, organizer } = listing;
  return [
    title,
    description,
    location,
    hiringOrganization,
    hiringManager,
    experience,
    duration,
    organizer,
    ...(listing.tags ?? []),
    ...(listing.questions ?? []).map((question) => question.text),
  ].filter((text): text is string => Boolean(text));
}

/** Whether any text of `listingTexts` differs between `before` and `after` (one added or taken away included). */
export function textsChanged(before: ListingText, after: ListingText): boolean {
  const [old, next] = [listingTexts(before), listingTexts(after)];
  return old.length !== next.length || old.some((text, i) => text !== next[i]);
}

/** `current` held at `now` with `reason` added (a held one keeps its time and its other reasons). */
function holdWith(current: Moderation, reason: string, now: string): Moderation {
  if (current.status === "held") {
    return current.reasons.includes(reason) ? current : { ...current, reasons: [...current.reasons, reason] };
  }
  return { status: "held", reasons: [reason], heldAt: now, decidedAt: current.decidedAt, note: current.note };
}

/**
 * The state of a new listing with `text` at `now` (ISO): held when any of its texts (`listingTexts`) asks applicants to
 * pay, else clear.
 */
export function moderationOnCreate(text: ListingText, now: string): Moderation {
  return moneyPhrasesIn(...listingTexts(text)).length > 0 ? holdWith(CLEAR, ASKS_TO_PAY, now) : CLEAR;
}

/**
 * The state after an update from `before` to `after` at `now`: held when the new texts (`listingTexts`, every field a
 * student reads) hold a never-pay phrase the old ones did not (so a listing an admin approved with a disclosed fee is held again only for a phrase it did not
 * have); a rejected listing stays rejected; otherwise `current` unchanged (the same object).
 */
export function moderationOnUpdate(
  current: Moderation,
  { before, after }: { before: ListingText; after: ListingText },
  now: string,
): Moderation {
  if (current.status === "rejected" || !textsChanged(before, after)) return current;
  const had = new Set(moneyPhrasesIn(...listingTexts(before)));
  const added = moneyPhrasesIn(...listingTexts(after)).filter((phrase) => !had.has(phrase));
  return added.length > 0 ? holdWith(current, ASKS_TO_PAY, now) : current;
}

/**
 * The state of a submission sent to review again with `text` at `now` (an opportunity's resubmission): every text is
 * read again, since no admin approved this text yet, so it is held when any asks applicants to pay (a held one keeps its
 * reasons); a rejected one stays rejected; otherwise `current` unchanged (the same object).
 */
export function moderationOnResubmit(current: Moderation, text: ListingText, now: string): Moderation {
  if (current.status === "rejected") return current;
  return moneyPhrasesIn(...listingTexts(text)).length > 0 ? holdWith(current, ASKS_TO_PAY, now) : current;
}

/**
 * The state after review rejected a submission at `now` (docs/decisions.md, Opportunities, "Reject with a reason,
 * resubmit"): a held one is no longer held (review decided, and its submitter may edit it and send it again, when the
 * never-pay rule reads it again: `moderationOnResubmit`); otherwise `current` unchanged (the same object).
 */
export function moderationOnReviewRejection(current: Moderation, now: string): Moderation {
  if (current.status !== "held") return current;
  return { ...current, status: "clear", reasons: [], decidedAt: now };
}

/**
 * The state after students' reports reached the hold threshold at `since` (ISO), held at `now`: held "Reported by
 * students", unless rejected, or decided by an admin at or after `since` (those reports were before them); otherwise
 * `current` unchanged (the same object), so holding again is harmless.
 */
export function moderationOnReports(current: Moderation, { since, now }: { since: string; now: string }): Moderation {
  if (current.status === "rejected" || (current.decidedAt !== null && current.decidedAt >= since)) return current;
  return holdWith(current, REPORTED_BY_STUDENTS, now);
}

/**
 * The state after an admin dismissed the students' reports of a listing at `now` (docs/decisions.md, Trust, "Reports"):
 * the `REPORTED_BY_STUDENTS` reason goes, so a listing held only for it is `clear` (listed again) and one also held for
 * another reason (the never-pay rule) stays held for that one; `decidedAt` becomes `now`, so reports sent before it do
 * not hold it again. Otherwise (not held by reports) `current` unchanged (the same object), so releasing is idempotent.
 */
export function moderationOnDismissal(current: Moderation, now: string): Moderation {
  if (current.status !== "held" || !current.reasons.includes(REPORTED_BY_STUDENTS)) return current;
  const reasons = current.reasons.filter((reason) => reason !== REPORTED_BY_STUDENTS);
  return { ...current, status: reasons.length > 0 ? "held" : "clear", reasons, decidedAt: now };
}

/**
 * The state after an admin's `decision` at `now` with `note` (null for none): approve → `clear` without reasons;
 * reject → `rejected`, keeping the reasons it was held for (or `REJECTED_BY_ADMIN` when it was not held).
 */
export function moderationDecided(
  current: Moderation,
  { decision, note, now }: { decision: ModerationDecision; note: string | null; now: string },
): Moderation {
  if (decision === "approve") return { status: "clear", reasons: [], heldAt: current.heldAt, decidedAt: now, note };
  const reasons = current.reasons.length > 0 ? current.reasons : [REJECTED_BY_ADMIN];
  return { status: "rejected", reasons, heldAt: current.heldAt, decidedAt: now, note };
}
