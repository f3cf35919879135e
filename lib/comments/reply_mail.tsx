/**
 * The e-mail that tells someone a comment of theirs got a reply (docs/decisions.md, Comments and reactions, "Reply
 * notifications"), plain text and HTML in the mail layout (`lib/mail/layout.tsx`), which escapes every value placed in
 * it. It links to the reply, to the
 * settings page, and to its one-click unsubscribe link, which it also names in its `List-Unsubscribe` headers
 * (RFC 8058): that link's `POST` turns e-mails on replies off. Written in the recipient's language (`t`;
 * docs/decisions.md, Languages, "E-mails"); the names, the post's title and the reply stay as written.
 */
import type { Mail } from "@/lib/mail/mailer.ts";
import { MailButton, mailHtml, SmallPrint } from "@/lib/mail/layout.tsx";
import type { Translate } from "@/lib/i18n/translator.ts";
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
  /** The translator of the recipient's language. */
  t: Translate;
}

/** Longest part of the reply quoted in the mail, in characters. */
const QUOTE_MAX = 500;

/** The reply e-mail. */
export function replyMail(input: ReplyMailInput): Mail {
  const quote = input.reply.length > QUOTE_MAX ? `${input.reply.slice(0, QUOTE_MAX - 1)}…` : input.reply;
  const { t } = input;
  const who = { replier: input.replier, post: input.postTitle };
  const subject = t("mail.reply.subject", who);
  const text = `${t("mail.greeting", { name: input.name })}

${t("mail.reply.intro", who)}

${quote.split("\n").map((line) => `> ${line}`).join("\n")}

${t("mail.reply.readHere", { url: input.url })}

${t("mail.reply.why")} ${t("mail.reply.offText", { unsubscribe: input.unsubscribeUrl, settings: input.settingsUrl })}

${t("mail.signature")}
`;
  const html = mailHtml(
    subject,
    <>
      <p>{t("mail.greeting", { name: input.name })}</p>
      <p>{t("mail.reply.intro", who)}</p>
      <blockquote style="margin:0;padding-left:12px;border-left:3px solid #c7d2fe;white-space:pre-line">
        {quote}
      </blockquote>
      <MailButton href={input.url}>{t("mail.reply.read")}</MailButton>
      <SmallPrint>
        {t("mail.reply.why")} {t.rich("mail.reply.offHtml", {
          off: (chunks) => <a href={input.unsubscribeUrl}>{chunks}</a>,
          settings: (chunks) => <a href={input.settingsUrl}>{chunks}</a>,
        })}
      </SmallPrint>
    </>,
    { lang: t.lang, signature: t("mail.signature") },
  );
  return { to: input.to, subject, text, html, link: input.url, headers: unsubscribeHeaders(input.unsubscribeUrl) };
}
