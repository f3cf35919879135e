/**
 * The alert digest and deadline reminder e-mails (docs/decisions.md, Alerts), each as plain text and HTML, with the
 * one-click unsubscribe headers of RFC 8058 (`List-Unsubscribe`, `List-Unsubscribe-Post`), in the recipient's
 * language (`t`; docs/decisions.md, Languages, "E-mails"; titles and names as written). The HTML is in the mail layout
 * (`lib/mail/layout.tsx`), which escapes every value placed in it.
 */
import type { Translate } from "@/lib/i18n/translator.ts";
import { stipendText } from "@/lib/internships/stipend.ts";
import type { InternshipView } from "@/lib/internships/schema.ts";
import type { OpportunityView } from "@/lib/opportunities/schema.ts";
import { Fragment } from "preact";
import { renderToString } from "preact-render-to-string";
import { mailHtml } from "@/lib/mail/layout.tsx";
import { unsubscribeHeaders } from "@/lib/mail/templates.tsx";
import type { Mail } from "@/lib/mail/mailer.ts";
import { mailBytes, MAX_MAIL_BYTES } from "@/lib/mail/outbox.ts";
import { type Alert, queryParams } from "./alerts.ts";
import { describeAlert } from "./describe.ts";

/** One listing of a mail: a title, a line of facts, and its page. */
export interface MailItem {
  title: string;
  facts: string;
  url: string;
}

/** An internship as a mail item in `t`'s language: organization, stipend and deadline. */
export function internshipItem(appUrl: string, internship: InternshipView, t: Translate): MailItem {
  const deadline = internship.deadline ? ` · ${t("mail.item.applyBy", { date: t.date(internship.deadline) })}` : "";
  return {
    title: internship.title,
    facts: `${internship.hiringOrganization} · ${stipendText(t, internship.stipend)}${deadline}`,
    url: `${appUrl}/internships/${internship.id}`,
  };
}

/** An opportunity as a mail item in `t`'s language: organizer and dates. */
export function opportunityItem(appUrl: string, opportunity: OpportunityView, t: Translate): MailItem {
  const by = opportunity.organizer ? `${opportunity.organizer} · ` : "";
  return {
    title: opportunity.title,
    facts: `${by}${t.date(opportunity.startDate)} – ${t.date(opportunity.endDate)}`,
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

/** The list of `items` (nothing when empty), its `<li>`s rendered once per list (`renderItems`). */
function HtmlItems({ items }: { items: MailItem[] }) {
  if (items.length === 0) return null;
  // deno-lint-ignore react-no-danger
  return <ul dangerouslySetInnerHTML={{ __html: renderItems(items).html }} />;
}

function textItems(items: MailItem[]): string {
  return renderItems(items).text;
}

/** The most a digest or reminder e-mail weighs (its text and HTML as the outbox counts them), under its limit. */
export const MAIL_BUDGET = MAX_MAIL_BYTES - 5_000;

/** Whether `mail`'s text and HTML are within `MAIL_BUDGET`, counted as the outbox counts them (`mailBytes`). */
function fits(mail: Mail): boolean {
  return mailBytes(mail) <= MAIL_BUDGET;
}

/**
 * The e-mail of the most items that fits `MAIL_BUDGET`: `make(kept)` writes the e-mail of the first `kept` of `total`
 * items (the others counted in an "and N more" line); the largest fitting `kept` is found by halving, so an e-mail
 * that fits whole is written once. Returns the e-mail and how many items it names.
 * @throws Error when even the e-mail of no item is over the budget.
 */
export function fitMail(total: number, make: (kept: number) => Mail): { mail: Mail; kept: number } {
  const whole = make(total);
  if (fits(whole)) return { mail: whole, kept: total };
  let best: { mail: Mail; kept: number } | null = null;
  for (let low = 0, high = total - 1; low <= high;) {
    const kept = Math.floor((low + high) / 2);
    const mail = make(kept);
    if (fits(mail)) {
      best = { mail, kept };
      low = kept + 1;
    } else high = kept - 1;
  }
  if (!best) throw new Error(`an e-mail of no item is over ${MAIL_BUDGET} bytes`);
  return best;
}

/** The text of a list of `items` and, when `more` were left out, the "and N more" line linking to them all at `url`. */
function textList(t: Translate, items: MailItem[], more: number, url: string): string {
  return [textItems(items), more > 0 ? t("mail.moreText", { count: more, url }) : ""].filter(Boolean).join("\n\n");
}

/** The HTML of the "and N more" line (nothing when `count` is 0). */
function MoreHtml({ t, count, url }: { t: Translate; count: number; url: string }) {
  return count > 0
    ? (
      <p>
        <a href={url}>{t("mail.more", { count })}</a>
      </p>
    )
    : null;
}

/**
 * One alert's section of a digest: the alert, its new matches, the link that stops that alert alone, and how many
 * further matches the e-mail leaves out (`more`, counted in a line linking to the list with the alert's filters).
 */
export interface DigestSection {
  alert: Pick<Alert, "kind" | "query">;
  items: MailItem[];
  unsubscribeUrl: string;
  more?: number;
}

/** The list page of `alert`'s kind with its filters: every listing it matches, newest first. */
function alertListUrl(appUrl: string, alert: Pick<Alert, "kind" | "query">): string {
  const query = new URLSearchParams(queryParams(alert.query)).toString();
  return `${appUrl}/${alert.kind}${query ? `?${query}` : ""}`;
}

/**
 * The digest to `to`: per alert its new matches (and the count of those left out, with a link to them all), each with
 * its own stop link; the mail's one-click link (`unsubscribeUrl`) stops every alert it lists.
 */
export function digestMail(
  { to, name, appUrl, sections, unsubscribeUrl, t }: {
    to: string;
    name: string;
    appUrl: string;
    sections: DigestSection[];
    unsubscribeUrl: string;
    t: Translate;
  },
): Mail {
  const count = sections.reduce((n, s) => n + s.items.length + (s.more ?? 0), 0);
  const subject = t("mail.digest.subject", { count });
  const manage = `${appUrl}/me/alerts`;
  const text = `${t("mail.greeting", { name })}

${t("mail.digest.intro")}

${
    sections.map((s) =>
      `${describeAlert(s.alert, t)}\n\n${textList(t, s.items, s.more ?? 0, alertListUrl(appUrl, s.alert))}\n\n${
        t("mail.digest.stopThisText", { url: s.unsubscribeUrl })
      }`
    ).join("\n\n")
  }

${t("mail.digest.manageText", { url: manage })}
${t("mail.digest.stopAllText", { url: unsubscribeUrl })}

${t("mail.signature")}
`;
  const html = mailHtml(
    subject,
    <>
      <p>{t("mail.greeting", { name })}</p>
      <p>{t("mail.digest.intro")}</p>
      {sections.map((s) => (
        <Fragment key={s.unsubscribeUrl}>
          <h2 style="font-size:1.1em">{describeAlert(s.alert, t)}</h2>
          <HtmlItems items={s.items} />
          <MoreHtml t={t} count={s.more ?? 0} url={alertListUrl(appUrl, s.alert)} />
          <p>
            <a href={s.unsubscribeUrl}>{t("mail.digest.stopThis")}</a>
          </p>
        </Fragment>
      ))}
      <p>
        <a href={manage}>{t("mail.digest.manage")}</a> · <a href={unsubscribeUrl}>{t("mail.digest.stopAll")}</a>
      </p>
    </>,
    { lang: t.lang, signature: t("mail.signature") },
  );
  return { to, subject, text, html, link: manage, headers: unsubscribeHeaders(unsubscribeUrl) };
}

/**
 * The deadline reminder to `to`: saved internships closing today or tomorrow, saved opportunities starting tomorrow
 * (`items`, and the count of those left out, `more`, with a link to the tracker that lists them all).
 */
export function reminderMail(
  { to, name, appUrl, items, more = 0, unsubscribeUrl, t }: {
    to: string;
    name: string;
    appUrl: string;
    items: MailItem[];
    more?: number;
    unsubscribeUrl: string;
    t: Translate;
  },
): Mail {
  const subject = items.length === 1 && more === 0
    ? t("mail.reminder.subjectOne", { title: items[0].title })
    : t("mail.reminder.subjectMany", { count: items.length + more });
  const tracker = `${appUrl}/me/tracker`;
  const text = `${t("mail.greeting", { name })}

${t("mail.reminder.intro")}

${textList(t, items, more, tracker)}

${t("mail.reminder.trackerText", { url: tracker })}
${t("mail.reminder.stopText", { url: unsubscribeUrl })}

${t("mail.signature")}
`;
  const html = mailHtml(
    subject,
    <>
      <p>{t("mail.greeting", { name })}</p>
      <p>{t("mail.reminder.intro")}</p>
      <HtmlItems items={items} />
      <MoreHtml t={t} count={more} url={tracker} />
      <p>
        <a href={tracker}>{t("mail.reminder.tracker")}</a> · <a href={unsubscribeUrl}>{t("mail.reminder.stop")}</a>
      </p>
    </>,
    { lang: t.lang, signature: t("mail.signature") },
  );
  return { to, subject, text, html, link: tracker, headers: unsubscribeHeaders(unsubscribeUrl) };
}
