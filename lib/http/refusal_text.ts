/**
 * A domain's refusal as a page shows it (docs/decisions.md, Languages, "Refusals on pages"): the API answers a
 * refusal's English sentence as `{error}`; a page that shows the refusal words it in its reader's language from the
 * catalogue (`common.refusal.*`). A sentence not listed here is shown as the domain wrote it.
 */
import type { MessageKey, Translate } from "@/lib/i18n/translator.ts";
import { VERIFY_FIRST } from "@/lib/errors.ts";
import { couponRefusalKey } from "@/lib/coupons/errors.ts";
import {
  COMMENTING_TOO_FAST,
  DELETE_OTHERS,
  EDIT_LATE,
  EDIT_OTHERS,
  VERIFY_TO_COMMENT,
} from "@/lib/comments/comments.ts";
import { NAME_TAKEN, NOT_FOUND as ORGANIZATION_NOT_FOUND, WEBSITE_LOCKED } from "@/lib/organizations/organizations.ts";
import { NO_WEBSITE, WRONG_DOMAIN } from "@/lib/organizations/claims.ts";
import { NOT_FOUND as INTERNSHIP_NOT_FOUND } from "@/lib/internships/internships.ts";
import { NOT_EDITABLE as OPPORTUNITY_NOT_EDITABLE } from "@/lib/opportunities/opportunities.ts";
import { RESUME_CHANGED } from "@/lib/resumes/resumes.ts";
import {
  ALREADY_APPLIED,
  ANSWER_REQUIRED,
  CLOSED,
  FINAL,
  INVALID_CHANGE,
  NO_RESUME_YET,
  NOT_FOUND as APPLICATION_NOT_FOUND,
  OWN_INTERNSHIP,
  TAKES_LINK,
  UNVERIFIED,
} from "@/lib/applications/schema.ts";

/** The rate limit's sentence when a rule names none (`RateLimitedError`). */
const TOO_MANY = "Too many requests, try again later";

/** The catalogue message of each refusal sentence a page may show; coupon refusals through `couponRefusalKey`. */
export const REFUSAL_KEYS: ReadonlyMap<string, MessageKey> = new Map<string, MessageKey>([
  [TOO_MANY, "common.errors.tooMany"],
  [VERIFY_FIRST, "common.refusal.verifyFirst"],
  [VERIFY_TO_COMMENT, "common.refusal.verifyToComment"],
  [COMMENTING_TOO_FAST, "common.refusal.commentTooFast"],
  [EDIT_OTHERS, "common.refusal.editOthers"],
  [EDIT_LATE, "common.refusal.editLate"],
  [DELETE_OTHERS, "common.refusal.deleteOthers"],
  [ORGANIZATION_NOT_FOUND, "common.refusal.organizationNotFound"],
  [NAME_TAKEN, "common.refusal.nameTaken"],
  [WEBSITE_LOCKED, "common.refusal.websiteLocked"],
  [NO_WEBSITE, "common.refusal.noWebsite"],
  [WRONG_DOMAIN, "common.refusal.wrongDomain"],
  [INTERNSHIP_NOT_FOUND, "common.refusal.internshipNotFound"],
  [TAKES_LINK, "common.refusal.takesLink"],
  [CLOSED, "common.refusal.closed"],
  [NO_RESUME_YET, "common.refusal.noResume"],
  [ALREADY_APPLIED, "common.refusal.alreadyApplied"],
  [INVALID_CHANGE, "common.refusal.invalidChange"],
  [FINAL, "common.refusal.final"],
  [APPLICATION_NOT_FOUND, "common.refusal.applicationNotFound"],
  [ANSWER_REQUIRED, "common.refusal.answerRequired"],
  [UNVERIFIED, "common.refusal.verifyToApply"],
  [OWN_INTERNSHIP, "common.refusal.ownInternship"],
  [OPPORTUNITY_NOT_EDITABLE, "common.refusal.opportunityReviewed"],
  [RESUME_CHANGED, "common.refusal.resumeChanged"],
]);

/** The catalogue message of a refusal sentence pages word, or undefined for a sentence not listed. */
export function refusalKey(message: string): MessageKey | undefined {
  return REFUSAL_KEYS.get(message) ?? couponRefusalKey(message);
}

/** The refusal `error` (an error or its message) in `t`'s language; a sentence not listed is shown as it is. */
export function refusalText(t: Translate, error: Error | string): string {
  const message = typeof error === "string" ? error : error.message;
  const key = refusalKey(message);
  return key ? t(key) : message;
}
