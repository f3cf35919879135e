/**
 * The alert digest and deadline reminder e-mails (docs/decisions.md, Alerts), each as plain text and HTML, with the
 * one-click unsubscribe headers of RFC 8058 (`List-Unsubscribe`, `List-Unsubscribe-Post`). The HTML is in the mail
 * layout (`lib/mail/layout.tsx`), which escapes every value placed in it.
 */
import { formatDate } from "@/lib/dates.ts";
import { formatStipend } from "@/lib/internships/stipend.ts";
import type { InternshipView } from "@/lib/internships/schema.ts";
import type { OpportunityView } from "@/lib/opportunities/schema.ts";
import { Fragment } from "preact";
import { renderToString } from "preact-render-to-string";
import { mailHtml, PLATFORM } from "@/lib/mail/layout.tsx";
import { unsubscribeHeaders } from "@/lib/mail/templates.tsx";
import type { Mail } from "@/lib/mail/mailer.ts";
import type { Alert } from "./alerts.ts";
import { describeAlert } from "./describe.ts";

/** One listing of a mail: a title, a line of facts, and its page. */
export interface MailItem {
  title: string;
  facts: string;
  url: string;
}

/** An internship as a mail item: organization, stipend and deadline. */
export function internshipItem(appUrl: string, internship: InternshipView): MailItem {
  const deadline = internship.deadline ? ` · apply by ${formatDate(internship.deadline)}` : "";
  return {
    title: internship.title,
    facts: `${internship.hiringOrganization} · ${formatStipend(internship.stipend)}${deadline}`,
    url: `${appUrl}/internships/${internship.id}`,
  };
}

/** An opportunity as a mail item: organizer and dates. */
export function opportunityItem(appUrl: string, opportunity: OpportunityView): MailItem {
  const by = opportunity.organizer ? `${opportunity.organizer} · ` : "";
  return {
    title: opportunity.title,
    facts: `${by}${formatDate(opportunity.startDate)} – ${formatDate(opportunity.endDate)}`,
    url: `${appUrl}/opportunities/${opportunity.id}`,
  };
}

/**
 * `items` as plain text and HTML, made once per list: the digest hands the same list of matches to everyone whose
 * alert has the same filters, so a list is rendered once per run, not once per e-mail.
 */
const rendered = new WeakMap<MailItem[], { text: string; html: string }>();

function renderItems(items: MailItem[]): { text: string; html: string } {
  let done = rendered.get(items);
  if (!done) {
    done = {
      text: items.map((item) => `- ${item.title}\n  ${item.facts}\n  ${item.url}`).join("\n"),
      html: renderToString(
        <>
          {items.map((item) => (
            <li key={item.url}>
              <a href={item.url}>{item.title}</a>
              <br />
              {item.facts}
            </li>
          ))}
        </>,
      ),
    };
    rendered.set(items, done);
  }
  return done;
}

/** The list of `items`, its `<li>`s rendered once per list (`renderItems`). */
function HtmlItems({ items }: { items: MailItem[] }) {
  // deno-lint-ignore react-no-danger
  return <ul dangerouslySetInnerHTML={{ __html: renderItems(items).html }} />;
}

function textItems(items: MailItem[]): string {
  return renderItems(items).text;
}

/** One alert's section of a digest: the alert, its new matches, and the link that stops that alert alone. */
export interface DigestSection {
  alert: Pick<Alert, "kind" | "query">;
  items: MailItem[];
  unsubscribeUrl: string;
}

/**
 * The digest to `to`: per alert its new matches, each with its own stop link; the mail's one-click link
 * (`unsubscribeUrl`) stops every alert it lists.
 */
export function digestMail(
  { to, name, appUrl, sections, unsubscribeUrl }: {
    to: string;
    name: string;
    appUrl: string;
    sections: DigestSection[];
    unsubscribeUrl: string;
  },
): Mail {
  const count = sections.reduce((n, s) => n + s.items.length, 0);
  const subject = `${count} new ${count === 1 ? "listing matches" : "listings match"} your alerts`;
  const manage = `${appUrl}/me/alerts`;
  const text = `Hi ${name},

New listings match your alerts.

${
    sections.map((s) => `${describeAlert(s.alert)}\n\n${textItems(s.items)}\n\nStop this alert: ${s.unsubscribeUrl}`)
      .join("\n\n")
  }

Manage your alerts: ${manage}
Stop all the alerts of this e-mail: ${unsubscribeUrl}

${PLATFORM}
`;
  const html = mailHtml(
    subject,
    <>
      <p>Hi {name},</p>
      <p>New listings match your alerts.</p>
      {sections.map((s) => (
        <Fragment key={s.unsubscribeUrl}>
          <h2 style="font-size:1.1em">{describeAlert(s.alert)}</h2>
          <HtmlItems items={s.items} />
          <p>
            <a href={s.unsubscribeUrl}>Stop this alert</a>
          </p>
        </Fragment>
      ))}
      <p>
        <a href={manage}>Manage your alerts</a> · <a href={unsubscribeUrl}>Stop all the alerts of this e-mail</a>
      </p>
    </>,
  );
  return { to, subject, text, html, link: manage, headers: unsubscribeHeaders(unsubscribeUrl) };
}

/** The deadline reminder to `to`: saved internships closing today or tomorrow, saved opportunities starting tomorrow. */
export function reminderMail(
  { to, name, appUrl, items, unsubscribeUrl }: {
    to: string;
    name: string;
    appUrl: string;
    items: MailItem[];
    unsubscribeUrl: string;
  },
): Mail {
  const subject = items.length === 1
    ? `Reminder: "${items[0].title}" is due soon`
    : `Reminder: ${items.length} saved listings are due soon`;
  const tracker = `${appUrl}/me/tracker`;
  const text = `Hi ${name},

These listings you saved close today or tomorrow, or start tomorrow:

${textItems(items)}

Your applications: ${tracker}
Stop deadline reminders: ${unsubscribeUrl}

${PLATFORM}
`;
  const html = mailHtml(
    subject,
    <>
      <p>Hi {name},</p>
      <p>These listings you saved close today or tomorrow, or start tomorrow:</p>
      <HtmlItems items={items} />
      <p>
        <a href={tracker}>Your applications</a> · <a href={unsubscribeUrl}>Stop deadline reminders</a>
      </p>
    </>,
  );
  return { to, subject, text, html, link: tracker, headers: unsubscribeHeaders(unsubscribeUrl) };
}
