/**
 * The notifications of a resolved report (docs/decisions.md, Trust, "Reports"): `report_resolved` tells a reporter what
 * was done about what they reported (never who else reported it), or that it was removed by other means
 * (`targetRemovedNotification`), `content_removed` tells the owner of what was hidden or deleted, and why.
 */
import type { NotificationInput } from "@/lib/notifications/notifications.ts";
import type { Remover, ReportKind, ResolveAction } from "./schema.ts";
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

/** The kinds that are listings, whose author is their poster. */
const LISTINGS: ReadonlySet<ReportKind> = new Set(["internship", "opportunity"]);

/** Where a notice about each kind of reported thing links once its page is gone: the list of its kind, or home. */
const LIST_PAGES: Record<ReportKind, string> = {
  internship: "/internships",
  opportunity: "/opportunities",
  organization: "/",
  post: "/ungatekeep",
  comment: "/ungatekeep",
};

/**
 * What `action` did to a `kind`, as notices word it: an opportunity has no deletion, so `delete` hides it (rejected),
 * and its notices say what its page then says: an admin hid it.
 */
function effectOf(kind: ReportKind, action: ResolveAction): ResolveAction {
  return kind === "opportunity" && action === "delete" ? "hide" : action;
}

/**
 * Where a reporter's notice links: the reported thing's page `url` while that page still stands (kept, an organization
 * without its badge, a hidden listing's page saying an admin hid it, the post a comment was under), else the list of
 * its kind; never the notifications page the notice is read on.
 */
function reporterLink(kind: ReportKind, action: ResolveAction, url: string | null): string {
  const stands = action === "dismiss" || kind === "organization" || kind === "comment" ||
    (action === "hide" && (kind === "internship" || kind === "opportunity"));
  return (stands && url) || LIST_PAGES[kind];
}

/**
 * The notification telling a reporter what was done about the `kind` made of `words` (a comment is never quoted to
 * them), linking to its page at `url` (null: it has none) while that stands. An organization "hidden" keeps its page
 * and loses its verified badge, so its reporter reads that (`action` value `unverify`), not that students no longer
 * see it.
 */
export function resolvedNotification(
  { userId, kind, words, action: asked, note, url }: {
    userId: string;
    kind: ReportKind;
    words: Target["words"];
    action: ResolveAction;
    note: string | null;
    url: string | null;
  },
): NotificationInput {
  const action = effectOf(kind, asked);
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
    url: reporterLink(kind, action, url),
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
  const values = {
    kind,
    action: effectOf(kind, action),
    ...targetValues(kind, words),
    hasNote: note ? "yes" : "no",
    note: note ?? "",
  };
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

/**
 * Who removed a reported target as its reporter is told (the notice, their data export): a suspension's removal and a
 * reject in moderation read as an admin's, as the reporter is not told of another person's suspension.
 */
export function removerAsTold(by: Remover): Remover {
  return by === "suspension" || by === "moderation" ? "admin" : by;
}

/**
 * The notification telling a reporter that the `kind` made of `words` they reported was removed by other means than
 * their report's resolution (docs/decisions.md, Trust, "Reports of what is removed"): deleted by its author, removed by
 * an admin (a suspension's removal and a reject in moderation read so too: the reporter is not told of another
 * person's suspension), or removed with the post it was under; a listing deleted by its poster says so ("the person
 * who posted it"). A comment is never quoted to them; it links to the list of its kind, its page being gone.
 */
export function targetRemovedNotification(
  { userId, kind, words, by }: { userId: string; kind: ReportKind; words: Target["words"]; by: Remover },
): NotificationInput {
  const values = {
    kind,
    by: by === "author" && LISTINGS.has(kind) ? "poster" : removerAsTold(by),
    ...targetValues(kind, kind === "comment" ? { name: "" } : words),
  };
  return {
    userId,
    type: "report_resolved",
    message: {
      title: { key: "notifications.text.reportRemoved.title", values },
      body: { key: "notifications.text.reportRemoved.body", values },
    },
    url: LIST_PAGES[kind],
  };
}
