/**
 * The e-mail that tells someone a comment of theirs got a reply (docs/decisions.md, Comments and reactions, "Reply
 * notifications"), plain text and HTML; every value placed in the HTML is escaped. It links to the reply, to the
 * settings page, and to its one-click unsubscribe link, which it also names in its `List-Unsubscribe` headers
 * (RFC 8058): that link's `POST` turns e-mails on replies off.
 */
import type { Mail } from "@/lib/mail/mailer.ts";
import { escapeHtml, unsubscribeHeaders } from "@/lib/mail/templates.ts";

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

Career Community
`;
  const url = escapeHtml(input.url);
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head>
<body style="font-family:system-ui,sans-serif;line-height:1.5;color:#111827">
<p>Hi ${escapeHtml(input.name)},</p>
<p>${escapeHtml(input.replier)} replied to your comment on “${escapeHtml(input.postTitle)}”:</p>
<blockquote style="margin:0;padding-left:12px;border-left:3px solid #c7d2fe;white-space:pre-line">${
    escapeHtml(quote)
  }</blockquote>
<p><a href="${url}" style="display:inline-block;padding:10px 18px;background:#1d4ed8;color:#ffffff;text-decoration:none;border-radius:6px">Read the reply</a></p>
<p style="font-size:13px;color:#374151">You get this e-mail because someone replied to your comment.
<a href="${escapeHtml(input.unsubscribeUrl)}">Turn these e-mails off</a>, or change it in your
<a href="${escapeHtml(input.settingsUrl)}">settings</a>.</p>
<p>Career Community</p>
</body></html>`;
  return { to: input.to, subject, text, html, link: input.url, headers: unsubscribeHeaders(input.unsubscribeUrl) };
}
