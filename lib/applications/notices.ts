/**
 * What an applicant is told when their application moves (docs/decisions.md, Applications, "Telling people"): an
 * in-app notification `application_status` and an e-mail through the outbox (unless they turned that e-mail off),
 * carrying the poster's message, added to the move's own write; the timeout job's one digest per applicant and run; and
 * the words of each status. The e-mail is written in the applicant's language; the notification keeps its words as
 * catalogue messages, written in the reader's language when read (docs/decisions.md, Languages, "Stored words").
 */
import {
  addNotification,
  type MessageRef,
  type NotificationMessage,
  type NotificationType,
} from "@/lib/notifications/notifications.ts";
import { queueMailOps } from "@/lib/mail/outbox.ts";
import { translatorOfPerson } from "@/lib/i18n/catalogue.ts";
import type { Translate } from "@/lib/i18n/translator.ts";
import type { Lang } from "@/lib/i18n/languages.ts";
import { statusMail } from "./mails.tsx";
import type { ApplicationStatus, ChangedBy } from "./schema.ts";
import type { WorseTerms } from "@/lib/internships/terms.ts";

/** The message the timeout job sends with its rejection, in the applicant's language. */
export function timeoutMessage(t: Translate, organization: string): string {
  return t("applications.timeout.message", { organization });
}

/** What happened to an application of `title` at `organization`, as a catalogue message and its values. */
function statusRef(
  { status, by, title, organization }: {
    status: ApplicationStatus;
    by: ChangedBy;
    title: string;
    organization: string;
  },
): MessageRef {
  const key = status === "rejected" && by === "system" ? "timedOut" : status;
  return { key: `applications.sentence.${key}`, values: { title, organization } };
}

/** The sentence that says what happened to an application of `title` at `organization`, in the language of `t`. */
export function statusSentence(
  t: Translate,
  move: { status: ApplicationStatus; by: ChangedBy; title: string; organization: string },
): string {
  const { key, values } = statusRef(move);
  return t.dynamic(key, values);
}

/** Who is told and how: the applicant's id, name and address, and whether their e-mail for this type is on. */
export interface Recipient {
  userId: string;
  name: string;
  email: string;
  emailOn: boolean;
  /** The language they read (absent: English). */
  language?: Lang;
}

/**
 * Adds to `op` what tells `recipient` that their application `applicationId` moved to `status` (`by`, with `message`):
 * the notification (linking to the application in the tracker) and, when their e-mail for it is on, the e-mail (a
 * retryable one: it holds no token). Returns the mail's id (for `deliverSoon` after the commit), or null.
 */
export function tellApplicantOps(
  op: Deno.AtomicOperation,
  { recipient, applicationId, status, by, message, title, organization, appUrl, now }: {
    recipient: Recipient;
    applicationId: string;
    status: ApplicationStatus;
    by: ChangedBy;
    message: string | null;
    title: string;
    organization: string;
    appUrl: string;
    now: Date;
  },
): string | null {
  const t = translatorOfPerson(recipient);
  const move = { status, by, title, organization };
  const path = `/me/tracker#application-${applicationId}`;
  // The timeout job's message is the platform's own words; a poster's is kept as they wrote it.
  const body = by === "system" && status === "rejected"
    ? { key: "applications.timeout.message", values: { organization } }
    : message ?? "";
  const words = { title: statusRef(move), body };
  const sentence = statusSentence(t, move);
  return tellOps(op, { type: "application_status", recipient, t, words, sentence, message, path, appUrl, now });
}

/**
 * Adds to `op` the notification of `type` (`words`, linking to `path`) and, when `recipient`'s e-mail for it is on, the
 * retryable e-mail (`sentence` and `message`, in the language of `t`; `ours`: `message` is the platform's own words, not
 * quoted). Returns the mail's id, or null.
 */
function tellOps(
  op: Deno.AtomicOperation,
  { type, recipient, t, words, sentence, message, ours, path, appUrl, now }: {
    type: NotificationType;
    recipient: Recipient;
    t: Translate;
    words: NotificationMessage;
    sentence: string;
    message: string | null;
    ours?: boolean;
    path: string;
    appUrl: string;
    now: Date;
  },
): string | null {
  addNotification(op, { userId: recipient.userId, type, message: words, url: path }, now);
  if (!recipient.emailOn) return null;
  const mail = statusMail({
    to: recipient.email,
    name: recipient.name,
    sentence,
    message,
    ours,
    url: `${appUrl}${path}`,
    settingsUrl: `${appUrl}/me/settings`,
    t,
  });
  return queueMailOps(op, { ...mail, userId: recipient.userId, retryable: true }, now.getTime());
}

/** An application the timeout job closed, as its digest names it. */
export interface TimedOutItem {
  applicationId: string;
  title: string;
  organization: string;
}

/** How many closed applications a digest names one by one; the rest are counted ("and 12 more"). */
const DIGEST_NAMED = 25;

/**
 * Adds to `op` what tells `recipient` that the timeout job closed `items` (at least one) in one run
 * (docs/decisions.md, Applications, "Every applicant hears back"): for one application, the notification and e-mail
 * of any move; for more, one digest notification and one e-mail that name them (the first 25, then how many more).
 * Returns the mail's id, or null.
 */
export function tellTimedOutOps(
  op: Deno.AtomicOperation,
  { recipient, items, appUrl, now }: { recipient: Recipient; items: TimedOutItem[]; appUrl: string; now: Date },
): string | null {
  const t = translatorOfPerson(recipient);
  if (items.length === 1) {
    const [{ applicationId, title, organization }] = items;
    return tellApplicantOps(op, {
      recipient,
      applicationId,
      status: "rejected",
      by: "system",
      message: timeoutMessage(t, organization),
      title,
      organization,
      appUrl,
      now,
    });
  }
  const title = { key: "applications.timeoutDigest.title", values: { count: items.length } };
  const lines: MessageRef[] = items.slice(0, DIGEST_NAMED).map((item) => ({
    key: "applications.timeoutDigest.item",
    values: { title: item.title, organization: item.organization },
  }));
  if (items.length > DIGEST_NAMED) {
    lines.push({ key: "applications.timeoutDigest.more", values: { count: items.length - DIGEST_NAMED } });
  }
  const named = lines.map((line) => t.dynamic(line.key, line.values)).join("\n");
  const message = `${t("applications.timeoutDigest.message")}\n\n${named}`;
  return tellOps(op, {
    type: "application_status",
    recipient,
    t,
    words: { title, body: lines },
    sentence: t.dynamic(title.key, title.values),
    message,
    path: "/me/tracker",
    appUrl,
    now,
  });
}

/**
 * The lines that say how the terms of a listing changed since an application (docs/decisions.md, Applications, "Terms
 * changed after applying"): the title, the organization, the location and the work type as they were and are (null: not
 * stated; a work type as its value, which the message words), the stipend (rupees; after null: no longer stated), the
 * deadline (IST days) and the questions, as catalogue messages (an amount as a number, a day as its noon UTC in ms: the
 * message formats them).
 */
export function worseTermsLines(worse: WorseTerms): MessageRef[] {
  const lines: MessageRef[] = [];
  const noon = (day: string) => Date.parse(`${day}T12:00:00Z`);
  if (worse.title) lines.push({ key: "applications.termsChanged.renamed", values: worse.title });
  if (worse.organization) lines.push({ key: "applications.termsChanged.organization", values: worse.organization });
  if (worse.location) {
    const { before, after } = worse.location;
    lines.push(
      before === null
        ? { key: "applications.termsChanged.locationSet", values: { after: after! } }
        : after === null
        ? { key: "applications.termsChanged.locationGone", values: { before } }
        : { key: "applications.termsChanged.location", values: { before, after } },
    );
  }
  if (worse.type) {
    const { before, after } = worse.type;
    lines.push({
      key: "applications.termsChanged.workType",
      values: { before: before ?? "none", after: after ?? "none" },
    });
  }
  if (worse.stipend) {
    const { before, after } = worse.stipend;
    lines.push(
      after === null
        ? { key: "applications.termsChanged.stipendGone", values: { before } }
        : { key: "applications.termsChanged.stipend", values: { before, after } },
    );
  }
  if (worse.deadline) {
    const { before, after } = worse.deadline;
    lines.push(
      before === null
        ? { key: "applications.termsChanged.deadlineSet", values: { after: noon(after) } }
        : { key: "applications.termsChanged.deadline", values: { before: noon(before), after: noon(after) } },
    );
  }
  if (worse.questions) lines.push({ key: "applications.termsChanged.questions" });
  return lines;
}

/**
 * Adds to `op` what tells `recipient` that the listing now `title` at `organization` they applied to (application
 * `applicationId`) was renamed, moved or changed for the worse since (`worse`, not empty; docs/decisions.md,
 * Applications, "Terms changed after applying"): a notification `listing_changed` naming each change, linking to the
 * application in the tracker, and, when their e-mail for it is on, a retryable e-mail in their language. Returns the
 * mail's id, or null.
 */
export function tellTermsChangedOps(
  op: Deno.AtomicOperation,
  { recipient, applicationId, title, organization, worse, appUrl, now }: {
    recipient: Recipient;
    applicationId: string;
    title: string;
    organization: string;
    worse: WorseTerms;
    appUrl: string;
    now: Date;
  },
): string | null {
  const t = translatorOfPerson(recipient);
  const heading = { key: "applications.termsChanged.title", values: { title, organization } };
  const lines = [...worseTermsLines(worse), { key: "applications.termsChanged.advice" }];
  const message = lines.map((line) => t.dynamic(line.key, line.values)).join("\n");
  return tellOps(op, {
    type: "listing_changed",
    recipient,
    t,
    words: { title: heading, body: lines },
    sentence: t.dynamic(heading.key, heading.values),
    message,
    ours: true,
    path: `/me/tracker#application-${applicationId}`,
    appUrl,
    now,
  });
}
