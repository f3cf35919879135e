/**
 * zod schemas of the API's response bodies, for the OpenAPI document only (answers are built by the domain
 * modules, not parsed). Each `satisfies z.ZodType<T>` the type the domain answers with, so that a field added to
 * that type and missing here fails the type check; and the OpenAPI test parses live answers with them (strict
 * objects), so that a field answered but not described fails too.
 */
import { z } from "zod";
import type { AuthUserView, SessionView } from "@/lib/auth/views.ts";
import { APPLY_MODES, INTERNSHIP_TIMINGS, INTERNSHIP_TYPES, type InternshipView } from "@/lib/internships/schema.ts";
import { OPPORTUNITY_TYPES, type OpportunityView } from "@/lib/opportunities/schema.ts";
import type { Toolkit } from "@/lib/toolkits/schema.ts";
import type { PostView } from "@/lib/ungatekeep/schema.ts";
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
import type { Profile } from "@/lib/users/profile.ts";
import { ROLES } from "@/lib/users/roles.ts";
import { MODERATION_STATUSES, type ModerationView } from "@/lib/moderation/moderation.ts";
import type { ModerationItem } from "@/lib/moderation/admin.ts";
import type { Organization, OrganizationSummary } from "@/lib/organizations/schema.ts";
import type { OrganizationStats } from "@/lib/organizations/organizations.ts";
import {
  type AdminReportView,
  REPORT_KINDS,
  REPORT_REASONS,
  type ReportedTarget,
  type ReportView,
  RESOLVE_ACTIONS,
} from "@/lib/reports/schema.ts";

const timestamp = z.string().describe("ISO 8601");
const nullableText = z.string().nullable();

/** `{error}`: a sentence, or for a body that failed validation the list of issues. */
export const ErrorSchema = z.strictObject({
  error: z.union([
    z.string(),
    z.array(z.object({ path: z.array(z.union([z.string(), z.number()])), message: z.string() })),
  ]),
});

/** `{error, code, message}` of `/api/auth/*`. */
export const AuthErrorSchema = z.strictObject({ error: z.string(), code: z.string(), message: z.string() });

/** `{success: true}`. */
export const SuccessSchema = z.strictObject({ success: z.literal(true) });

/** The pagination object of the lists. */
export const PaginationSchema = z.strictObject({
  limit: z.int(),
  offset: z.int(),
  total: z.int(),
  hasMore: z.boolean(),
});

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
}) satisfies z.ZodType<AuthUserView>;

/** The session of `GET /api/auth/session`. */
export const SessionSchema = z.strictObject({
  id: z.string(),
  userId: z.string(),
  expiresAt: timestamp,
  createdAt: timestamp,
}) satisfies z.ZodType<SessionView>;

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
}) satisfies z.ZodType<Profile>;

/** A listing's moderation state (`held` and `rejected` listings are out of every public surface). */
export const ModerationSchema = z.strictObject({
  status: z.enum(MODERATION_STATUSES),
  reasons: z.array(z.string()).describe('Why it is held or was rejected, e.g. "Asks applicants to pay"'),
}) satisfies z.ZodType<ModerationView>;

/** The organization every internship carries. */
export const OrganizationSummarySchema = z.strictObject({
  id: z.string(),
  slug: z.string(),
  name: z.string(),
  isVerified: z.boolean(),
}) satisfies z.ZodType<OrganizationSummary>;

/** An organization (docs/decisions.md, Trust, "Organizations"). */
export const OrganizationSchema = z.strictObject({
  id: z.string(),
  slug: z.string(),
  name: z.string(),
  website: nullableText,
  isVerified: z.boolean(),
  verifiedDomain: nullableText,
  verifiedAt: timestamp.nullable(),
  about: nullableText,
  createdAt: timestamp,
}) satisfies z.ZodType<Organization>;

/** An organization's track record. */
export const OrganizationStatsSchema = z.strictObject({
  openInternships: z.int(),
  internships: z.int().describe("Live listings posted under it, closed ones included"),
  applications: z.int(),
  responseRate: z.number().nullable().describe("0 to 1; null below 5 applications"),
  medianDaysToFirstResponse: z.number().nullable().describe("null below 5 applications"),
  stipendReports: z.strictObject({ yes: z.int(), partly: z.int(), no: z.int() }).describe("All 0 below 3 answers"),
}) satisfies z.ZodType<OrganizationStats>;

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

/** A report as admins read it. */
export const AdminReportSchema = ReportSchema.extend({
  reporter: z.strictObject({ id: z.string(), name: z.string() }).nullable().describe("null: a deleted account"),
  resolvedAt: timestamp.nullable(),
  resolution: z.strictObject({ action: z.enum(RESOLVE_ACTIONS), note: nullableText, at: timestamp }).nullable(),
}) satisfies z.ZodType<AdminReportView>;

/** A reported target of the admin list. */
export const ReportedTargetSchema = z.strictObject({
  kind: z.enum(REPORT_KINDS),
  targetId: z.string(),
  title: z.string(),
  openReports: z.int(),
  reasons: z.partialRecord(z.enum(REPORT_REASONS), z.int()),
  lastReportedAt: timestamp,
}) satisfies z.ZodType<ReportedTarget>;

/** An internship with its owner (`user` null: a former member). */
export const InternshipSchema = z.strictObject({
  id: z.string(),
  title: z.string(),
  description: nullableText,
  type: z.enum(INTERNSHIP_TYPES).nullable(),
  timing: z.enum(INTERNSHIP_TIMINGS).nullable(),
  link: z.string(),
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
  deletedAt: timestamp.nullable(),
  user: z.strictObject({ id: z.string(), name: z.string(), image: nullableText, role: z.enum(ROLES) }).nullable(),
  organization: OrganizationSummarySchema.nullable().describe(
    "The organization named by hiringOrganization; null only for an older listing the one-time link has not reached",
  ),
  isClosed: z.boolean().describe("The deadline's day in India is before today"),
  moderation: ModerationSchema,
  applyMode: z.enum(APPLY_MODES).describe("link: on the organization's site; platform: here, with questions"),
  questions: z.array(z.strictObject({ id: z.string(), text: z.string(), required: z.boolean() }))
    .describe("The screening questions of a platform listing (ids made by the server)"),
}) satisfies z.ZodType<InternshipView>;

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
}) satisfies z.ZodType<OpportunityView>;

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
]) satisfies z.ZodType<ModerationItem>;

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
]) satisfies z.ZodType<SavedItem>;

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
}) satisfies z.ZodType<Toolkit>;

/** The count of each reaction type on a post. */
export const ReactionCountsSchema = z.strictObject({
  helpful: z.int(),
  insightful: z.int(),
  celebrate: z.int(),
}) satisfies z.ZodType<ReactionCounts>;

/** An Ungatekeep post with its excerpt, creator (null: a former member) and rendered content. */
export const PostSchema = z.strictObject({
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
  contentHtml: z.string(),
  commentCount: z.int().describe("Comments and replies, deleted placeholders not counted"),
  reactions: ReactionCountsSchema,
  myReactions: z.array(z.enum(REACTION_TYPES)).optional().describe("The caller's reactions (signed in only)"),
}) satisfies z.ZodType<PostView>;

/** An in-app notification. */
export const NotificationSchema = z.strictObject({
  id: z.string(),
  type: z.enum(NOTIFICATION_TYPES),
  title: z.string(),
  body: z.string(),
  url: z.string().describe("A same-origin path"),
  createdAt: timestamp,
  readAt: timestamp.nullable(),
}) satisfies z.ZodType<NotificationRecord>;

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
  language: z.enum(LANGUAGES),
}) satisfies z.ZodType<Settings>;
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
export const CommentSchema = z.strictObject(commentFields) satisfies z.ZodType<CommentView>;

/** A top-level comment with its replies. */
export const CommentThreadSchema = z.strictObject({
  ...commentFields,
  replies: z.array(CommentSchema),
}) satisfies z.ZodType<CommentThread>;

/** A comment of the admin list with its post. */
export const AdminCommentSchema = z.strictObject({
  ...commentFields,
  post: z.strictObject({ id: z.string(), title: z.string() }).nullable(),
}) satisfies z.ZodType<AdminCommentView>;

/** The answer of the reaction routes. */
export const ReactionsAnswerSchema = z.strictObject({
  reactions: ReactionCountsSchema,
  mine: z.array(z.enum(REACTION_TYPES)),
});

/** A recommendation: the listing (an internship, opportunity or toolkit, by the query's `kind`), score and reasons. */
export const RecommendationSchema = z.strictObject({
  listing: z.union([InternshipSchema, OpportunitySchema, ToolkitSchema]),
  score: z.number().min(0).max(1),
  reasons: z.array(z.string()),
});

/** A search alert. */
export const AlertSchema = z.strictObject({
  id: z.string(),
  kind: z.enum(ALERT_KINDS),
  query: z.record(z.string(), z.union([z.string(), z.number()])).describe("The list's filters, as its query string"),
  frequency: z.enum(ALERT_FREQUENCIES),
  isActive: z.boolean(),
  lastSentAt: timestamp.nullable(),
  createdAt: timestamp,
}) satisfies z.ZodType<Alert>;
