/**
 * The e-mail of a notification whose type has no e-mail of its own, for a person who turned its e-mail channel on
 * (docs/decisions.md, Notifications, "Channels"): the notification's title, body and link, and where to turn it off.
 */
import { escapeHtml } from "@/lib/mail/templates.ts";
import type { Mail } from "@/lib/mail/mailer.ts";

/** What the mail says: to whom, the notification, and the absolute URLs of its page and of the settings. */
export interface NotificationMailInput {
  to: string;
  name: string;
  title: string;
  body: string;
  url: string;
  settingsUrl: string;
}

/** The mail of one notification. */
export function notificationMail(input: NotificationMailInput): Mail {
  const text = `Hi ${input.name},

${input.title}
${input.body ? `\n${input.body}\n` : ""}
Open it here: ${input.url}

You get this e-mail because you turned on e-mails of this kind. Turn them off in your settings:
${input.settingsUrl}

Career Community
`;
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(input.title)}</title></head>
<body style="font-family:system-ui,sans-serif;line-height:1.5;color:#111827">
<p>Hi ${escapeHtml(input.name)},</p>
<p><strong>${escapeHtml(input.title)}</strong></p>
${input.body ? `<p style="white-space:pre-line">${escapeHtml(input.body)}</p>` : ""}
<p><a href="${
    escapeHtml(input.url)
  }" style="display:inline-block;padding:10px 18px;background:#4338ca;color:#ffffff;text-decoration:none;border-radius:6px">Open it</a></p>
<p style="font-size:13px;color:#374151">You get this e-mail because you turned on e-mails of this kind.
<a href="${escapeHtml(input.settingsUrl)}">Turn them off in your settings</a>.</p>
<p>Career Community</p>
</body></html>`;
  return { to: input.to, subject: input.title, text, html, link: input.url };
}
