/**
 * The one list of notification types and, for each, how it reaches a person beyond the bell (docs/decisions.md,
 * Notifications, "Channels"): a push to their phones, on by default, and an e-mail, which is either the domain's own
 * mail (`own`: on by default, sent by the domain when the channel allows), always sent (`always`: receipts and refunds,
 * the switch is fixed on), or the notification itself e-mailed (`generic`: off by default, sent by the push outbox
 * when the person turns it on). A type added to `NOTIFICATION_TYPES` gets its channels at once: a `generic` e-mail
 * and a label made from its name, until `CHANNEL_RULES` says better. No imports: every module may use it.
 */

/**
 * The kinds of notification: an opportunity approved or rejected, a purchase paid or refunded, a reply, an admin's
 * moderation decision on one's listing, the outcome of one's report, one's content removed after reports
 * (docs/decisions.md, Trust), and the reminder of saved listings about to close.
 */
export const NOTIFICATION_TYPES = [
  "opportunity_reviewed",
  "purchase_paid",
  "purchase_refunded",
  "comment_reply",
  "listing_moderated",
  "report_resolved",
  "content_removed",
  "deadline_reminder",
] as const;
export type NotificationType = typeof NOTIFICATION_TYPES[number];

/** How a type's e-mail is sent (see the module docstring). */
export type EmailMode = "own" | "always" | "generic";

/** What the settings page says of a type, and how its e-mail is sent. */
export interface ChannelRule {
  label: string;
  hint: string;
  email: EmailMode;
}

/** The rules of the types that have better than the defaults (keyed loosely, so a type may be named before it exists). */
const CHANNEL_RULES: Record<string, ChannelRule> = {
  comment_reply: { label: "Replies to my comments", hint: "Someone replied to a comment of yours.", email: "own" },
  deadline_reminder: {
    label: "Deadline reminders",
    hint: "A saved internship closes tomorrow, or a saved opportunity starts.",
    email: "own",
  },
  opportunity_reviewed: {
    label: "My opportunity reviewed",
    hint: "An opportunity you submitted was approved or not.",
    email: "generic",
  },
  purchase_paid: {
    label: "Payments",
    hint: "Your payment for a toolkit went through. The receipt is always e-mailed.",
    email: "always",
  },
  purchase_refunded: {
    label: "Refunds",
    hint: "A refund is on its way. Refunds are always e-mailed.",
    email: "always",
  },
  listing_moderated: {
    label: "My listings reviewed",
    hint: "An admin approved or rejected a listing of yours.",
    email: "generic",
  },
  report_resolved: { label: "My reports", hint: "What was done about something you reported.", email: "generic" },
  content_removed: {
    label: "My content removed",
    hint: "Something you posted was hidden or removed after reports.",
    email: "generic",
  },
  application_status: {
    label: "My applications",
    hint: "An organization moved your application on.",
    email: "own",
  },
  new_applicant: { label: "New applicants", hint: "Someone applied to your internship.", email: "generic" },
};

/** The rule of `type`: its own, or a generic e-mail and a label made from its name. */
export function channelRule(type: string): ChannelRule {
  const name = type.replaceAll("_", " ");
  return CHANNEL_RULES[type] ?? { label: name[0].toUpperCase() + name.slice(1), hint: "", email: "generic" };
}
