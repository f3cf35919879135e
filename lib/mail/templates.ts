/**
 * The transactional e-mails (docs/api.md, Authentication, "E-mails"): e-mail verification and password reset, and the
 * organization claim (docs/decisions.md, Trust, "Verification by domain"), each as plain text and HTML. Every value
 * placed in the HTML is escaped.
 */
import type { Mail } from "./mailer.ts";

/** Who a mail goes to and the action link it carries. */
export interface MailInput {
  to: string;
  name: string;
  url: string;
}

const PLATFORM = "Career Community";

/** `text` with the five HTML special characters escaped, for element content and attributes. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function html(title: string, paragraphs: string[], button: { label: string; url: string }): string {
  const url = escapeHtml(button.url);
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head>
<body style="font-family:system-ui,sans-serif;line-height:1.5;color:#111827">
${paragraphs.map((p) => `<p>${p}</p>`).join("\n")}
<p><a href="${url}" style="display:inline-block;padding:10px 18px;background:#1d4ed8;color:#ffffff;text-decoration:none;border-radius:6px">${
    escapeHtml(button.label)
  }</a></p>
<p>If the button does not work, copy this link into your browser:<br><a href="${url}">${url}</a></p>
<p>${PLATFORM}</p>
</body></html>`;
}

/** What sets one action mail apart from the other; the rest of the layout is shared. */
interface ActionMail {
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

/**
 * One action mail in the shared layout: greeting by name, the intro, the link (bare in the text,
 * a button plus the bare link in the HTML), its 24-hour life, the closing line and the platform.
 */
function actionMail({ to, name, url }: MailInput, mail: ActionMail): Mail {
  const text = `Hi ${name},

${mail.textIntro}

${url}

This link expires in 24 hours.

${mail.ignore}

${PLATFORM}
`;
  return {
    to,
    subject: mail.subject,
    text,
    link: url,
    html: html(mail.subject, [
      `Hi ${escapeHtml(name)},`,
      mail.htmlIntro,
      "This link expires in 24 hours.",
      mail.ignore,
    ], { label: mail.button, url }),
  };
}

/** The verification e-mail sent at sign-up: greets by name, carries the link, states its 24-hour life. */
export function verificationMail(input: MailInput): Mail {
  return actionMail(input, {
    subject: `Verify your email address for ${PLATFORM}`,
    textIntro: `Welcome to ${PLATFORM}! Please verify your email address by opening this link:`,
    htmlIntro: `Welcome to ${PLATFORM}! Please verify your email address by clicking the button below.`,
    ignore: "If you did not create an account, you can ignore this email.",
    button: "Verify email address",
  });
}

/** The password-reset e-mail: greets by name, carries the link, says to ignore it if not requested. */
export function passwordResetMail(input: MailInput): Mail {
  return actionMail(input, {
    subject: `Reset your ${PLATFORM} password`,
    textIntro: "We received a request to reset your password. Open this link to choose a new one:",
    htmlIntro: "We received a request to reset your password. Click the button below to choose a new one.",
    ignore: "If you did not request a password reset, please ignore this email; your password stays unchanged.",
    button: "Reset password",
  });
}

/** The headers of a mail with the one-click unsubscribe link `url` (RFC 8058: `List-Unsubscribe` and its POST). */
export function unsubscribeHeaders(url: string): Record<string, string> {
  return { "List-Unsubscribe": `<${url}>`, "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" };
}

/**
 * The organization claim e-mail (docs/decisions.md, Trust, "Verification by domain"): sent to the work address given,
 * it names the organization and the person who asked, and carries the one-time link (24 hours).
 */
export function organizationClaimMail(input: MailInput & { organization: string }): Mail {
  const organization = input.organization;
  return actionMail(input, {
    subject: `Verify ${organization} on ${PLATFORM}`,
    textIntro: `You asked to verify ${organization} on ${PLATFORM} with this address. Open this link to confirm; ` +
      `you will then manage ${organization}'s page and its listings will show the verified badge:`,
    htmlIntro: `You asked to verify ${escapeHtml(organization)} on ${PLATFORM} with this address. Click the button ` +
      `below to confirm; you will then manage ${escapeHtml(organization)}'s page and its listings will show the ` +
      "verified badge.",
    ignore: "If you did not ask for this, ignore this email: nothing changes without the link.",
    button: `Verify ${organization}`,
  });
}
