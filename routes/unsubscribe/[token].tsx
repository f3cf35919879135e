/**
 * `/unsubscribe/{token}`: the one-click unsubscribe link of alert, reminder and reply e-mails, without signing in
 * (docs/decisions.md, Alerts). `GET` says what the link turns off, each search alert in words or the account setting,
 * and the account by its masked e-mail address, and offers a button; it changes nothing (mail scanners open links).
 * `POST` (that button, or a mail client's RFC 8058 one-click request) turns it off and says what it turned off. The
 * token in the path authenticates the request, so the route is exempt from the origin check; a guest's `POST` counts
 * against its link, or with an unknown token against its address (`countGuestByPath`). The page is in the
 * language of the person the token names (the link carries none and the browser has no session; docs/decisions.md,
 * Languages), unless `?lang=` asks for another. An unknown or expired token: 404 with a page saying so.
 */
import { define, type RouteContext } from "@/lib/platform/define.ts";
import type { RouteOptions } from "@/lib/platform/route_options.ts";
import { PageHead } from "@/components/PageHead.tsx";
import {
  readUnsubscribeToken,
  unsubscribe,
  type UnsubscribeSubject,
  unsubscribeSubject,
} from "@/lib/alerts/unsubscribe.ts";
import { describeAlert } from "@/lib/alerts/describe.ts";
import { countGuestByPath } from "@/lib/http/person_limits.ts";
import { useT } from "@/lib/i18n/context.ts";
import { translatorFor } from "@/lib/i18n/catalogue.ts";
import { isLang, LANG_PARAM } from "@/lib/i18n/languages.ts";
import type { ComponentChildren } from "preact";

export const routeOptions: RouteOptions = { originCheck: false, personLimit: "unsubscribe" };

interface Data {
  subject: UnsubscribeSubject | null;
  done: boolean;
}

/** Writes the page in `subject`'s person's language, unless the URL asked for one (`?lang=`). */
function speakTo(ctx: RouteContext<Data>, subject: UnsubscribeSubject | null): void {
  if (!subject?.language || isLang(ctx.url.searchParams.get(LANG_PARAM))) return;
  ctx.state.lang = subject.language;
  ctx.state.t = translatorFor(subject.language);
}

export const handler = define.handlers<Data>({
  async GET(_req, ctx) {
    const { kv } = ctx.state.services;
    const target = await readUnsubscribeToken(kv, ctx.params.token);
    const subject = target && await unsubscribeSubject(kv, target);
    speakTo(ctx, subject);
    return ctx.render({ subject, done: false }, { status: subject ? 200 : 404 });
  },

  async POST(req, ctx) {
    await req.body?.cancel();
    const { kv } = ctx.state.services;
    const target = await readUnsubscribeToken(kv, ctx.params.token);
    await countGuestByPath(ctx, target !== null);
    if (target) await unsubscribe(kv, target);
    const subject = target && await unsubscribeSubject(kv, target);
    speakTo(ctx, subject);
    return ctx.render({ subject, done: true }, { status: subject ? 200 : 404 });
  },
});

/** The notification type whose e-mail a setting's link turns off: the setting's name is the type's. */
const TYPE_OF = { reminders: "deadline_reminder", replies: "comment_reply" } as const;

/** What the link turns off: each alert in words, or the setting with what it sends. */
function Subject({ subject, done }: { subject: UnsubscribeSubject; done: boolean }) {
  const t = useT();
  const { target, alerts } = subject;
  if (target.kind !== "alerts") {
    const type = TYPE_OF[target.kind];
    return (
      <p class="mt-2 text-slate-800">
        {t.rich("me.unsubscribe.setting", {
          label: <strong>{t.dynamic(`notifications.type.${type}`)}</strong>,
          hint: t.dynamic(`me.unsubscribe.hint.${target.kind}`),
        })}
      </p>
    );
  }
  if (alerts.length === 0) {
    return <p class="mt-2 text-slate-800">{t("me.unsubscribe.alertsGone")}</p>;
  }
  return (
    <ul class="mt-2 list-disc space-y-1 pl-5 text-slate-800">
      {alerts.map((alert) => (
        <li key={alert.id}>
          {t.rich("me.unsubscribe.alert", {
            frequency: alert.frequency,
            alert: <strong>{describeAlert(alert, t)}</strong>,
          })}
          {!done && !alert.isActive && ` ${t("me.unsubscribe.alreadyOff")}`}
        </li>
      ))}
    </ul>
  );
}

export default define.page<Data>(function UnsubscribePage({ data: { subject, done } }) {
  const t = useT();
  const setting = subject !== null && subject.target.kind !== "alerts";
  const link = (href: string) => (chunks: ComponentChildren[]) => <a href={href} class="underline">{chunks}</a>;
  return (
    <section aria-labelledby="page-title" class="mx-auto max-w-xl [overflow-wrap:anywhere]">
      <PageHead title={t("me.unsubscribe.title")} />
      <h1 id="page-title" class="text-3xl font-bold tracking-tight text-slate-900">
        {!subject ? t("me.unsubscribe.broken") : done ? t("me.unsubscribe.done") : t("me.unsubscribe.title")}
      </h1>
      {!subject
        ? (
          <p class="mt-3 text-slate-700">
            {t.rich("me.unsubscribe.brokenLead", { alerts: link("/me/alerts"), settings: link("/me/settings") })}
          </p>
        )
        : (
          <div class="mt-3 space-y-4">
            <div role={done ? "status" : undefined}>
              <p class="text-slate-700">
                {subject.account
                  ? t.rich("me.unsubscribe.offAccount", {
                    done: done ? "yes" : "no",
                    account: <strong>{subject.account}</strong>,
                  })
                  : t("me.unsubscribe.off", { done: done ? "yes" : "no" })}
              </p>
              <Subject subject={subject} done={done} />
            </div>
            {done
              ? (
                <p class="text-slate-700">
                  {t.rich("me.unsubscribe.again", {
                    setting: setting ? "yes" : "no",
                    manage: link(setting ? "/me/settings" : "/me/alerts"),
                  })}
                </p>
              )
              : (
                <form method="post">
                  <button
                    type="submit"
                    class="rounded-md bg-indigo-700 px-4 py-2 font-medium text-white hover:bg-indigo-800"
                  >
                    {t("me.unsubscribe.turnOff")}
                  </button>
                </form>
              )}
          </div>
        )}
    </section>
  );
});
