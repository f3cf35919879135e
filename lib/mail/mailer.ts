/**
 * Outgoing e-mail (docs/decisions.md, Running `SMTP_URL`, `MAIL_FROM`): nodemailer over SMTP, or, when
 * `SMTP_URL` is unset, one JSON log line per mail with `to`, `subject` and the link. nodemailer
 * (~6 MB of memory) is loaded with the first mail, not with the server.
 */
import type { Transporter } from "nodemailer";
import { onFirstUse } from "@/lib/lazy.ts";
import type { Logger } from "@/lib/log.ts";

/** One transactional e-mail. `link` is the action URL it carries (logged when there is no SMTP). */
export interface Mail {
  to: string;
  subject: string;
  text: string;
  html: string;
  link: string;
}

/** Sends e-mails. @throws when the SMTP server refuses the mail. */
export interface Mailer {
  send(mail: Mail): Promise<void>;
}

/** A mailer for `smtpUrl`, or a log-only mailer when it is undefined. */
export function createMailer(smtpUrl: string | undefined, from: string, log: Logger): Mailer {
  if (!smtpUrl) {
    return {
      send(mail) {
        log.info("mail", { to: mail.to, subject: mail.subject, link: mail.link });
        return Promise.resolve();
      },
    };
  }
  const transport = onFirstUse(async (): Promise<Transporter> =>
    (await import("nodemailer")).default.createTransport(smtpUrl)
  );
  return {
    async send(mail) {
      await (await transport()).sendMail({
        from,
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
        html: mail.html,
      });
    },
  };
}
