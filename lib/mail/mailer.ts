/**
 * Outgoing e-mail (docs/decisions.md, Running `SMTP_URL`, `MAIL_FROM`): nodemailer over SMTP, or, when
 * `SMTP_URL` is unset, one JSON log line per mail with `to`, `subject` and the link. nodemailer
 * (~6 MB of memory) is loaded with the first mail, not with the server.
 */
import type { Transporter } from "nodemailer";
import { onFirstUse } from "@/lib/lazy.ts";
import type { Logger } from "@/lib/log.ts";

/**
 * One e-mail. `link` is the action URL it carries (logged when there is no SMTP). `headers` are extra header lines,
 * e.g. `List-Unsubscribe` and `List-Unsubscribe-Post` (RFC 8058) of the alert and reminder e-mails.
 */
export interface Mail {
  to: string;
  subject: string;
  text: string;
  html: string;
  link: string;
  headers?: Record<string, string>;
}

/** Sends e-mails. @throws when the SMTP server refuses the mail or cannot be reached. */
export interface Mailer {
  send(mail: Mail): Promise<void>;
}

/**
 * How long (ms) the SMTP client waits to connect, for the greeting, and on an idle socket, unless `SMTP_URL` names
 * its own (`?socketTimeout=…`). They bound one delivery try well inside the outbox's lease (`DELIVERY_LEASE_MS`).
 */
export const SMTP_TIMEOUTS_MS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 };

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
  const url = new URL(smtpUrl);
  for (const [name, ms] of Object.entries(SMTP_TIMEOUTS_MS)) {
    if (!url.searchParams.has(name)) url.searchParams.set(name, String(ms));
  }
  const transport = onFirstUse(async (): Promise<Transporter> =>
    (await import("nodemailer")).default.createTransport(url.href)
  );
  return {
    async send(mail) {
      await (await transport()).sendMail({
        from,
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
        html: mail.html,
        headers: mail.headers,
      });
    },
  };
}
