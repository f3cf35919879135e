/**
 * The notifications of a resolved report (docs/decisions.md, Trust, "Reports"): `report_resolved` tells a reporter what
 * was done about what they reported (never who else reported it), `content_removed` tells the owner of what was hidden
 * or deleted, and why.
 */
import type { NotificationInput } from "@/lib/notifications/notifications.ts";
import type { ReportKind, ResolveAction } from "./schema.ts";

/** The kinds as the notifications name them. */
const NOUNS: Record<ReportKind, string> = {
  internship: "internship",
  opportunity: "opportunity",
  organization: "organization",
  post: "post",
  comment: "comment",
};

/** " The admin wrote: …" for a note, else nothing. */
function said(note: string | null): string {
  return note ? ` The admin wrote: ${note}` : "";
}

/** `title` in quotes, or as it is when it is already words ("the comment you reported"). */
function quoted(title: string): string {
  return title.startsWith("the ") ? title : `"${title}"`;
}

/** The notification telling a reporter what was done about `title`. */
export function resolvedNotification(
  { userId, title, action, note }: { userId: string; title: string; action: ResolveAction; note: string | null },
): NotificationInput {
  const done = {
    dismiss: `An admin looked at ${quoted(title)} and found nothing against our rules, so it stays up.`,
    hide: `An admin looked at ${quoted(title)} and hid it: students no longer see it.`,
    delete: `An admin looked at ${quoted(title)} and removed it.`,
  }[action];
  return {
    userId,
    type: "report_resolved",
    title: "Your report was reviewed",
    body: `Thank you for reporting. ${done}${said(note)}`,
    url: "/me/notifications",
  };
}

/** The notification telling the owner that their `kind` titled `title` was hidden or deleted after reports. */
export function removedNotification(
  { userId, kind, title, action, note }: {
    userId: string;
    kind: ReportKind;
    title: string;
    action: ResolveAction;
    note: string | null;
  },
): NotificationInput {
  const noun = NOUNS[kind];
  return {
    userId,
    type: "content_removed",
    title: `Your ${noun} was ${action === "delete" ? "removed" : "hidden"}`,
    body: `After reports from students, an admin ${action === "delete" ? "removed" : "hid"} "${title}".${said(note)}`,
    url: kind === "internship" ? "/internships/mine" : kind === "opportunity" ? "/opportunities/mine" : "/",
  };
}
