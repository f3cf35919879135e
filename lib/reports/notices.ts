/**
 * The notifications of a resolved report (docs/decisions.md, Trust, "Reports"): `report_resolved` tells a reporter what
 * was done about what they reported (never who else reported it), `content_removed` tells the owner of what was hidden
 * or deleted, and why.
 */
import type { NotificationInput } from "@/lib/notifications/notifications.ts";
import type { ReportKind, ResolveAction } from "./schema.ts";
import type { Target } from "./targets.ts";

/**
 * The values that word a reported thing in a notification, in its reader's language (docs/decisions.md, Trust,
 * "Reports"): `what` is `comment` (never quoted to a reporter), `internship` (its title and organization, in the order
 * the reader's language puts them) or `other` (its title alone).
 */
function targetValues(kind: ReportKind, words: Target["words"]) {
  const what = kind === "comment" ? "comment" : words.organization ? "internship" : "other";
  return { what, title: words.name, organization: words.organization ?? "" };
}

/**
 * The notification telling a reporter what was done about the `kind` made of `words` (a comment is never quoted to
 * them). An organization "hidden" keeps its page and loses its verified badge, so its reporter reads that
 * (`action` value `unverify`), not that students no longer see it.
 */
export function resolvedNotification(
  { userId, kind, words, action, note }: {
    userId: string;
    kind: ReportKind;
    words: Target["words"];
    action: ResolveAction;
    note: string | null;
  },
): NotificationInput {
  return {
    userId,
    type: "report_resolved",
    message: {
      title: { key: "notifications.text.reportResolved.title" },
      body: {
        key: "notifications.text.reportResolved.body",
        values: {
          action: kind === "organization" && action === "hide" ? "unverify" : action,
          // A comment is never quoted to its reporter: its words stay out of their notification.
          ...targetValues(kind, kind === "comment" ? { name: "" } : words),
          hasNote: note ? "yes" : "no",
          note: note ?? "",
        },
      },
    },
    url: "/me/notifications",
  };
}

/** The notification telling the owner that their `kind` made of `words` was hidden or deleted after reports. */
export function removedNotification(
  { userId, kind, words, action, note }: {
    userId: string;
    kind: ReportKind;
    words: Target["words"];
    action: ResolveAction;
    note: string | null;
  },
): NotificationInput {
  const values = { kind, action, ...targetValues(kind, words), hasNote: note ? "yes" : "no", note: note ?? "" };
  return {
    userId,
    type: "content_removed",
    message: {
      title: { key: "notifications.text.contentRemoved.title", values },
      body: { key: "notifications.text.contentRemoved.body", values },
    },
    url: kind === "internship" ? "/internships/mine" : kind === "opportunity" ? "/opportunities/mine" : "/",
  };
}
