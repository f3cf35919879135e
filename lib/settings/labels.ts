/**
 * Browser-safe: each e-mail setting as people read it (docs/decisions.md, Notifications), on `/me/settings` and on the
 * unsubscribe page that turns one off.
 */
/** A setting's name and what it sends: the two switches an e-mail's one-click link turns off. */
export const SETTING_LABELS: Record<"deadlineReminders" | "emailOnReply", { label: string; hint: string }> = {
  deadlineReminders: {
    label: "Deadline reminders",
    hint: "An e-mail the day before a saved internship closes or a saved opportunity starts.",
  },
  emailOnReply: {
    label: "Replies to my comments",
    hint: "An e-mail when someone replies to a comment of yours.",
  },
};
