/**
 * `/unsubscribe/{token}`: the one-click unsubscribe link of alert and reminder e-mails, without signing in
 * (docs/decisions.md, Alerts). `GET` says what the link turns off and offers a button; it changes nothing (mail
 * scanners open links). `POST` (that button, or a mail client's RFC 8058 one-click request) turns it off. The token
 * in the path authenticates the request, so the route is exempt from the origin check. An unknown or expired token:
 * 404 with a page saying so.
 */
import { define } from "@/lib/platform/define.ts";
import type { RouteOptions } from "@/lib/platform/route_options.ts";
import { PageHead } from "@/components/PageHead.tsx";
import { readUnsubscribeToken, unsubscribe, type UnsubscribeTarget } from "@/lib/alerts/unsubscribe.ts";

export const routeOptions: RouteOptions = { originCheck: false };

interface Data {
  target: UnsubscribeTarget | null;
  done: boolean;
}

export const handler = define.handlers<Data>({
  async GET(_req, ctx) {
    const target = await readUnsubscribeToken(ctx.state.services.kv, ctx.params.token);
    return ctx.render({ target, done: false }, { status: target ? 200 : 404 });
  },

  async POST(req, ctx) {
    await req.body?.cancel();
    const target = await unsubscribe(ctx.state.services.kv, ctx.params.token);
    return ctx.render({ target, done: true }, { status: target ? 200 : 404 });
  },
});

/** What the link turns off, in words. */
function what(target: UnsubscribeTarget): string {
  if (target.kind === "reminders") return "deadline reminder e-mails";
  return target.alertIds.length === 1 ? "this search alert" : `these ${target.alertIds.length} search alerts`;
}

export default define.page<Data>(function UnsubscribePage({ data: { target, done } }) {
  return (
    <section aria-labelledby="page-title" class="mx-auto max-w-xl">
      <PageHead title="Unsubscribe" />
      <h1 id="page-title" class="text-3xl font-bold tracking-tight text-slate-900">
        {!target ? "This link does not work" : done ? "You are unsubscribed" : "Unsubscribe"}
      </h1>
      {!target
        ? (
          <p class="mt-3 text-slate-700">
            It is unknown or has expired. Sign in to manage your <a href="/me/alerts" class="underline">alerts</a> and
            {" "}
            <a href="/me/settings" class="underline">e-mail settings</a>.
          </p>
        )
        : done
        ? (
          <p role="status" class="mt-3 text-slate-700">
            We turned off {what(target)}. You can turn {target.kind === "reminders" ? "them" : "alerts"} on again in
            {" "}
            <a href={target.kind === "reminders" ? "/me/settings" : "/me/alerts"} class="underline">your account</a>.
          </p>
        )
        : (
          <form method="post" class="mt-3 space-y-4">
            <p class="text-slate-700">Stop receiving {what(target)}?</p>
            <button
              type="submit"
              class="rounded-md bg-indigo-600 px-4 py-2 font-medium text-white hover:bg-indigo-700"
            >
              Turn off
            </button>
          </form>
        )}
    </section>
  );
});
