/**
 * The one list of notification types and, for each, how it reaches a person beyond the bell (docs/decisions.md,
 * Notifications, "Channels"): a push to their phones, on by default, and an e-mail, which is either the domain's own
 * mail (`own`: on by default, sent by the domain when the channel allows), always sent (`always`: receipts and refunds,
 * the switch is fixed on), or the notification itself e-mailed (`generic`: sent by the push outbox while the channel
 * is on; off by default, except for an admin's decision on what the person submitted or posted,
 * `GENERIC_EMAIL_ON`). A type added to `NOTIFICATION_TYPES` gets its channels at once: a `generic` e-mail, off, until
 * `EMAIL_MODES` or `GENERIC_EMAIL_ON` says otherwise; its name and description on the settings page are the messages
 * `notifications.type.<type>` and `notifications.typeHint.<type>` (a test holds the catalogue to the list). No imports:
 * every module may use it.
 */

/**
 * The kinds of notification: an opportunity approved or rejected, a purchase paid or refunded, a refund request declined, a
 * reply, an admin's
 * moderation decision on one's listing, the outcome of one's report, one's content removed after reports
 * (docs/decisions.md, Trust), the reminder of saved listings about to close, a change of one's application and the day's
 * new applicants to one's internship (docs/decisions.md, Applications, "Telling people"), and a listing one applied to
 * changed for the worse (docs/decisions.md, Applications, "Terms changed after applying").
 */
export const NOTIFICATION_TYPES = [
  "opportunity_reviewed",
  "purchase_paid",
  "purchase_refunded",
  "refund_declined",
  "comment_reply",
  "listing_moderated",
  "report_resolved",
  "content_removed",
  "deadline_reminder",
  "application_status",
  "new_applicant",
  "listing_changed",
] as const;
export type NotificationType = typeof NOTIFICATION_TYPES[number];

/** How a type's e-mail is sent (see the module docstring). */
export type EmailMode = "own" | "always" | "generic";

/**
 * How a type's e-mail is sent, and whether it is on before the person changes it; its name and description on the
 * settings page are in the catalogue.
 */
export interface ChannelRule {
  email: EmailMode;
  emailByDefault: boolean;
}

/** The e-mail modes of the types that are not `generic` (keyed loosely, so a type may be named before it exists). */
const EMAIL_MODES: Record<string, EmailMode> = {
  comment_reply: "own",
  deadline_reminder: "own",
  purchase_paid: "always",
  purchase_refunded: "always",
  refund_declined: "always",
  application_status: "own",
  listing_changed: "own",
};

/**
 * The `generic` types whose e-mail is on by default: an admin's review of an opportunity the person submitted, and an
 * admin's moderation of their listing, which they may wait days to hear of (docs/decisions.md, Notifications,
 * "Channels").
 */
const GENERIC_EMAIL_ON: ReadonlySet<string> = new Set(["opportunity_reviewed", "listing_moderated"]);

/** The rule of `type`: its own e-mail mode, else a generic e-mail (on by default only for `GENERIC_EMAIL_ON`). */
export function channelRule(type: string): ChannelRule {
  const email = EMAIL_MODES[type] ?? "generic";
  return { email, emailByDefault: email !== "generic" || GENERIC_EMAIL_ON.has(type) };
}
