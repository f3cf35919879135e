/**
 * zod schemas of the API's response bodies, for the OpenAPI document only (answers are built by the domain
 * modules, not parsed). Each `satisfies z.ZodType<T>` the type the domain answers with, so that a field added to
 * that type and missing here fails the type check; and the OpenAPI test parses live answers with them (strict
 * objects), so that a field answered but not described fails too.
 */
import { z } from "zod";
import { ADMIN_ACTIONS, type AdminLogEntry, TARGET_KINDS } from "@/lib/admin_log/admin_log.ts";
import { AUTH_ERROR_KINDS, type AuthErrorCode } from "@/lib/errors.ts";
import type { FieldProblem } from "@/lib/field_messages.ts";
import type { AuthUserView, SessionView } from "@/lib/auth/views.ts";
import { APPLY_MODES, INTERNSHIP_TIMINGS, INTERNSHIP_TYPES, type InternshipView } from "@/lib/internships/schema.ts";
import { OPPORTUNITY_TYPES, type OpportunityView } from "@/lib/opportunities/schema.ts";
import type { Toolkit } from "@/lib/toolkits/schema.ts";
import type { PostListItem, PostView } from "@/lib/ungatekeep/schema.ts";
import { POST_TAGS } from "@/lib/ungatekeep/tags.ts";
import {
  type AdminCommentView,
  type CommentThread,
  type CommentView,
  REACTION_TYPES,
  type ReactionCounts,
} from "@/lib/comments/schema.ts";
import { SAVED_STATUSES, type SavedItem } from "@/lib/saved/schema.ts";
import {
  NOTIFICATION_TYPES,
  type NotificationRecord,
  type NotificationType,
} from "@/lib/notifications/notifications.ts";
import type { Settings } from "@/lib/settings/settings.ts";
import { LANGUAGES } from "@/lib/i18n/languages.ts";
import { type Alert, ALERT_FREQUENCIES, ALERT_KINDS } from "@/lib/alerts/alerts.ts";
import { LOCATION_TYPES, type OnboardingProfile, PERSONAS } from "@/lib/onboarding/onboarding.ts";
import { CONTENT_TYPES, type ContentItem } from "@/lib/toolkits/schema.ts";
import type { ProgressResult, PurchaseHistoryItem, ToolkitDetail } from "@/lib/toolkits/learning.ts";
import {
  type BuyerRefund,
  type CreditNote,
  type CreditNoteLapsed,
  EXTRA_PAYMENT_REASONS,
  type IssuedCreditNote,
  PAYMENT_STATUSES,
  type Purchase,
  type PurchaseRecord,
  type RefundRecord,
  type RefundRequest,
} from "@/lib/purchases/purchases.ts";
import type { AdminPurchaseRow } from "@/lib/purchases/admin.ts";
import type { CheckoutResult } from "@/lib/purchases/checkout.ts";
import type { Certificate } from "@/lib/certificates/certificates.ts";
import type { Stats } from "@/lib/stats/stats.ts";
import { type Coupon, DISCOUNT_TYPES } from "@/lib/coupons/coupons.ts";
import type { Banner } from "@/lib/ungatekeep/banners.ts";
import type { ApiKey } from "@/lib/api_keys/api_keys.ts";
import type { AdminUserRow } from "@/lib/users/admin.ts";
import type { SuspensionChanged } from "@/lib/users/suspension.ts";
import type { Suspension } from "@/lib/users/users.ts";
import type { CommentRemoval } from "@/lib/moderation/comment_purges.ts";
import { MAIL_STATUSES, type OutboxRow } from "@/lib/mail/outbox.ts";
import type { JobRun } from "@/lib/jobs/registry.ts";
import { ERROR_LENGTH, type JobStatus } from "@/lib/jobs/runs.ts";
import type { Profile } from "@/lib/users/profile.ts";
import type { RecommendationReason } from "@/lib/recommendations/recommendations.ts";
import { ROLES } from "@/lib/users/roles.ts";
import { MODERATION_STATUSES, type ModerationView } from "@/lib/moderation/moderation.ts";
import type { ModerationItem } from "@/lib/moderation/admin.ts";
import type { Organization, OrganizationSummary } from "@/lib/organizations/schema.ts";
import type { OrganizationStats } from "@/lib/organizations/organizations.ts";
import {
  type AdminReportView,
  RECENT_DETAILS_LENGTH,
  RECENT_DETAILS_MAX,
  REMOVERS,
  REPORT_KINDS,
  REPORT_REASONS,
  type ReportedTarget,
  type ReportView,
  RESOLVE_ACTIONS,
} from "@/lib/reports/schema.ts";

const timestamp = z.string().describe("ISO 8601");

/** The codes of zod's issues. */
const ISSUE_CODES = [
  "invalid_type",
  "too_big",
  "too_small",
  "invalid_format",
  "not_multiple_of",
  "unrecognized_keys",
  "invalid_union",
  "invalid_key",
  "invalid_element",
  "invalid_value",
  "custom",
] as const satisfies readonly z.core.$ZodIssue["code"][];
const nullableText = z.string().nullable();

/**
 * One field in error: its JSON name (nested names joined with `.`), a sentence to show beside it (English), and the
 * same sentence as a message of the platform's catalogue with its values, for a page in another language.
 */
export const FieldProblemSchema = z.strictObject({
  field: z.string(),
  message: z.string(),
  messageKey: z.string().optional().describe('The sentence in the catalogue, e.g. "fields.required"'),
  values: z.record(z.string(), z.union([z.string(), z.number()])).optional().describe(
    "The values of the sentence's placeholders",
  ),
}).meta({ id: "FieldProblem" }) satisfies z.ZodType<FieldProblem>;

/** One zod issue of a body or query that failed validation. */
export const IssueSchema = z.strictObject({
  code: z.enum(ISSUE_CODES),
  path: z.array(z.string()).describe("The field's path, array indexes as strings"),
  message: z.string(),
}).meta({ id: "Issue" });

/** `{error}`: what went wrong, as a sentence. */
export const ErrorSchema = z.strictObject({ error: z.string() }).meta({ id: "Error" });

/**
 * The 400 of invalid input: `error` a sentence ("Invalid contactNumber") or the issue list of a failed validation,
 * and `fields`, a sentence per field in error, when the refusal knows its fields.
 */
export const InvalidInputSchema = z.strictObject({
  error: z.union([z.string(), z.array(IssueSchema)]),
  fields: z.array(FieldProblemSchema).optional(),
}).meta({ id: "InvalidInput" });

/** `{error, code, message}` of `/api/auth/*` (`error` and `message` the same text), with `fields` for invalid input. */
export const AuthErrorSchema = z.strictObject({
  error: z.string(),
  code: z.enum(Object.keys(AUTH_ERROR_KINDS) as [AuthErrorCode, ...AuthErrorCode[]]),
  message: z.string(),
  fields: z.array(FieldProblemSchema).optional(),
}).meta({ id: "AuthError" });

/** `{success: true}`. */
export const SuccessSchema = z.strictObject({ success: z.literal(true) });

/** The pagination object of the lists. */
export const PaginationSchema = z.strictObject({
  limit: z.int(),
  offset: z.int(),
  total: z.int(),
  hasMore: z.boolean(),
}).meta({ id: "Pagination" });

/** The user of auth answers. */
export const AuthUserSchema = z.strictObject({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  emailVerified: z.boolean(),
  image: nullableText,
  role: z.enum(ROLES),
  createdAt: timestamp,
  updatedAt: timestamp,
}).meta({ id: "AuthUser" }) satisfies z.ZodType<AuthUserView>;

/** The session of `GET /api/auth/session`. */
export const SessionSchema = z.strictObject({
  id: z.string(),
  userId: z.string(),
  expiresAt: timestamp,
  createdAt: timestamp,
}).meta({ id: "Session" }) satisfies z.ZodType<SessionView>;

/** The profile of `GET /api/profile`. */
export const ProfileSchema = z.strictObject({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  image: nullableText,
  fieldInterests: z.array(z.string()),
  opportunityInterests: z.array(z.string()),
  dateOfBirth: nullableText,
  collegeInstitute: nullableText,
  contactNumber: nullableText,
  currentRole: nullableText,
}).meta({ id: "Profile" }) satisfies z.ZodType<Profile>;

/** A listing's moderation state (`held` and `rejected` listings are out of every public surface). */
export const ModerationSchema = z.strictObject({
  status: z.enum(MODERATION_STATUSES),
  reasons: z.array(z.string()).describe('Why it is held or was rejected, e.g. "Asks applicants to pay"'),
}).meta({ id: "Moderation" }) satisfies z.ZodType<ModerationView>;

/** The organization every internship carries. */
export const OrganizationSummarySchema = z.strictObject({
  id: z.string(),
  slug: z.string(),
  name: z.string(),
  isVerified: z.boolean(),
}).meta({ id: "OrganizationSummary" }) satisfies z.ZodType<OrganizationSummary>;

/** An organization (docs/decisions.md, Trust, "Organizations"). */
export const OrganizationSchema = z.strictObject({
  id: z.string(),
  slug: z.string(),
  name: z.string(),
  website: nullableText,
  isVerified: z.boolean(),
  verifiedDomain: nullableText,
  verifiedAt: timestamp.nullable(),
  verificationRemovedAt: timestamp.optional().describe(
    "When an admin took the verification away; absent when never or verified again. While set, claims are refused " +
      "and only an admin changes the website",
  ),
  about: nullableText,
  createdAt: timestamp,
}).meta({ id: "Organization" }) satisfies z.ZodType<Organization>;

/** An organization's track record. */
export const OrganizationStatsSchema = z.strictObject({
  openInternships: z.int(),
  internships: z.int().describe("Live listings posted under it, closed ones included"),
  applications: z.int(),
  responseRate: z.number().nullable().describe("0 to 1; null below 5 applications"),
  medianDaysToFirstResponse: z.number().nullable().describe("null below 5 applications"),
  stipendReports: z.strictObject({ yes: z.int(), partly: z.int(), no: z.int() }).describe("All 0 below 3 answers"),
}).meta({ id: "OrganizationStats" }) satisfies z.ZodType<OrganizationStats>;

/** A report as its reporter reads it. */
export const ReportSchema = z.strictObject({
  id: z.string(),
  kind: z.enum(REPORT_KINDS),
  targetId: z.string(),
  reason: z.enum(REPORT_REASONS),
  details: nullableText,
  status: z.enum(["open", "resolved"]),
  createdAt: timestamp,
}) satisfies z.ZodType<ReportView>;

/** How reports were resolved, without the admin's note (a target's outcome in the list). */
const ResolutionSchema = z.strictObject({
  action: z.enum([...RESOLVE_ACTIONS, "removed"]).describe(
    "An admin's action on the reports, or `removed`: what was reported was removed by other means",
  ),
  by: z.enum(REMOVERS).optional().describe(
    "With `removed` only: who removed it (its author, an admin, the suspension of its author, the deletion of " +
      "the post it was under, or an admin's reject of a listing in moderation)",
  ),
  at: timestamp,
});

/** A report as admins read it. */
export const AdminReportSchema = ReportSchema.extend({
  reporter: z.strictObject({ id: z.string(), name: z.string() }).nullable().describe("null: a deleted account"),
  notCounted: z.boolean().describe(
    "true: a report of money or impersonation of a listing that does not count toward holding it, because an admin " +
      "dismissed an earlier report of it from its reporter or their mailbox, or another open report of it from the " +
      "same mailbox counts already",
  ),
  resolvedAt: timestamp.nullable(),
  resolution: ResolutionSchema.extend({ note: nullableText }).nullable(),
}) satisfies z.ZodType<AdminReportView>;

/** A reported target of the admin list. */
export const ReportedTargetSchema = z.strictObject({
  kind: z.enum(REPORT_KINDS),
  targetId: z.string(),
  title: z.string().describe("In the reader's language (an internship's with its organization)"),
  openReports: z.int(),
  reasons: z.partialRecord(z.enum(REPORT_REASONS), z.int()),
  lastReportedAt: timestamp,
  recentDetails: z.array(z.strictObject({ reason: z.enum(REPORT_REASONS), details: z.string(), createdAt: timestamp }))
    .max(RECENT_DETAILS_MAX)
    .describe(
      `The newest of those reports' own words (\`details\`), newest first: at most ${RECENT_DETAILS_MAX}, each on one ` +
        `line and cut to ${RECENT_DETAILS_LENGTH} characters (the target's reports have them whole)`,
    ),
  outcome: ResolutionSchema.nullable().describe(
    "In the resolved view, what resolved its last open reports and when; null in the open view (and when no report " +
      "of it says)",
  ),
}) satisfies z.ZodType<ReportedTarget>;

/** An internship with its owner (`user` null: a former member). */
export const InternshipSchema = z.strictObject({
  id: z.string(),
  title: z.string(),
  description: nullableText,
  type: z.enum(INTERNSHIP_TYPES).nullable(),
  timing: z.enum(INTERNSHIP_TIMINGS).nullable(),
  link: nullableText.describe("The application page on the organization's site; null only when applyMode is platform"),
  hiringOrganization: z.string(),
  hiringManager: nullableText,
  tags: z.array(z.string()),
  stipend: z.number().nullable().describe("Monthly, in rupees"),
  duration: nullableText,
  experience: nullableText,
  location: nullableText,
  deadline: nullableText.describe("YYYY-MM-DD or ISO 8601"),
  isVerified: z.boolean(),
  isActive: z.boolean(),
  userId: nullableText,
  createdAt: timestamp,
  updatedAt: timestamp,
  revisedAt: timestamp.nullable().describe(
    "When an edit last changed what students read (texts, link, stipend, deadline, questions, apply mode); " +
      "null when never, or not since this was kept",
  ),
  deletedAt: timestamp.nullable(),
  user: z.strictObject({ id: z.string(), name: z.string(), image: nullableText, role: z.enum(ROLES) }).nullable(),
  organization: OrganizationSummarySchema.nullable().describe(
    "The organization named by hiringOrganization; null for an older listing the one-time link has not reached, " +
      "and for one posted under a verified organization's name by someone who does not manage it",
  ),
  closedAt: timestamp.nullable().describe("When its poster or an admin closed applications before the deadline"),
  isClosed: z.boolean().describe("The deadline's day in India is before today, or applications were closed (closedAt)"),
  moderation: ModerationSchema,
  applyMode: z.enum(APPLY_MODES).describe("link: on the organization's site; platform: here, with questions"),
  questions: z.array(z.strictObject({ id: z.string(), text: z.string(), required: z.boolean() }))
    .describe("The screening questions of a platform listing (ids made by the server)"),
  viaApiKey: z.boolean().describe("Posted with an API key (a feed's listing, shown to students as imported)"),
}).meta({ id: "Internship" }) satisfies z.ZodType<InternshipView>;

/** An opportunity with who posted it (`postedBy` null: a former member). */
export const OpportunitySchema = z.strictObject({
  id: z.string(),
  title: z.string(),
  description: nullableText,
  location: nullableText,
  type: z.enum(OPPORTUNITY_TYPES),
  startDate: z.string(),
  endDate: z.string(),
  link: nullableText,
  organizer: nullableText,
  userId: nullableText,
  isVerified: z.boolean(),
  isActive: z.boolean(),
  createdAt: timestamp,
  updatedAt: timestamp,
  postedBy: z.strictObject({ id: z.string(), name: z.string(), role: z.enum(ROLES) }).nullable(),
  isClosed: z.boolean().describe("endDate is before today in India"),
  moderation: ModerationSchema,
  rejection: z.strictObject({ reason: nullableText, at: timestamp }).nullable()
    .describe("The last rejection by review and the reason given; kept while a resubmission awaits review"),
}).meta({ id: "Opportunity" }) satisfies z.ZodType<OpportunityView>;

/** One listing of the moderation queue. */
export const ModerationItemSchema = z.union([
  z.strictObject({
    kind: z.literal("internships"),
    listing: InternshipSchema,
    moderation: ModerationSchema,
    heldAt: timestamp.nullable(),
  }),
  z.strictObject({
    kind: z.literal("opportunities"),
    listing: OpportunitySchema,
    moderation: ModerationSchema,
    heldAt: timestamp.nullable(),
  }),
]).meta({ id: "ModerationItem" }) satisfies z.ZodType<ModerationItem>;

/** A saved item with its listing (`listing` null once deleted or hidden). */
export const SavedItemSchema = z.union([
  z.strictObject({
    kind: z.literal("internships"),
    ...savedFields(),
    listing: InternshipSchema.nullable(),
  }),
  z.strictObject({
    kind: z.literal("opportunities"),
    ...savedFields(),
    listing: OpportunitySchema.nullable(),
  }),
]).meta({ id: "SavedItem" }) satisfies z.ZodType<SavedItem>;

/** The fields of a saved item beside its kind and listing. */
function savedFields() {
  return {
    id: z.string(),
    status: z.enum(SAVED_STATUSES),
    note: z.string(),
    savedAt: timestamp,
    updatedAt: timestamp,
    statusChangedAt: timestamp,
  };
}

/** A toolkit, prices in rupees. */
export const ToolkitSchema = z.strictObject({
  id: z.string(),
  title: z.string(),
  description: z.string(),
  price: z.number(),
  originalPrice: z.number().nullable(),
  coverImageUrl: nullableText,
  videoUrl: nullableText,
  contentUrl: nullableText,
  category: nullableText,
  highlights: z.array(z.string()).nullable(),
  totalDuration: nullableText,
  lessonCount: z.int(),
  isActive: z.boolean(),
  showSaleBadge: z.boolean().nullable(),
  userId: nullableText,
  creatorName: z.string(),
  createdAt: timestamp,
  updatedAt: timestamp,
}).meta({ id: "Toolkit" }) satisfies z.ZodType<Toolkit>;

/** The count of each reaction type on a post. */
export const ReactionCountsSchema = z.strictObject({
  helpful: z.int(),
  insightful: z.int(),
  celebrate: z.int(),
}).meta({ id: "ReactionCounts" }) satisfies z.ZodType<ReactionCounts>;

const postListFields = {
  id: z.string(),
  title: z.string(),
  content: z.string(),
  images: z.array(z.string()),
  linkUrl: nullableText,
  linkTitle: nullableText,
  linkImage: nullableText,
  tag: z.enum(POST_TAGS),
  isPinned: z.boolean(),
  isPublished: z.boolean(),
  publishedAt: timestamp.nullable(),
  createdAt: timestamp,
  updatedAt: timestamp,
  userId: nullableText,
  excerpt: z.string(),
  creator: z.strictObject({ id: z.string(), name: z.string(), image: nullableText }).nullable(),
  commentCount: z.int().describe("Comments and replies, deleted placeholders not counted"),
  reactions: ReactionCountsSchema,
  myReactions: z.array(z.enum(REACTION_TYPES)).optional().describe("The caller's reactions (signed in only)"),
};

/** An Ungatekeep post as the feed lists it: with its excerpt and creator (null: a former member), not rendered. */
export const PostListItemSchema = z.strictObject(postListFields).meta({ id: "PostListItem" }) satisfies z.ZodType<
  PostListItem
>;

/** An Ungatekeep post with its excerpt, creator (null: a former member) and rendered content. */
export const PostSchema = z.strictObject({
  ...postListFields,
  contentHtml: z.string(),
}).meta({ id: "Post" }) satisfies z.ZodType<PostView>;

/** An in-app notification. */
export const NotificationSchema = z.strictObject({
  id: z.string(),
  type: z.enum(NOTIFICATION_TYPES),
  title: z.string(),
  body: z.string(),
  url: z.string().describe("A same-origin path"),
  createdAt: timestamp,
  readAt: timestamp.nullable(),
}).meta({ id: "Notification" }) satisfies z.ZodType<NotificationRecord>;

const ChannelSchema = z.strictObject({ email: z.boolean(), push: z.boolean() });

/** A person's notification settings: the e-mail and push channel of every notification type, and two older names. */
export const SettingsSchema = z.strictObject({
  deadlineReminders: z.boolean(),
  emailOnReply: z.boolean(),
  channels: z.strictObject(
    Object.fromEntries(NOTIFICATION_TYPES.map((type) => [type, ChannelSchema])) as Record<
      NotificationType,
      typeof ChannelSchema
    >,
  ),
  language: z.enum(LANGUAGES).describe("The language of the person's pages and e-mails"),
}).meta({ id: "Settings" }) satisfies z.ZodType<Settings>;
const commentFields = {
  id: z.string(),
  postId: z.string(),
  parentId: nullableText.describe("The top-level comment a reply is under; null for a top-level comment"),
  content: z.string().describe("Plain text with line breaks; empty for a deleted placeholder"),
  contentHtml: z.string().describe('Escaped text, <br> line breaks, http(s) links rel="nofollow ugc noopener"'),
  user: z.strictObject({ id: z.string(), name: z.string(), image: nullableText, role: z.enum(ROLES) }).nullable()
    .describe("Null for a deleted placeholder or a deleted account"),
  createdAt: timestamp,
  updatedAt: timestamp,
  isDeleted: z.boolean(),
};

/** A comment or reply. */
export const CommentSchema = z.strictObject(commentFields).meta({ id: "Comment" }) satisfies z.ZodType<CommentView>;

/** A top-level comment with its replies. */
export const CommentThreadSchema = z.strictObject({
  ...commentFields,
  replies: z.array(CommentSchema),
  moreReplies: z.literal(true).optional().describe("The thread has replies after those given (with `replies` only)"),
}).meta({ id: "CommentThread" }) satisfies z.ZodType<CommentThread>;

/** A comment of the admin list with its post. */
export const AdminCommentSchema = z.strictObject({
  ...commentFields,
  post: z.strictObject({ id: z.string(), title: z.string() }).nullable(),
}).meta({ id: "AdminComment" }) satisfies z.ZodType<AdminCommentView>;

/** The answer of the reaction routes. */
export const ReactionsAnswerSchema = z.strictObject({
  reactions: ReactionCountsSchema,
  mine: z.array(z.enum(REACTION_TYPES)),
});

/** Why a listing was recommended: a code with its values (the page words it in the reader's language). */
export const RecommendationReasonSchema = z.discriminatedUnion("code", [
  z.strictObject({ code: z.literal("interest"), label: z.string().describe('As stored, e.g. "Data & AI"') }),
  z.strictObject({ code: z.literal("field"), label: z.string().describe("The field of study") }),
  z.strictObject({ code: z.literal("place"), place: z.string().describe("The person's place as they wrote it") }),
  z.strictObject({ code: z.literal("state"), state: z.string().describe("Elsewhere in this state") }),
  z.strictObject({ code: z.literal("remote") }),
  z.strictObject({ code: z.literal("helpsWith"), label: z.string().describe('A struggle, e.g. "Building a resume"') }),
]).meta({ id: "RecommendationReason" }) satisfies z.ZodType<RecommendationReason>;

/** A recommendation: the listing (an internship, opportunity or toolkit, by the query's `kind`), score and reasons. */
export const RecommendationSchema = z.strictObject({
  listing: z.union([InternshipSchema, OpportunitySchema, ToolkitSchema]),
  score: z.number().min(0).max(1),
  reasons: z.array(RecommendationReasonSchema),
}).meta({ id: "Recommendation" });

/** A search alert. */
export const AlertSchema = z.strictObject({
  id: z.string(),
  kind: z.enum(ALERT_KINDS),
  query: z.record(z.string(), z.union([z.string(), z.number()])).describe("The list's filters, as its query string"),
  frequency: z.enum(ALERT_FREQUENCIES),
  isActive: z.boolean(),
  lastSentAt: timestamp.nullable(),
  createdAt: timestamp,
}).meta({ id: "Alert" }) satisfies z.ZodType<Alert>;

/** The onboarding answers of `GET /api/onboarding` (null until given). */
export const OnboardingProfileSchema = z.strictObject({
  id: z.string(),
  userId: z.string(),
  persona: z.enum(PERSONAS),
  locationType: z.enum(LOCATION_TYPES).nullable(),
  locationValue: nullableText,
  educationLevel: nullableText,
  fieldOfStudy: nullableText,
  fieldOther: nullableText,
  opportunityInterests: z.array(z.string()),
  domainPreferences: z.array(z.string()),
  struggles: z.array(z.string()),
  createdAt: timestamp,
  updatedAt: timestamp,
}).meta({ id: "OnboardingProfile" }) satisfies z.ZodType<OnboardingProfile>;

/** A lesson of a toolkit; a locked one's `content` and `cdnVideoUrl` are null except to buyers and admins. */
export const ContentItemSchema = z.strictObject({
  id: z.string(),
  toolkitId: z.string(),
  title: z.string(),
  type: z.enum(CONTENT_TYPES),
  content: nullableText.describe("Sanitized HTML of an article"),
  cdnVideoUrl: nullableText,
  orderIndex: z.int(),
  isPreview: z.boolean(),
  createdAt: timestamp,
  updatedAt: timestamp,
}).meta({ id: "ContentItem" }) satisfies z.ZodType<ContentItem>;

/** A toolkit with its lessons, whether the caller bought it and the lessons they completed. */
export const ToolkitDetailSchema = z.strictObject({
  toolkit: ToolkitSchema,
  contentItems: z.array(ContentItemSchema),
  hasPurchased: z.boolean(),
  completedItemIds: z.array(z.string()),
}) satisfies z.ZodType<ToolkitDetail>;

/** A credit note as kept with the refund it is for; amounts in paise. */
const CreditNoteSchema = z.strictObject({
  number: z.string().describe("`CN-<yyyy>-<n>`, `yyyy` the year its financial year starts"),
  issuedAt: timestamp,
  amount: z.int().optional().describe(
    "In paise, GST included: what it credits (absent on notes issued before refunds in parts had their own: all of " +
      "its refund's `amount`)",
  ),
  creditedBefore: z.int().optional().describe(
    "In paise: what the invoice's credit notes issued before it credit together (absent: none)",
  ),
  late: z.literal(true).optional().describe("Issued late, for a refund made before credit notes were issued"),
}).meta({ id: "CreditNote" }) satisfies z.ZodType<CreditNote>;

/** Why a refund of a tax invoice has no credit note: GST's time limit for the invoice had passed. */
const CreditNoteLapsedSchema = z.strictObject({
  lastDay: z.string().describe("`yyyy-mm-dd` (IST): the last day GST allowed a credit note against the invoice"),
}).meta({ id: "CreditNoteLapsed" }) satisfies z.ZodType<CreditNoteLapsed>;

/** Every credit note issued against a purchase's tax invoice, with the refund each is for; amounts in paise. */
const IssuedCreditNoteSchema = z.strictObject({
  number: z.string().describe("`CN-<yyyy>-<n>`, `yyyy` the year its financial year starts"),
  issuedAt: timestamp,
  amount: z.int().describe("In paise, GST included: what it credits"),
  creditedBefore: z.int().describe("In paise: what the invoice's credit notes issued before it credit together"),
  late: z.literal(true).optional().describe("Issued late, for a refund made before credit notes were issued"),
  refundId: z.string().describe(
    "The gateway's id of the refund it is for: a part refunded at the gateway, or the refund",
  ),
  refundedAt: timestamp,
  url: z.string().describe("Its printable page, for the buyer and admins"),
}).meta({ id: "IssuedCreditNote" }) satisfies z.ZodType<IssuedCreditNote>;

/** A refund made through the gateway; `amount` in paise. */
export const RefundSchema = z.strictObject({
  id: z.string(),
  paymentId: z.string(),
  amount: z.int().describe("In paise: all that was refunded of the payment, parts refunded before included"),
  refundedBefore: z.int().optional().describe(
    "In paise: what was refunded of the payment at the gateway in parts before this refund (absent when nothing was)",
  ),
  reason: nullableText,
  by: z.string().describe("The admin who refunded it, or `gateway` for a refund made at the gateway"),
  at: timestamp,
  status: z.enum(["pending", "processed"]),
  processedAt: timestamp.nullable(),
  creditNote: CreditNoteSchema.optional().describe(
    "The credit note this refund issued against the tax invoice (absent: no tax invoice, or an extra payment's)",
  ),
  creditNoteLapsed: CreditNoteLapsedSchema.optional().describe(
    "Why this refund of a tax invoice has no credit note: it came past GST's time limit",
  ),
}).meta({ id: "Refund" }) satisfies z.ZodType<RefundRecord>;

/** A refund as its buyer reads it: without the admin who made it. */
export const BuyerRefundSchema = RefundSchema.omit({ by: true }).meta({ id: "BuyerRefund" }) satisfies z.ZodType<
  BuyerRefund
>;

/** A buyer's refund request and its answer. */
export const RefundRequestSchema = z.strictObject({
  at: timestamp,
  reason: nullableText.describe("The buyer's words"),
  status: z.enum(["open", "declined", "refunded"]),
  answeredAt: timestamp.nullable(),
  note: nullableText.describe("The admin's note to the buyer when declined"),
}).meta({ id: "RefundRequest" }) satisfies z.ZodType<RefundRequest>;

const purchaseFields = {
  id: z.string(),
  userId: nullableText.describe("Null once the buyer deleted their account"),
  toolkitId: z.string(),
  gatewayOrderId: nullableText,
  paymentStatus: z.enum(PAYMENT_STATUSES),
  amountPaid: z.int().describe("In paise"),
  couponId: nullableText,
  refund: BuyerRefundSchema.nullable().optional(),
  refundRequest: RefundRequestSchema.nullable().optional(),
  creditNotes: z.array(IssuedCreditNoteSchema).describe(
    "Every credit note issued against its tax invoice, in the order issued: one per refund, a part refunded at the " +
      "gateway too (empty: none)",
  ),
  refundedParts: z.array(z.strictObject({
    amount: z.int().describe("In paise"),
    at: timestamp,
    creditNoteLapsed: CreditNoteLapsedSchema.optional().describe(
      "Why it has no credit note though the receipt is a tax invoice: it came past GST's time limit",
    ),
  })).describe(
    "The parts of its own payment refunded at the gateway, oldest first (empty: none); a `refund` that completed the " +
      "payment counts them in its `refundedBefore`",
  ),
  createdAt: timestamp,
  updatedAt: timestamp,
};

/** A purchase; amounts in paise. */
export const PurchaseSchema = z.strictObject(purchaseFields).meta({ id: "Purchase" }) satisfies z.ZodType<Purchase>;

/** A purchase of the buyer's history, with its toolkit (null once deleted) and receipt page. */
export const PurchaseHistoryItemSchema = z.strictObject({
  ...purchaseFields,
  toolkit: z.strictObject({ id: z.string(), title: z.string() }).nullable(),
  receiptUrl: nullableText,
}).meta({ id: "PurchaseHistoryItem" }) satisfies z.ZodType<PurchaseHistoryItem>;

/** A payment that granted nothing, so its money is due back; amounts in paise. */
export const ExtraPaymentSchema = z.strictObject({
  orderId: z.string(),
  paymentId: nullableText,
  amount: z.int().nullable().describe("In paise"),
  at: timestamp,
  reason: z.enum(EXTRA_PAYMENT_REASONS).optional(),
  refund: RefundSchema.nullable().optional(),
}).meta({ id: "ExtraPayment" }) satisfies z.ZodType<NonNullable<PurchaseRecord["extraPayments"]>[number]>;

/** A purchase of the admin list, with its buyer, toolkit, payments and receipt. */
export const AdminPurchaseSchema = z.strictObject({
  ...purchaseFields,
  user: z.strictObject({ id: z.string(), name: z.string(), email: z.string() }).nullable(),
  toolkit: z.strictObject({ id: z.string(), title: z.string() }).nullable(),
  paymentId: nullableText,
  extraPayments: z.array(ExtraPaymentSchema),
  refund: RefundSchema.nullable(),
  listPricePaise: z.int().nullable(),
  discountPaise: z.int().nullable(),
  couponCode: nullableText,
  receiptNumber: nullableText,
  receiptUrl: nullableText,
  refundRequest: RefundRequestSchema.nullable(),
  gatewayPartialRefunds: z.array(z.strictObject({
    id: z.string(),
    paymentId: z.string(),
    amount: z.int().describe("In paise"),
    at: timestamp,
    creditNote: CreditNoteSchema.optional().describe("The credit note it issued against the tax invoice"),
    creditNoteLapsed: CreditNoteLapsedSchema.optional().describe(
      "Why it has no credit note though the receipt is a tax invoice: it came past GST's time limit",
    ),
  })).describe("Refunds of part of a payment made at the gateway (its dashboard, a dispute)"),
  policy: z.strictObject({
    daysSincePaid: z.int().nullable().describe("Whole days since it was paid"),
    lessonsCompleted: z.int(),
    lessonsTotal: z.int(),
    certificateIssued: z.boolean().describe("The buyer holds the toolkit's certificate (not revoked)"),
    pastPolicy: z.boolean().describe("Paid 7 days ago or more, or more than two lessons completed"),
  }).nullable().describe("The refund policy's facts of a paid purchase"),
}).meta({ id: "AdminPurchase" }) satisfies z.ZodType<AdminPurchaseRow>;

/** The answer of starting a checkout: the gateway order (none when free), the key for Checkout.js, the purchase. */
export const CheckoutSchema = z.strictObject({
  success: z.literal(true),
  free: z.boolean(),
  order: z.strictObject({ id: z.string(), amount: z.int().describe("In paise"), currency: z.string() }).optional(),
  key: z.string().describe("The gateway's public key id for Checkout.js"),
  purchase: PurchaseSchema,
  toolkit: z.strictObject({ id: z.string(), title: z.string(), price: z.number().describe("In rupees") }),
  discountAmount: z.number().describe("In rupees"),
  finalPrice: z.number().describe("In rupees"),
}) satisfies z.ZodType<CheckoutResult>;

/** A certificate of a completed toolkit. */
export const CertificateSchema = z.strictObject({
  id: z.string(),
  serial: z.string(),
  userName: z.string(),
  toolkitTitle: z.string(),
  toolkitId: z.string(),
  issuedAt: timestamp,
  revokedAt: timestamp.nullable(),
}).meta({ id: "Certificate" }) satisfies z.ZodType<Certificate>;

/** The admin dashboard's figures: IST days oldest first, money in rupees. */
export const StatsSchema = z.strictObject({
  days: z.array(z.strictObject({
    date: z.string().describe("YYYY-MM-DD, a day in India"),
    signups: z.int(),
    verifiedSignups: z.int(),
    purchases: z.int(),
    revenue: z.number(),
    refunds: z.number(),
  })),
  totals: z.strictObject({
    users: z.int(),
    verifiedUsers: z.int(),
    openInternships: z.int(),
    pendingOpportunities: z.int(),
    activeToolkits: z.int(),
    revenue: z.number(),
    refunds: z.number(),
    refundRequests: z.int().describe("Buyers' refund requests waiting for an answer"),
  }),
  topToolkits: z.array(
    z.strictObject({ id: z.string(), title: z.string().nullable(), sales: z.int(), revenue: z.number() }),
  ),
  coupons: z.array(z.strictObject({ code: z.string(), uses: z.int(), discountGiven: z.number() })),
}).meta({ id: "Stats" }) satisfies z.ZodType<Stats>;

/** A coupon; `discountValue` is percent off (`percentage`) or rupees off (`fixed`). */
export const CouponSchema = z.strictObject({
  id: z.string(),
  code: z.string(),
  discountType: z.enum(DISCOUNT_TYPES),
  discountValue: z.number(),
  isActive: z.boolean(),
  expiresAt: timestamp.nullable(),
  perUserLimit: z.int(),
  usageLimit: z.int().nullable(),
  toolkitIds: z.array(z.string()).nullable(),
  usedCount: z.int(),
  createdAt: timestamp,
  updatedAt: timestamp,
}).meta({ id: "Coupon" }) satisfies z.ZodType<Coupon>;

/** A banner of the Ungatekeep page. */
export const BannerSchema = z.strictObject({
  id: z.string(),
  title: z.string(),
  imageId: nullableText,
  linkUrl: nullableText,
  isActive: z.boolean(),
  orderIndex: z.int(),
  createdAt: timestamp,
  updatedAt: timestamp,
}).meta({ id: "Banner" }) satisfies z.ZodType<Banner>;

/** An ingest API key as listed (never the key itself). */
export const ApiKeySchema = z.strictObject({ id: z.string(), name: z.string(), createdAt: timestamp }).meta({
  id: "ApiKey",
}) satisfies z.ZodType<ApiKey>;

/** An account's suspension (docs/decisions.md, Admin, "Suspension"): when, why, by which admin (null once deleted). */
export const SuspensionSchema = z.strictObject({ at: timestamp, reason: z.string(), by: nullableText }).meta({
  id: "Suspension",
}) satisfies z.ZodType<Suspension>;

/** The progress of the removal of a suspended person's comments (docs/decisions.md, Admin, "Suspension"). */
export const CommentRemovalSchema = z.strictObject({
  total: z.number().int().min(0).describe("Their comments at the suspension"),
  removed: z.number().int().min(0).describe("Removed so far"),
  done: z.boolean().describe("True once every comment of theirs is removed"),
}).meta({ id: "CommentRemoval" }) satisfies z.ZodType<CommentRemoval>;

/**
 * A user of the admin list; `suspension` null when the account is not suspended, `commentRemoval` null without a
 * removal of their comments.
 */
export const AdminUserSchema = z.strictObject({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  role: z.enum(ROLES),
  image: nullableText,
  createdAt: timestamp,
  emailVerified: z.boolean(),
  suspension: SuspensionSchema.nullable(),
  commentRemoval: CommentRemovalSchema.nullable(),
}).meta({ id: "AdminUser" }) satisfies z.ZodType<AdminUserRow>;

/** The user whose suspension changed, as the suspension endpoints answer it. */
export const SuspendedUserSchema = AdminUserSchema.pick({
  id: true,
  name: true,
  email: true,
  role: true,
  suspension: true,
}) satisfies z.ZodType<SuspensionChanged>;

/** A mail of the outbox as the admin sees it (never its body). */
export const OutboxMailSchema = z.strictObject({
  id: z.string(),
  to: z.string(),
  subject: z.string(),
  status: z.enum(MAIL_STATUSES),
  attempts: z.int(),
  lastError: nullableText,
  createdAt: timestamp,
  dueAt: timestamp.nullable(),
  sentAt: timestamp.nullable(),
  canRetry: z.boolean().describe("A failed mail whose content was kept (it held no single-use link)"),
}).meta({ id: "OutboxMail" }) satisfies z.ZodType<OutboxRow>;

/** An entry of the admin audit log. */
export const AdminLogEntrySchema = z.strictObject({
  id: z.string().describe("Sorts by time"),
  at: timestamp,
  adminId: z.string().nullable().describe("Null once the admin's account was deleted"),
  action: z.enum(ADMIN_ACTIONS),
  targetKind: z.enum(TARGET_KINDS),
  targetId: z.string().nullable().describe("Null once the person it names (`targetKind` `user`) was deleted"),
  summary: z.string().optional().describe("A few words of the change (a role, a decision, a code or title)"),
}).meta({ id: "AdminLogEntry" }) satisfies z.ZodType<AdminLogEntry>;

/** How a run of a job ended, for the jobs list: when it started, how long it took, from its cron or by hand. */
const runEnd = {
  startedAt: timestamp,
  ms: z.int().min(0).describe("How long the run took, in milliseconds"),
  trigger: z.enum(["schedule", "hand"]).describe(
    "`schedule`: its cron; `hand`: `POST /api/admin/jobs/{name}/run`, the jobs page or `deno task job`",
  ),
};

/** A job with its schedule, its next run, its last run and its last failure. */
export const JobStatusSchema = z.strictObject({
  name: z.string(),
  schedule: z.string().describe("Five-field cron expression, UTC"),
  nextRunAt: timestamp.nullable().describe("When its schedule next runs it; null with `JOBS=off`"),
  lastRun: z.strictObject({
    ...runEnd,
    counts: z.record(z.string(), z.number()).describe("What it did, as its run answers (the names depend on the job)"),
  }).nullable().describe("Its last run that succeeded; null before the first"),
  lastFailure: z.strictObject({
    ...runEnd,
    error: z.string().max(ERROR_LENGTH).describe("The error, on one line, shortened"),
  }).nullable().describe("Its last run that failed; null if none did"),
}).meta({ id: "JobStatus" }) satisfies z.ZodType<JobStatus>;

/** What a job run did: its name and its counts (the names depend on the job). */
export const JobRunSchema = z.object({ job: z.string() }).catchall(
  z.union([z.string(), z.number()]),
) satisfies z.ZodType<JobRun>;

/** The lessons a buyer completed, and their certificate's page once every lesson is complete. */
export const ProgressSchema = z.strictObject({
  completedItemIds: z.array(z.string()),
  certificateUrl: nullableText.describe("Null until every lesson is complete"),
}) satisfies z.ZodType<ProgressResult>;

/** `{status: true}` of the auth routes that accept a request and tell nothing more. */
export const StatusSchema = z.strictObject({ status: z.literal(true) });
