/**
 * What an applicant is told when their application moves (docs/decisions.md, Applications, "Telling people"): an
 * in-app notification `application_status` and an e-mail through the outbox (unless they turned that e-mail off), both
 * carrying the poster's message, added to the move's own write; and the words of each status.
 */
import { addNotification } from "@/lib/notifications/notifications.ts";
import { queueMailOps } from "@/lib/mail/outbox.ts";
import { escapeHtml } from "@/lib/mail/templates.ts";
import type { Mail } from "@/lib/mail/mailer.ts";
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

/** What the e-mail of a status change says. */
export interface StatusMailInput {
  to: string;
  name: string;
  sentence: string;
  message: string | null;
  /** The tracker (absolute). */
  url: string;
  /** The settings page (absolute). */
  settingsUrl: string;
}

/** The e-mail of a status change, plain text and HTML (every value escaped in the HTML). */
export function statusMail(input: StatusMailInput): Mail {
  const message = input.message ? `\n${input.message}\n` : "";
  const text = `Hi ${input.name},

${input.sentence}.
${message}
See your applications: ${input.url}

You get this e-mail because you applied on Career Community. Turn these e-mails off in your settings:
${input.settingsUrl}

Career Community
`;
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(input.sentence)}</title></head>
<body style="font-family:system-ui,sans-serif;line-height:1.5;color:#111827">
<p>Hi ${escapeHtml(input.name)},</p>
<p><strong>${escapeHtml(input.sentence)}.</strong></p>
${
    input.message
      ? `<blockquote style="margin:0;padding-left:12px;border-left:3px solid #c7d2fe;white-space:pre-line">${
        escapeHtml(input.message)
      }</blockquote>`
      : ""
  }
<p><a href="${
    escapeHtml(input.url)
  }" style="display:inline-block;padding:10px 18px;background:#1d4ed8;color:#ffffff;text-decoration:none;border-radius:6px">See your applications</a></p>
<p style="font-size:13px;color:#374151">You get this e-mail because you applied on Career Community.
<a href="${escapeHtml(input.settingsUrl)}">Turn these e-mails off in your settings</a>.</p>
<p>Career Community</p>
</body></html>`;
  return { to: input.to, subject: `${input.sentence}`, text, html, link: input.url };
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
