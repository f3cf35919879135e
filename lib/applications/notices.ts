/**
 * What an applicant is told when their application moves (docs/decisions.md, Applications, "Telling people"): an
 * in-app notification `application_status` and an e-mail through the outbox (unless they turned that e-mail off), both
 * carrying the poster's message, added to the move's own write; and the words of each status.
 */
import { addNotification } from "@/lib/notifications/notifications.ts";
import { queueMailOps } from "@/lib/mail/outbox.ts";
import { statusMail } from "./mails.tsx";
import type { ApplicationStatus, ChangedBy } from "./schema.ts";

/** The message the timeout job sends with its rejection. */
export function timeoutMessage(organization: string): string {
  return `We are sorry: ${organization} did not respond to your application in time, so we have closed it for you. ` +
    "This says nothing about you. Your resume and answers stay yours; keep applying, new internships open every day.";
}

/** The sentence that says what happened to an application of `title` at `organization`. */
export function statusSentence(
  { status, by, title, organization }: {
    status: ApplicationStatus;
    by: ChangedBy;
    title: string;
    organization: string;
  },
): string {
  switch (status) {
    case "shortlisted":
      return `You are shortlisted for ${title} at ${organization}`;
    case "interview":
      return `${organization} wants to interview you for ${title}`;
    case "offer":
      return `${organization} offers you the internship ${title}`;
    case "hired":
      return `You are hired: ${title} at ${organization}`;
    case "rejected":
      return by === "system"
        ? `${organization} did not answer your application for ${title}`
        : `${organization} will not take your application for ${title} further`;
    case "withdrawn":
      return `You withdrew your application for ${title} at ${organization}`;
    default:
      return `Your application for ${title} at ${organization} was received`;
  }
}

/** Who is told and how: the applicant's id, name and address, and whether their e-mail for this type is on. */
export interface Recipient {
  userId: string;
  name: string;
  email: string;
  emailOn: boolean;
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
  const sentence = statusSentence({ status, by, title, organization });
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
  });
  return queueMailOps(op, { ...mail, userId: recipient.userId, retryable: true }, now.getTime());
}
