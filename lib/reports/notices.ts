/**
 * The notifications of a resolved report (docs/decisions.md, Trust, "Reports"): `report_resolved` tells a reporter what
 * was done about what they reported (never who else reported it), `content_removed` tells the owner of what was hidden
 * or deleted, and why.
 */
import type { NotificationInput } from "@/lib/notifications/notifications.ts";
import type { ReportKind, ResolveAction } from "./schema.ts";

/**
 * The notification telling a reporter what was done about the `kind` titled `title` (null: a comment, never quoted to
 * them). An organization "hidden" keeps its page and loses its verified badge, so its reporter reads that
 * (`action` value `unverify`), not that students no longer see it.
 */
export function resolvedNotification(
  { userId, kind, title, action, note }: {
    userId: string;
    kind: ReportKind;
    title: string | null;
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
          title: title ?? "",
          quoted: title === null ? "no" : "yes",
          hasNote: note ? "yes" : "no",
          note: note ?? "",
        },
      },
    },
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
  const values = { kind, action, title, hasNote: note ? "yes" : "no", note: note ?? "" };
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
