/**
 * The transactional e-mails (docs/api.md, Authentication, "E-mails"): e-mail verification and password reset, the
 * security notices of a changed password and a deleted account (docs/decisions.md, Auth, "Security e-mails"), and the
 * organization claim (docs/decisions.md, Trust, "Verification by domain"), each as plain text and HTML, in the
 * recipient's language (`t`, docs/decisions.md, Languages, "E-mails"), the HTML in the mail layout (`layout.tsx`),
 * which escapes every value placed in it.
 */
import type { Translate } from "@/lib/i18n/translator.ts";
import type { Mail } from "./mailer.ts";
import { MailButton, mailHtml } from "./layout.tsx";

/**
 * Who a mail goes to, the name it greets (null: none), the action link it carries, and the translator of the
 * recipient's language. A mail to an address not yet proven greets without a name (docs/decisions.md, Auth, "A mail to
 * an unproven address carries no typed name"): whoever typed the name may not own the address.
 */
export interface MailInput {
  to: string;
  name: string | null;
  url: string;
  t: Translate;
}

/** A mail to an address not yet proven: greets without a name. */
export type UnprovenMailInput = Omit<MailInput, "name">;

/**
 * What one mail says, in the recipient's language; the greeting, the layout and the signature are shared. `text` and
 * `html` are the paragraphs of each part in order (the plain text carries the link itself where it belongs; the HTML
 * points at the button), and `button` is the one link to act on.
 */
interface LayoutMail {
  subject: string;
  text: string[];
  html: string[];
  button: { label: string; url: string };
  /** Whether the HTML repeats the link bare under the button, for a mail whose link is the whole point. */
  bareLink: boolean;
}

/**
 * One mail in the shared layout: the greeting (by name when `name` is given, else the unproven greeting), the
 * paragraphs, the button (HTML only) with the bare link under it when asked, and the platform's signature.
 */
function layoutMail({ to, name, t }: Omit<MailInput, "url">, mail: LayoutMail): Mail {
  const greeting = name === null ? t("mail.greetingUnproven") : t("mail.greeting", { name });
  const { label, url } = mail.button;
  const text = `${[greeting, ...mail.text].join("\n\n")}

${t("mail.signature")}
`;
  return {
    to,
    subject: mail.subject,
    text,
    link: url,
    html: mailHtml(
      mail.subject,
      <>
        <p>{greeting}</p>
        {mail.html.map((paragraph, i) => <p key={i}>{paragraph}</p>)}
        <MailButton href={url}>{label}</MailButton>
        {mail.bareLink && (
          <p>
            {t("mail.buttonFallback")}
            <br />
            <a href={url}>{url}</a>
          </p>
        )}
      </>,
      { lang: t.lang, signature: t("mail.signature") },
    ),
  };
}

/** The words that set one single-use link mail apart, in the recipient's language. */
interface LinkMail {
  subject: string;
  /** The sentence before the bare link in the plain text, ending in a colon. */
  textIntro: string;
  /** The same sentence in the HTML, which points at the button instead. */
  htmlIntro: string;
  /** The closing line for someone who did not ask for the mail. */
  ignore: string;
  /** The HTML button's label. */
  button: string;
}

/** A mail carrying a single-use link (`input.url`) with its 24-hour life, in the shared layout. */
function linkMail(input: MailInput, mail: LinkMail): Mail {
  const expires = input.t("mail.linkExpires");
  return layoutMail(input, {
    subject: mail.subject,
    text: [mail.textIntro, input.url, expires, mail.ignore],
    html: [mail.htmlIntro, expires, mail.ignore],
    button: { label: mail.button, url: input.url },
    bareLink: true,
  });
}

/**
 * The verification e-mail sent at sign-up: greets without a name (the address is not proven yet), carries the link,
 * states its 24-hour life.
 */
export function verificationMail(input: UnprovenMailInput): Mail {
  const { t } = input;
  return linkMail({ ...input, name: null }, {
    subject: t("mail.verify.subject"),
    textIntro: t("mail.verify.textIntro"),
    htmlIntro: t("mail.verify.htmlIntro"),
    ignore: t("mail.verify.ignore"),
    button: t("mail.verify.button"),
  });
}

/**
 * The password-reset e-mail: greets by `name` (null for an account whose address is not verified), carries the link,
 * says to ignore it if not requested.
 */
export function passwordResetMail(input: MailInput): Mail {
  const { t } = input;
  return linkMail(input, {
    subject: t("mail.reset.subject"),
    textIntro: t("mail.reset.textIntro"),
    htmlIntro: t("mail.reset.htmlIntro"),
    ignore: t("mail.reset.ignore"),
    button: t("mail.reset.button"),
  });
}

/**
 * A security notice in the shared layout: its paragraphs, then the link to act on (after its label in the text, a
 * button in the HTML). It holds no single-use link.
 */
function noticeMail(
  input: Omit<MailInput, "url">,
  mail: { subject: string; paragraphs: string[]; action: { label: string; url: string } },
): Mail {
  const { label, url } = mail.action;
  return layoutMail(input, {
    subject: mail.subject,
    text: [...mail.paragraphs, `${label}: ${url}`],
    html: mail.paragraphs,
    button: mail.action,
    bareLink: false,
  });
}

/**
 * The notice that the password of `to` was changed at `changedAt` (an ISO time, shown in India's time) by a reset,
 * which signed every device out; it says what to do when it was not them, with the link `forgotUrl` to the
 * forgotten-password page.
 */
export function passwordChangedMail(
  input: Omit<MailInput, "url"> & { changedAt: string; forgotUrl: string },
): Mail {
  const { t } = input;
  return noticeMail(input, {
    subject: t("mail.passwordChanged.subject"),
    paragraphs: [
      t("mail.passwordChanged.what", { time: t.dateTime(input.changedAt) }),
      t("mail.passwordChanged.ifYou"),
      t("mail.passwordChanged.ifNotYou"),
    ],
    action: { label: t("mail.passwordChanged.button"), url: input.forgotUrl },
  });
}

/**
 * The notice that the account of `to` was deleted at `deletedAt` (an ISO time, shown in India's time): what went, what
 * is kept and why (docs/decisions.md, Data rights, "Deletion"), that no copy of the mail is kept, and the link
 * `contactUrl` for someone who did not ask for it.
 */
export function accountDeletedMail(
  input: Omit<MailInput, "url"> & { deletedAt: string; contactUrl: string },
): Mail {
  const { t } = input;
  return noticeMail(input, {
    subject: t("mail.accountDeleted.subject"),
    paragraphs: [
      t("mail.accountDeleted.what", { email: input.to, time: t.dateTime(input.deletedAt) }),
      t("mail.accountDeleted.gone"),
      t("mail.accountDeleted.kept"),
      t("mail.accountDeleted.last"),
      t("mail.accountDeleted.ifNotYou"),
    ],
    action: { label: t("mail.accountDeleted.button"), url: input.contactUrl },
  });
}

/**
 * The notice that an admin suspended the account of `to` (docs/decisions.md, Admin, "Suspension"): the admin's
 * `reason`, what it means (`listingsHidden`: their open listings were taken down too; `commentsRemoved`: their comments
 * were removed too), and the link `contactUrl` to appeal; never the admin's name.
 */
export function suspensionMail(
  input: Omit<MailInput, "url"> & {
    reason: string;
    listingsHidden: boolean;
    commentsRemoved: boolean;
    contactUrl: string;
  },
): Mail {
  const { t } = input;
  const removed = input.commentsRemoved
    ? (input.listingsHidden ? "mail.suspended.listingsAndComments" : "mail.suspended.commentsRemoved")
    : (input.listingsHidden ? "mail.suspended.listingsHidden" : "mail.suspended.kept");
  return noticeMail(input, {
    subject: t("mail.suspended.subject"),
    paragraphs: [
      t("mail.suspended.what"),
      t("mail.suspended.reason", { reason: input.reason }),
      t(removed),
      t("mail.suspended.appeal"),
    ],
    action: { label: t("mail.suspended.button"), url: input.contactUrl },
  });
}

/** The notice that the suspension of the account of `to` was lifted, with the link `signInUrl`. */
export function suspensionLiftedMail(input: Omit<MailInput, "url"> & { signInUrl: string }): Mail {
  const { t } = input;
  return noticeMail(input, {
    subject: t("mail.suspensionLifted.subject"),
    paragraphs: [t("mail.suspensionLifted.what")],
    action: { label: t("mail.suspensionLifted.button"), url: input.signInUrl },
  });
}

/** The headers of a mail with the one-click unsubscribe link `url` (RFC 8058: `List-Unsubscribe` and its POST). */
export function unsubscribeHeaders(url: string): Record<string, string> {
  return { "List-Unsubscribe": `<${url}>`, "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" };
}

/**
 * The organization claim e-mail (docs/decisions.md, Trust, "Verification by domain"): sent to the work address given
 * (not proven yet, so it greets without a name), it names the organization and carries the one-time link (24 hours).
 */
export function organizationClaimMail(input: UnprovenMailInput & { organization: string }): Mail {
  const { organization, t } = input;
  return linkMail({ ...input, name: null }, {
    subject: t("mail.claim.subject", { organization }),
    textIntro: t("mail.claim.textIntro", { organization }),
    htmlIntro: t("mail.claim.htmlIntro", { organization }),
    ignore: t("mail.claim.ignore"),
    button: t("mail.claim.button", { organization }),
  });
}
