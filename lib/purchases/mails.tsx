/**
 * The buyer's e-mails about money (docs/decisions.md, Money operations): the receipt when a payment makes a purchase
 * paid, and the refund notice. Plain text and HTML in the mail layout (`lib/mail/layout.tsx`), which escapes every
 * value placed in it. They are queued in the outbox in the same atomic write as the change they announce.
 */
import { mailHtml, PLATFORM } from "@/lib/mail/layout.tsx";
import type { Mail } from "@/lib/mail/mailer.ts";
import { formatMinorUnits, formatRupees, toRupees } from "@/lib/money.ts";

/** Who the mail goes to, about which toolkit, how much (paise), and the page it links to (absolute URL). */
export interface MoneyMailInput {
  to: string;
  name: string;
  toolkitTitle: string;
  amountPaise: number;
  url: string;
}

function layout(subject: string, lines: string[], link: { label: string; url: string }): Mail {
  const text = `${lines.join("\n\n")}\n\n${link.label}: ${link.url}\n\n${PLATFORM}\n`;
  const html = mailHtml(
    subject,
    <>
      {lines.map((line, i) => <p key={i}>{line}</p>)}
      <p>
        <a href={link.url} style="color:#1d4ed8">{link.label}</a>
      </p>
    </>,
  );
  return { to: "", subject, text, html, link: link.url };
}

/** The receipt e-mail: the amount, the toolkit and the receipt number, linking the printable receipt. */
export function receiptMail(input: MoneyMailInput & { receiptNumber: string }): Mail {
  const subject = `Your receipt ${input.receiptNumber} for ${input.toolkitTitle}`;
  return {
    ...layout(subject, [
      `Hi ${input.name},`,
      `Thank you for buying ${input.toolkitTitle}. We received ${formatRupees(toRupees(input.amountPaise))}.`,
      `Your receipt number is ${input.receiptNumber}.`,
    ], { label: "View or print your receipt", url: input.url }),
    to: input.to,
  };
}

/**
 * The refund e-mail: the amount on its way back for the toolkit (in the smallest unit of `currency`, INR unless
 * given), linking "My toolkits"; `accessEnded` when the refund took the toolkit away (the purchase's own payment),
 * else the payment granted nothing and the access stays.
 */
export function refundMail(input: MoneyMailInput & { accessEnded: boolean; currency?: string }): Mail {
  const amount = formatMinorUnits(input.amountPaise, input.currency);
  return {
    ...layout(`Your refund for ${input.toolkitTitle}`, [
      `Hi ${input.name},`,
      `We refunded ${amount} for ${input.toolkitTitle}. Banks usually take 5 to 7 working days to show it.`,
      input.accessEnded
        ? "Your access to the toolkit has ended."
        : "This payment was one your purchase did not need; anything you have access to stays as it is.",
    ], { label: "See your purchases", url: input.url }),
    to: input.to,
  };
}
