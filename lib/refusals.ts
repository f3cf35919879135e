/**
 * Browser-safe: the sentences domains refuse with, each defined once here (docs/decisions.md, Languages, "Refusals on
 * pages"). The API answers a refusal's English sentence as `{error}`; a page (`refusalText`) or an island
 * (`failureMessage`, `lib/browser/fetch_json.ts`) words it in its reader's language from the catalogue message
 * `common.refusal.<name>` (coupon refusals through `couponRefusalKey`; the platform's own, `PLATFORM_REFUSALS`, from
 * `common.errors.<name>`). Domain modules throw these constants; a sentence not listed is shown as the domain wrote it.
 * Islands import no value of this module: an island's `text` carries the refusals it lists (`refusalPrefixes`) with
 * their words, by a short id of each sentence, so no bundle holds every sentence.
 */
import type { MessageKey, Translate } from "@/lib/i18n/translator.ts";
import { quotedRefusal, REFUSAL_DETAIL } from "@/lib/i18n/refusal_detail.ts";
import { couponRefusalKey } from "@/lib/coupons/errors.ts";

/** Each refusal's English sentence, by the name of its catalogue message (`common.refusal.<name>`). */
export const REFUSALS = {
  verifyFirst: "Verify your e-mail address first",
  /** An admin whose address is not verified, at the admin area's guards (docs/decisions.md, Auth). */
  verifyToAdmin: "Verify your e-mail address first: the admin area opens only to a verified address",
  verifyToComment: "Verify your e-mail address to comment",
  commentTooFast: "You are commenting too fast. Try again in a minute.",
  editOthers: "You can edit only your own comments",
  editLate: "A comment can be edited only within 15 minutes of posting it",
  deleteOthers: "You can delete only your own comments",
  commentNotFound: "Comment not found",
  postNotFound: "Post not found",
  bannerNotFound: "Banner not found",
  organizationNotFound: "Organization not found",
  nameTaken: "Another organization already has this name",
  websiteLocked: "A verified organization's website can be changed only by an admin",
  verificationRemoved: "An admin took this organization's verification away; only an admin can verify it again",
  noWebsite: "This organization has no website yet",
  wrongDomain: "Use an e-mail address at the organization's domain",
  organizationHasManager: "This organization already has a manager; ask a manager or the team",
  internshipNotFound: "Internship not found",
  questionsNeedPlatform: 'Screening questions need applyMode "platform"',
  applyLinkNeeded: "Give the link where students apply, or take applications on this platform",
  opportunityNotFound: "Opportunity not found",
  opportunityReviewed: "Only a submission awaiting review or not approved can be edited",
  /**
   * An admin's review or moderation decision naming an `updatedAt` the listing no longer has (409;
   * docs/decisions.md, Trust, "Decide what you read").
   */
  listingChanged: "This listing changed since you opened it: read it again before deciding",
  /** An owner's edit of a listing students' reports hold (409; docs/decisions.md, Trust, "A reported listing keeps its text"). */
  heldByReports: "Students reported this listing and an admin is checking it: it cannot be edited until they decide",
  alertNotFound: "Alert not found",
  takesLink: "This internship takes applications on its own site",
  closed: "This internship is closed",
  /**
   * An application whose write found the listing closed, deleted or taken down after the applicant's page or request
   * read it open (409; docs/decisions.md, Applications, "Applying").
   */
  closedMeanwhile: "This internship stopped taking applications while you applied: your application was not sent",
  noResume: "Upload your resume first",
  alreadyApplied: "You have already applied",
  invalidChange: "Invalid status change",
  final: "This application can no longer change",
  applicationNotFound: "Application not found",
  answerRequired: "Answer every required question",
  unknownQuestion: "Unknown question",
  verifyToApply: "Verify your e-mail address to apply",
  ownInternship: "You cannot apply to your own internship",
  stipendTooEarly: "You can report the stipend 30 days after you were hired",
  /** A resume upload whose bytes are not a PDF, whatever its name (`lib/resumes/resumes.ts`). */
  resumeNotPdf: "This file is not a PDF: upload your resume as a PDF",
  /**
   * A resume over `MAX_RESUME_BYTES` (`lib/resumes/resumes.ts`; a test holds the number to it), and the 413 of a resume
   * upload's body (`bodyLimitRefusal`).
   */
  resumeTooLarge: "This file is larger than 2 MB: upload a PDF of at most 2 MB",
  /** A resume upload with no file in it. */
  resumeMissing: "Choose a PDF file to upload",
  resumeChanged: "Your resume changed while saving; try again",
  noResumeUploaded: "No resume uploaded",
  lastAdmin: "Make another admin before deleting the last admin account",
  toolkitNotFound: "Toolkit not found",
  lessonNotFound: "Content item not found",
  originalPriceBelowPrice: "The original price must not be below the price",
  duplicateCode: "Coupon code already exists",
  expiredAtCreation: "The expiry date has already passed: a coupon that has expired cannot be used",
  invalidBuyerState: "Invalid buyerState",
  invalidPaymentSignature: "Invalid payment signature",
  invalidWebhookSignature: "Invalid webhook signature",
  couponUnavailable: "This payment's coupon is no longer available: the payment will be refunded",
  amountMismatch: "This payment's amount does not match its order: the payment will be refunded",
  alreadyOwned: "You already own this toolkit: this payment will be refunded",
  onlyPaidRefundable: "Only a paid purchase can be refunded",
  freeNotRefundable: "A free purchase has no payment to refund",
  alreadyRefunded: "This payment has already been refunded",
  refundedAlready: "This purchase has been refunded already",
  refundAskedAlready: "You have already asked for a refund of this purchase",
  noOpenRefundRequest: "This purchase has no refund request waiting for an answer",
  mailNotFailed: "Only a failed mail can be retried",
  mailBodyDropped: "This e-mail held a single-use link, so its content was not kept after its last try " +
    "and it cannot be sent again; the person can ask for a new one",
  alwaysEmailed: "Receipts and refunds are always e-mailed",
  pushOff: "Push notifications are not configured",
  pushTooMany: "Too many push subscriptions",
  pushHostRefused: "This push service is not allowed",
  pushBadKeys: "Invalid push subscription keys",
  confirmEmail: "Type your account's e-mail address to confirm",
  wrongPassword: "Wrong password",
  /** Removing the account's last way to sign in (409; `unlinkProvider`). */
  lastSignIn: "This is the only way left to sign in to this account: choose a password (Forgot password) or " +
    "connect another account first",
  /** Removing a provider the account has no link to (404). */
  providerNotConnected: "This sign-in provider is not connected to your account",
  signInAgain:
    "Sign in again to delete this account: an account without a password needs a sign-in of the last 10 minutes",
  /** A deletion asked through a provider's sign-in that did not say when the person logged in there. */
  choosePasswordToDelete:
    "Choose a password to delete this account: your sign-in provider does not say when you logged in there, so signing in again cannot confirm it is you",
  applicationBusy: "The application changed too often at once; try again",
  applicationsBusy: "Too many applications at once; try again",
  couponNotFound: "Coupon not found",
  imageTooLarge: "File is larger than 5 MB",
  imageType: "File must be a PNG, JPEG, WebP or GIF image",
  imageNotFound: "File not found",
  adminOnlyFlags: "Only admins can change isVerified or isActive",
  postingNeedsMember: "Only members and admins can post internships",
  mailNotFound: "Mail not found",
  checkoutBusy: "Checkout is busy, try again",
  purchaseNotFound: "Purchase not found",
  paymentNotFound: "Payment not found",
  notYourPurchase: "This is not your purchase",
  receiptNotFound: "Receipt not found",
  creditNoteNotFound: "Credit note not found",
  /** 503: the gateway refunded, the refund's write kept losing races; a retry is not refunded twice and records it. */
  refundNotRecorded:
    "Refunded at the gateway, but the refund is not recorded yet: refund again to record it (the payment is not refunded twice)",
  noReports: "No reports of this",
  reportsBusy: "Too many reports at once; try again",
  /** 409: two admins resolving one target's reports at once (docs/decisions.md, Trust, "One admin resolves at a time"). */
  reportsBeingResolved: "Another admin is resolving these reports right now: read the page again in a minute",
  organizationNotDeleted: "An organization cannot be deleted; hide takes its verified badge away",
  organizationBusy: "The organization changed too often at once; try again",
  /** A manager's about text that asks applicants for money (the never-pay rule; 400 at `about`). */
  aboutAsksToPay: "The about text asks applicants to pay, which no listing here may do; take out the fee or deposit",
  /** 403: a non-admin poster's move of an application to a listing an admin rejected (docs/decisions.md, Applications). */
  listingTakenDown: "An admin took this listing down: its applications can no longer be moved",
  /** 403: a non-admin poster's move of an application to a listing that was deleted (docs/decisions.md, Applications). */
  listingDeleted: "This listing was deleted: its applications can no longer be moved",
  /** A poster's message with a move of applications that asks the applicants for money (400 at `message`). */
  messageAsksToPay: "The message asks applicants to pay, which nobody may do here; take out the fee or deposit",
  organizationsBusy: "Too many organizations were named at once; try again",
  userNotFound: "User not found",
  ownRole: "You cannot change your own role",
  ownSuspension: "You cannot suspend your own account",
  /** 409: demote first (docs/decisions.md, Admin, "Suspension"). */
  suspendAdmin: "An admin cannot be suspended: change their role to member or user first",
  alreadySuspended: "This account is already suspended",
  /** 409: a suspended account cannot hold the admin role (docs/decisions.md, Admin, "Suspension"). */
  promoteSuspended: "A suspended account cannot be made admin: lift the suspension first",
  notSuspended: "This account is not suspended",
  /** A suspended person's sign-in, social sign-in or link (403 `ACCOUNT_SUSPENDED`). */
  accountSuspended: "This account is suspended. To appeal, write to us through the contact page (/contact)",
  userExists: "User already exists",
  buyToTrack: "Buy this toolkit to track your progress",
  videoNeedsUrl: "A video needs cdnVideoUrl",
  lessonTooLong: "The lesson is too long to store: shorten it or split it into two lessons",
  postTooLong: "The post is too long to store: shorten it or its links",
  signInToRead: "Sign in to read this post",
  /** Past `MAX_ALERTS` (`lib/alerts/alerts.ts`; a test holds the number to it). */
  tooManyAlerts: "You can keep at most 20 alerts",
  /** Past `MAX_SAVED` (`lib/saved/schema.ts`; a test holds the number to it). */
  tooManySaved: "You can save at most 500 items",
  /** Paid checkout, verification or a refund without the gateway's keys (503). */
  paymentsNotConfigured: "Payments are not configured",
  /** The payment gateway failed, refused or timed out (502). */
  gatewayUnavailable: "Payment gateway unavailable",
  /** The gateway has no record of a payment id (409; `lib/payments/razorpay.ts`). */
  gatewayUnknownPayment: "The gateway does not know this payment",
  /** The gateway has no record of an order id (409). */
  gatewayUnknownOrder: "The gateway does not know this order",
  /** A refund of a purchase paid by an event without a payment id, whose order the gateway lists no capture of (409). */
  noCapturedPayment: "The gateway has no captured payment for this purchase",
  /** The gateway refused a refund, in its own words (`refusalWith`; 409). */
  gatewayRefusedRefund: "The gateway refused the refund: {detail}",
  /** The gateway refused a capture, in its own words (reconciliation logs it). */
  gatewayRefusedCapture: "The gateway refused the capture: {detail}",
  /** The gateway refused to list an order's payments, in its own words (409). */
  gatewayRefusedOrderPayments: "The gateway refused the order payments: {detail}",
  /** The gateway refused to show a payment, in its own words (the refunds' reconciliation logs it). */
  gatewayRefusedPayment: "The gateway refused the payment: {detail}",
  /** The gateway refused to list the refunds made, in its own words (the refunds' reconciliation logs it). */
  gatewayRefusedRefundList: "The gateway refused the refund list: {detail}",
  /** An image id that names no upload (an upload removed meanwhile, or a hand-made id). */
  unknownImage: "Unknown image",
  /** A settings change naming two different addresses for one e-mail channel. */
  emailsDisagree: "Two different addresses were given for one e-mail channel",
} as const;

/** The name of a refusal, as its catalogue message is named. */
export type RefusalName = keyof typeof REFUSALS;

/**
 * The platform's own refusals, which any route may answer and so any island may meet, by the name of their catalogue
 * message (`common.errors.<name>`): every island that words failures lists `common.errors.` among its `text` prefixes,
 * so each carries these without listing them one by one (and without a byte more in its bundle).
 */
export const PLATFORM_REFUSALS = {
  /** The rate limit's sentence when a rule names none (`RateLimitedError`, 429). */
  tooMany: "Too many requests, try again later",
  /** A write that kept losing races to other writers for its whole budget (`BusyError`, 503; `lib/kv/retry.ts`). */
  busy: "Too many concurrent writes; nothing was written, try again",
  /** `NotFoundError` without a sentence of its own, and an unknown `/api/` path (404). */
  notFound: "Not found",
} as const;

const KEYS = new Map<string, MessageKey>([
  ...(Object.keys(PLATFORM_REFUSALS) as (keyof typeof PLATFORM_REFUSALS)[]).map((name): [string, MessageKey] => [
    PLATFORM_REFUSALS[name],
    `common.errors.${name}`,
  ]),
  ...(Object.keys(REFUSALS) as RefusalName[]).map((name): [string, MessageKey] => [
    REFUSALS[name],
    `common.refusal.${name}`,
  ]),
]);

/** The catalogue message of each refusal sentence, by sentence (coupon refusals aside). */
export const REFUSAL_KEYS: ReadonlyMap<string, MessageKey> = KEYS;

/** The catalogue message of a refusal sentence, or undefined for a sentence not listed. */
export function refusalKey(message: string): MessageKey | undefined {
  return KEYS.get(message) ?? couponRefusalKey(message);
}

/**
 * The refusal `error` (an error or its message) in `t`'s language, another service's words in it as they came
 * (`quotedRefusal`); a sentence not listed is shown as it is.
 */
export function refusalText(t: Translate, error: Error | string): string {
  const message = typeof error === "string" ? error : error.message;
  const quoted = quotedRefusal(message);
  const template = quoted && KEYS.get(quoted.template);
  if (template) return t(template, { detail: quoted.detail });
  const key = refusalKey(message);
  return key ? t(key) : message;
}

/** `template`, a refusal of `REFUSALS` ending in `REFUSAL_DETAIL`, with another service's words `detail` in it. */
export function refusalWith(template: string, detail: string): string {
  return template.replace(REFUSAL_DETAIL, detail);
}
