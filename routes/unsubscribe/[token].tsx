/**
 * `/unsubscribe/{token}`: the one-click unsubscribe link of alert, reminder and reply e-mails, without signing in
 * (docs/decisions.md, Alerts). `GET` says what the link turns off, each search alert in words or the account setting,
 * and the account by its masked e-mail address, and offers a button; it changes nothing (mail scanners open links).
 * `POST` (that button, or a mail client's RFC 8058 one-click request) turns it off and says what it turned off. The
 * token in the path authenticates the request, so the route is exempt from the origin check. An unknown or expired
 * token: 404 with a page saying so.
 */
import { define } from "@/lib/platform/define.ts";
import type { RouteOptions } from "@/lib/platform/route_options.ts";
import { PageHead } from "@/components/PageHead.tsx";
import {
  readUnsubscribeToken,
  SETTING_OF,
  unsubscribe,
  type UnsubscribeSubject,
  unsubscribeSubject,
} from "@/lib/alerts/unsubscribe.ts";
import { describeAlert } from "@/lib/alerts/describe.ts";
import { SETTING_LABELS } from "@/lib/settings/labels.ts";

export const routeOptions: RouteOptions = { originCheck: false, personLimit: "unsubscribe" };

interface Data {
  subject: UnsubscribeSubject | null;
  done: boolean;
}

export const handler = define.handlers<Data>({
  async GET(_req, ctx) {
    const { kv } = ctx.state.services;
    const target = await readUnsubscribeToken(kv, ctx.params.token);
    const subject = target && await unsubscribeSubject(kv, target);
    return ctx.render({ subject, done: false }, { status: subject ? 200 : 404 });
  },

  async POST(req, ctx) {
    await req.body?.cancel();
    const { kv } = ctx.state.services;
    const target = await unsubscribe(kv, ctx.params.token);
    const subject = target && await unsubscribeSubject(kv, target);
    return ctx.render({ subject, done: true }, { status: subject ? 200 : 404 });
  },
});

/** What the link turns off: each alert in words, or the setting with what it sends. */
function Subject({ subject, done }: { subject: UnsubscribeSubject; done: boolean }) {
  const { target, alerts } = subject;
  if (target.kind !== "alerts") {
    const { label, hint } = SETTING_LABELS[SETTING_OF[target.kind]];
    return (
      <p class="mt-2 text-slate-800">
        The setting <strong>{label}</strong>: {hint.charAt(0).toLowerCase() + hint.slice(1)}
      </p>
    );
  }
  if (alerts.length === 0) {
    return <p class="mt-2 text-slate-800">The search alerts of this e-mail, which have since been deleted.</p>;
  }
  return (
    <ul class="mt-2 list-disc space-y-1 pl-5 text-slate-800">
      {alerts.map((alert) => (
        <li key={alert.id}>
          The {alert.frequency} search alert <strong>{describeAlert(alert)}</strong>
          {!done && !alert.isActive && " (already off)"}
        </li>
      ))}
    </ul>
  );
}

export default define.page<Data>(function UnsubscribePage({ data: { subject, done } }) {
  const setting = subject !== null && subject.target.kind !== "alerts";
  const manage = setting ? { href: "/me/settings", name: "Settings" } : { href: "/me/alerts", name: "My alerts" };
  return (
    <section aria-labelledby="page-title" class="mx-auto max-w-xl [overflow-wrap:anywhere]">
      <PageHead title="Unsubscribe" />
      <h1 id="page-title" class="text-3xl font-bold tracking-tight text-slate-900">
        {!subject ? "This link does not work" : done ? "You are unsubscribed" : "Unsubscribe"}
      </h1>
      {!subject
        ? (
          <p class="mt-3 text-slate-700">
            It is unknown or has expired. Sign in to manage your <a href="/me/alerts" class="underline">alerts</a> and
            {" "}
            <a href="/me/settings" class="underline">e-mail settings</a>.
          </p>
        )
        : (
          <div class="mt-3 space-y-4">
            <div role={done ? "status" : undefined}>
              <p class="text-slate-700">
                {done ? "We turned off" : "This link turns off"}
                {subject.account
                  ? (
                    <>
                      {" "}e-mails to the account <strong>{subject.account}</strong> for:
                    </>
                  )
                  : ":"}
              </p>
              <Subject subject={subject} done={done} />
            </div>
            {done
              ? (
                <p class="text-slate-700">
                  You can turn {setting ? "them" : "alerts"} on again in{" "}
                  <a href={manage.href} class="underline">{manage.name}</a> after signing in.
                </p>
              )
              : (
                <form method="post">
                  <button
                    type="submit"
                    class="rounded-md bg-indigo-700 px-4 py-2 font-medium text-white hover:bg-indigo-800"
                  >
                    Turn off
                  </button>
                </form>
              )}
          </div>
        )}
    </section>
  );
});
