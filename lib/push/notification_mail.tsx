/**
 * The e-mail of a notification whose type has no e-mail of its own, for a person who turned its e-mail channel on
 * (docs/decisions.md, Notifications, "Channels"): the notification's title, body and link, and where to turn it off.
 * Plain text and HTML in the mail layout (`lib/mail/layout.tsx`), which escapes every value placed in it.
 */
import { MailButton, mailHtml, PLATFORM, SmallPrint } from "@/lib/mail/layout.tsx";
import type { Mail } from "@/lib/mail/mailer.ts";

/** What the mail says: to whom, the notification, and the absolute URLs of its page and of the settings. */
export interface NotificationMailInput {
  to: string;
  name: string;
  title: string;
  body: string;
  url: string;
  settingsUrl: string;
}

/** The mail of one notification. */
export function notificationMail(input: NotificationMailInput): Mail {
  const text = `Hi ${input.name},

${input.title}
${input.body ? `\n${input.body}\n` : ""}
Open it here: ${input.url}

You get this e-mail because you turned on e-mails of this kind. Turn them off in your settings:
${input.settingsUrl}

${PLATFORM}
`;
  const html = mailHtml(
    input.title,
    <>
      <p>Hi {input.name},</p>
      <p>
        <strong>{input.title}</strong>
      </p>
      {input.body && <p style="white-space:pre-line">{input.body}</p>}
      <MailButton href={input.url}>Open it</MailButton>
      <SmallPrint>
        You get this e-mail because you turned on e-mails of this kind.{" "}
        <a href={input.settingsUrl}>Turn them off in your settings</a>.
      </SmallPrint>
    </>,
  );
  return { to: input.to, subject: input.title, text, html, link: input.url };
}
