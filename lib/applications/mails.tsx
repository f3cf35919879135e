/**
 * The e-mail that tells an applicant their application moved (docs/decisions.md, Applications, "Telling people"), in
 * the applicant's language (`t`), plain text and HTML in the mail layout (`lib/mail/layout.tsx`), which escapes every
 * value placed in it: what happened, the organization's message (quoted) or the platform's own lines, and links to the tracker and to the settings that
 * turn these e-mails off.
 */
import type { Mail } from "@/lib/mail/mailer.ts";
import type { Translate } from "@/lib/i18n/translator.ts";
import { MailButton, mailHtml, SmallPrint } from "@/lib/mail/layout.tsx";

/** What the e-mail of a status change says. */
export interface StatusMailInput {
  to: string;
  name: string;
  sentence: string;
  /** Someone's words (the organization's message), quoted; or, with `ours`, the platform's own lines. */
  message: string | null;
  /** `message` is the platform's own words: shown as a paragraph, not quoted as someone's message. */
  ours?: boolean;
  /** The tracker (absolute). */
  url: string;
  /** The settings page (absolute). */
  settingsUrl: string;
  /** The applicant's translator. */
  t: Translate;
}

/** The e-mail of a status change. */
export function statusMail(input: StatusMailInput): Mail {
  const { t } = input;
  const message = input.message ? `\n${input.message}\n` : "";
  const text = `${t("mail.greeting", { name: input.name })}

${t("applications.mail.headline", { sentence: input.sentence })}
${message}
${t("applications.mail.textLink", { url: input.url })}

${t("applications.mail.why")} ${t("applications.mail.turnOffText", { url: input.settingsUrl })}

${t("mail.signature")}
`;
  const html = mailHtml(
    input.sentence,
    <>
      <p>{t("mail.greeting", { name: input.name })}</p>
      <p>
        <strong>{t("applications.mail.headline", { sentence: input.sentence })}</strong>
      </p>
      {input.message &&
        (input.ours
          ? <p style="white-space:pre-line">{input.message}</p>
          : (
            <blockquote style="margin:0;padding-left:12px;border-left:3px solid #c7d2fe;white-space:pre-line">
              {input.message}
            </blockquote>
          ))}
      <MailButton href={input.url}>{t("applications.mail.button")}</MailButton>
      <SmallPrint>
        {t("applications.mail.why")} {t.rich("applications.mail.turnOffHtml", {
          off: (chunks) => <a href={input.settingsUrl}>{chunks}</a>,
        })}
      </SmallPrint>
    </>,
    { lang: t.lang, signature: t("mail.signature") },
  );
  return { to: input.to, subject: input.sentence, text, html, link: input.url };
}
