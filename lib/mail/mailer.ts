/**
 * Outgoing e-mail (`SMTP_URL`, `MAIL_FROM`; docs/decisions.md, Running): nodemailer over SMTP, or, when
 * `SMTP_URL` is unset, one JSON log line per mail with `to`, `subject` and the link. nodemailer (~6 MB
 * of memory) is loaded with the first mail, not with the server.
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

/** Sends e-mails. */
export interface Mailer {
  /** @throws when the SMTP server refuses the mail or cannot be reached. */
  send(mail: Mail): Promise<void>;
  /** Closes the connections kept open for the next mails (at shutdown). */
  close(): void;
}

/**
 * The SMTP client's options unless `SMTP_URL` names its own (`?socketTimeout=…`): a pool of up to 8 connections,
 * each reused for up to 100 mails (a connection and its greeting cost more than a mail), and how long (ms) it waits
 * to connect, for the greeting, and on an idle socket. The timeouts bound one delivery try well inside the outbox's
 * lease (`DELIVERY_LEASE_MS`); an idle connection is closed after `socketTimeout`.
 */
export const SMTP_OPTIONS = {
  pool: "true",
  maxConnections: "8",
  maxMessages: "100",
  connectionTimeout: "10000",
  greetingTimeout: "10000",
  socketTimeout: "30000",
};

/**
 * A mailer for `smtpUrl`, or, when it is undefined, a log-only mailer that prints each mail's recipient, subject, link
 * and unsubscribe link (the demo's console shows them).
 */
export function createMailer(smtpUrl: string | undefined, from: string, log: Logger): Mailer {
  if (!smtpUrl) {
    return {
      send(mail) {
        const unsubscribe = mail.headers?.["List-Unsubscribe"]?.slice(1, -1);
        log.info("mail", { to: mail.to, subject: mail.subject, link: mail.link, ...unsubscribe && { unsubscribe } });
        return Promise.resolve();
      },
      close() {},
    };
  }
  const url = new URL(smtpUrl);
  for (const [name, value] of Object.entries(SMTP_OPTIONS)) {
    if (!url.searchParams.has(name)) url.searchParams.set(name, value);
  }
  let made: Transporter | undefined;
  const transport = onFirstUse(async (): Promise<Transporter> =>
    made = (await import("nodemailer")).default.createTransport(url.href)
  );
  return {
    close() {
      made?.close();
    },
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
