/**
 * The e-mail of a notification whose type has no e-mail of its own, for a person who turned its e-mail channel on
 * (docs/decisions.md, Notifications, "Channels"): the notification's title, body and link, and where to turn it off,
 * in the recipient's language (`t`; docs/decisions.md, Languages, "E-mails"; the title and body as they were stored).
 * Plain text and HTML in the mail layout (`lib/mail/layout.tsx`), which escapes every value placed in it.
 */
import { MailButton, mailHtml, SmallPrint } from "@/lib/mail/layout.tsx";
import type { Mail } from "@/lib/mail/mailer.ts";
import type { Translate } from "@/lib/i18n/translator.ts";

/** What the mail says: to whom, the notification, the absolute URLs of its page and of the settings, the language. */
export interface NotificationMailInput {
  to: string;
  name: string;
  title: string;
  body: string;
  url: string;
  settingsUrl: string;
  t: Translate;
}

/** The mail of one notification. */
export function notificationMail(input: NotificationMailInput): Mail {
  const { t } = input;
  const text = `${t("mail.greeting", { name: input.name })}

${input.title}
${input.body ? `\n${input.body}\n` : ""}
${t("mail.notification.openHere", { url: input.url })}

${t("mail.notification.why")} ${t("mail.notification.off")}:
${input.settingsUrl}

${t("mail.signature")}
`;
  const html = mailHtml(
    input.title,
    <>
      <p>{t("mail.greeting", { name: input.name })}</p>
      <p>
        <strong>{input.title}</strong>
      </p>
      {input.body && <p style="white-space:pre-line">{input.body}</p>}
      <MailButton href={input.url}>{t("mail.notification.open")}</MailButton>
      <SmallPrint>
        {t("mail.notification.why")} {t.rich("mail.notification.offHtml", {
          off: (chunks) => <a href={input.settingsUrl}>{chunks}</a>,
        })}
      </SmallPrint>
    </>,
    { lang: t.lang, signature: t("mail.signature") },
  );
  return { to: input.to, subject: input.title, text, html, link: input.url };
}
