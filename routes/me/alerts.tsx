/**
 * `/me/alerts`: the signed-in person's search alerts, to pause, resume, re-time, edit and delete in place
 * (docs/decisions.md, Alerts). Guests are sent to sign in and back.
 */
import { define } from "@/lib/platform/define.ts";
import { assertSignedIn } from "@/lib/http/guards.ts";
import { PageHead } from "@/components/PageHead.tsx";
import AlertsManager from "@/islands/AlertsManager.tsx";
import { type Alert, listAlerts, MAX_ALERTS } from "@/lib/alerts/alerts.ts";

export const handler = define.handlers<Alert[]>({
  async GET(_req, ctx) {
    assertSignedIn(ctx.state);
    return ctx.render(await listAlerts(ctx.state.services.kv, ctx.state.user.id));
  },
});

export default define.page<Alert[]>(function AlertsPage({ data }) {
  return (
    <section aria-labelledby="page-title" class="mx-auto max-w-3xl">
      <PageHead title="My alerts" />
      <h1 id="page-title" class="text-3xl font-bold tracking-tight text-slate-900">My alerts</h1>
      <p class="mt-2 mb-6 text-slate-700">
        We e-mail you at 9 am when new listings match an alert (up to {MAX_ALERTS}{" "}
        alerts). Deadline reminders are set in <a href="/me/settings" class="text-indigo-700 underline">Settings</a>.
      </p>
      <AlertsManager alerts={data} />
    </section>
  );
});
