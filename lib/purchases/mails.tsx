/**
 * The buyer's e-mails about money (docs/decisions.md, Money operations): the receipt when a payment makes a purchase
 * paid, the refund notice and a declined refund request, in the buyer's language (`t`; docs/decisions.md, Languages, "E-mails"; the toolkit's
 * title as written). Plain text and HTML in the mail layout (`lib/mail/layout.tsx`), which escapes every value placed
 * in it. They are queued in the outbox in the same atomic write as the change they announce.
 */
import { mailHtml } from "@/lib/mail/layout.tsx";
import type { Mail } from "@/lib/mail/mailer.ts";
import type { Translate } from "@/lib/i18n/translator.ts";

/** Who the mail goes to, about which toolkit, how much (paise), the page it links to (absolute URL), the language. */
export interface MoneyMailInput {
  to: string;
  name: string;
  toolkitTitle: string;
  amountPaise: number;
  url: string;
  t: Translate;
}

function layout(t: Translate, subject: string, lines: string[], link: { label: string; url: string }): Mail {
  const text = `${lines.join("\n\n")}\n\n${link.label}: ${link.url}\n\n${t("mail.signature")}\n`;
  const html = mailHtml(
    subject,
    <>
      {lines.map((line, i) => <p key={i}>{line}</p>)}
      <p>
        <a href={link.url} style="color:#1d4ed8">{link.label}</a>
      </p>
    </>,
    { lang: t.lang, signature: t("mail.signature") },
  );
  return { to: "", subject, text, html, link: link.url };
}

/** The receipt e-mail: the amount, the toolkit and the receipt number, linking the printable receipt. */
export function receiptMail(input: MoneyMailInput & { receiptNumber: string }): Mail {
  const { t } = input;
  const values = { toolkit: input.toolkitTitle, number: input.receiptNumber };
  return {
    ...layout(t, t("mail.receipt.subject", values), [
      t("mail.greeting", { name: input.name }),
      t("mail.receipt.thanks", { toolkit: input.toolkitTitle, amount: t.minorUnits(input.amountPaise) }),
      t("mail.receipt.number", values),
    ], { label: t("mail.receipt.link"), url: input.url }),
    to: input.to,
  };
}

/**
 * The refund e-mail: the amount this refund sends back for the toolkit (in the smallest unit of `currency`, INR unless
 * given) and, when parts of the payment were refunded before, the payment's `totalPaise` refunded in all; linking
 * "My toolkits"; `accessEnded` when the refund took the toolkit away (the purchase's own payment),
 * else the payment granted nothing and the access stays; `afterDecline` when the buyer was told their refund request
 * was declined: this refund replaces that answer; `part` when it refunded part of the purchase's payment at the
 * gateway: the rest and the access stay; `creditNote` when the refund issued one (its number and its own page).
 */
export function refundMail(
  input: MoneyMailInput & {
    accessEnded: boolean;
    currency?: string;
    reason?: string | null;
    totalPaise?: number;
    afterDecline?: boolean;
    part?: boolean;
    /** The refund's credit note: its number and its own page (`creditNotePath`). */
    creditNote?: { number: string; url: string };
  },
): Mail {
  const { t } = input;
  const amount = t.minorUnits(input.amountPaise, input.currency);
  const total = input.totalPaise ?? input.amountPaise;
  return {
    ...layout(t, t("mail.refund.subject", { toolkit: input.toolkitTitle }), [
      t("mail.greeting", { name: input.name }),
      t("mail.refund.sent", { toolkit: input.toolkitTitle, amount }),
      ...input.afterDecline ? [t("mail.refund.afterDecline")] : [],
      ...total !== input.amountPaise
        ? [t("mail.refund.inAll", {
          before: t.minorUnits(total - input.amountPaise, input.currency),
          total: t.minorUnits(total, input.currency),
        })]
        : [],
      ...input.reason ? [t("mail.refund.reason", { reason: input.reason })] : [],
      t(
        input.accessEnded
          ? "mail.refund.accessEnded"
          : input.part
          ? "mail.refund.partStays"
          : "mail.refund.accessStays",
      ),
      ...input.creditNote ? [t("mail.refund.creditNote", input.creditNote)] : [],
    ], { label: t("mail.refund.link"), url: input.url }),
    to: input.to,
  };
}

/**
 * The e-mail of a declined refund request: the toolkit, the admin's `note` as written, and that the purchase and its
 * access stay; linking "My toolkits".
 */
export function refundDeclinedMail(input: MoneyMailInput & { note: string }): Mail {
  const { t } = input;
  return {
    ...layout(t, t("mail.refundDeclined.subject", { toolkit: input.toolkitTitle }), [
      t("mail.greeting", { name: input.name }),
      t("mail.refundDeclined.declined", { toolkit: input.toolkitTitle }),
      t("mail.refundDeclined.note", { note: input.note }),
      t("mail.refundDeclined.stays"),
    ], { label: t("mail.refund.link"), url: input.url }),
    to: input.to,
  };
}
