/**
 * What an applicant is told when their application moves (docs/decisions.md, Applications, "Telling people"): an
 * in-app notification `application_status` and an e-mail through the outbox (unless they turned that e-mail off), both
 * in their language and carrying the poster's message, added to the move's own write; and the words of each status.
 */
import { addNotification } from "@/lib/notifications/notifications.ts";
import { queueMailOps } from "@/lib/mail/outbox.ts";
import { translatorOfPerson } from "@/lib/i18n/catalogue.ts";
import type { Translate } from "@/lib/i18n/translator.ts";
import type { Lang } from "@/lib/i18n/languages.ts";
import { statusMail } from "./mails.tsx";
import type { ApplicationStatus, ChangedBy } from "./schema.ts";

/** The message the timeout job sends with its rejection, in the applicant's language. */
export function timeoutMessage(t: Translate, organization: string): string {
  return t("applications.timeout.message", { organization });
}

/** The sentence that says what happened to an application of `title` at `organization`, in the language of `t`. */
export function statusSentence(
  t: Translate,
  { status, by, title, organization }: {
    status: ApplicationStatus;
    by: ChangedBy;
    title: string;
    organization: string;
  },
): string {
  const key = status === "rejected" && by === "system" ? "timedOut" : status;
  return t.dynamic(`applications.sentence.${key}`, { title, organization });
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
  const sentence = statusSentence(t, { status, by, title, organization });
  const path = `/me/tracker#application-${applicationId}`;
  addNotification(
    op,
    { userId: recipient.userId, type: "application_status", title: sentence, body: message ?? "", url: path },
    now,
  );
  if (!recipient.emailOn) return null;
  const mail = statusMail({
    to: recipient.email,
    name: recipient.name,
    sentence,
    message,
    url: `${appUrl}${path}`,
    settingsUrl: `${appUrl}/me/settings`,
    t,
  });
  return queueMailOps(op, { ...mail, userId: recipient.userId, retryable: true }, now.getTime());
}
