/**
 * The e-mail that tells someone a comment of theirs got a reply (docs/decisions.md, Comments and reactions, "Reply
 * notifications"), plain text and HTML in the mail layout (`lib/mail/layout.tsx`), which escapes every value placed in
 * it. It links to the reply, to the
 * settings page, and to its one-click unsubscribe link, which it also names in its `List-Unsubscribe` headers
 * (RFC 8058): that link's `POST` turns e-mails on replies off.
 */
import type { Mail } from "@/lib/mail/mailer.ts";
import { MailButton, mailHtml, PLATFORM, SmallPrint } from "@/lib/mail/layout.tsx";
import { unsubscribeHeaders } from "@/lib/mail/templates.tsx";

/** What the mail says: to whom, who replied under which post, the reply's text and the links. */
export interface ReplyMailInput {
  to: string;
  name: string;
  replier: string;
  postTitle: string;
  reply: string;
  /** The reply on the post's page (absolute). */
  url: string;
  /** The settings page (absolute). */
  settingsUrl: string;
  /** The one-click unsubscribe link (absolute): `/unsubscribe/{token}`. */
  unsubscribeUrl: string;
}

/** Longest part of the reply quoted in the mail, in characters. */
const QUOTE_MAX = 500;

/** The reply e-mail. */
export function replyMail(input: ReplyMailInput): Mail {
  const quote = input.reply.length > QUOTE_MAX ? `${input.reply.slice(0, QUOTE_MAX - 1)}…` : input.reply;
  const subject = `${input.replier} replied to your comment on “${input.postTitle}”`;
  const text = `Hi ${input.name},

${input.replier} replied to your comment on “${input.postTitle}”:

${quote.split("\n").map((line) => `> ${line}`).join("\n")}

Read and answer it here: ${input.url}

You get this e-mail because someone replied to your comment. Turn these e-mails off: ${input.unsubscribeUrl}
(or in your settings: ${input.settingsUrl})

${PLATFORM}
`;
  const html = mailHtml(
    subject,
    <>
      <p>Hi {input.name},</p>
      <p>{input.replier} replied to your comment on “{input.postTitle}”:</p>
      <blockquote style="margin:0;padding-left:12px;border-left:3px solid #c7d2fe;white-space:pre-line">
        {quote}
      </blockquote>
      <MailButton href={input.url}>Read the reply</MailButton>
      <SmallPrint>
        You get this e-mail because someone replied to your comment.{" "}
        <a href={input.unsubscribeUrl}>Turn these e-mails off</a>, or change it in your{" "}
        <a href={input.settingsUrl}>settings</a>.
      </SmallPrint>
    </>,
  );
  return { to: input.to, subject, text, html, link: input.url, headers: unsubscribeHeaders(input.unsubscribeUrl) };
}
