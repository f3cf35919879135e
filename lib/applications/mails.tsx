/**
 * The e-mail that tells an applicant their application moved (docs/decisions.md, Applications, "Telling people"), plain
 * text and HTML in the mail layout (`lib/mail/layout.tsx`), which escapes every value placed in it: what happened, the
 * organization's message, and links to the tracker and to the settings that turn these e-mails off.
 */
import type { Mail } from "@/lib/mail/mailer.ts";
import { MailButton, mailHtml, PLATFORM, SmallPrint } from "@/lib/mail/layout.tsx";

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

/** The e-mail of a status change. */
export function statusMail(input: StatusMailInput): Mail {
  const message = input.message ? `\n${input.message}\n` : "";
  const text = `Hi ${input.name},

${input.sentence}.
${message}
See your applications: ${input.url}

You get this e-mail because you applied on ${PLATFORM}. Turn these e-mails off in your settings:
${input.settingsUrl}

${PLATFORM}
`;
  const html = mailHtml(
    input.sentence,
    <>
      <p>Hi {input.name},</p>
      <p>
        <strong>{input.sentence}.</strong>
      </p>
      {input.message && (
        <blockquote style="margin:0;padding-left:12px;border-left:3px solid #c7d2fe;white-space:pre-line">
          {input.message}
        </blockquote>
      )}
      <MailButton href={input.url}>See your applications</MailButton>
      <SmallPrint>
        You get this e-mail because you applied on {PLATFORM}.{" "}
        <a href={input.settingsUrl}>Turn these e-mails off in your settings</a>.
      </SmallPrint>
    </>,
  );
  return { to: input.to, subject: input.sentence, text, html, link: input.url };
}
