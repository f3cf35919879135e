/**
 * `/me/alerts`: the signed-in person's search alerts, to pause, resume, re-time, edit and delete in place
 * (docs/decisions.md, Alerts). Guests are sent to sign in and back.
 *
 * `POST /me/alerts` is "Alert me" without JavaScript (docs/decisions.md, Islands, "Forms work without JavaScript"):
 * `kind` and `from`, the list page's path and query, whose filters become a daily alert as `POST /api/me/alerts`
 * makes it; 303 to this page, which confirms it (`?created=1`), or the page again with the refusal.
 */
import { define } from "@/lib/platform/define.ts";
import { assertSignedIn } from "@/lib/http/guards.ts";
import { PageHead } from "@/components/PageHead.tsx";
import { Notice } from "@/components/forms.tsx";
import AlertsManager from "@/islands/AlertsManager.tsx";
import { type Alert, ALERT_KINDS, createAlert, listAlerts, MAX_ALERTS } from "@/lib/alerts/alerts.ts";
import { alertQuery } from "@/lib/browser/alert_query.ts";
import { DomainError, NotFoundError } from "@/lib/errors.ts";
import { errorResponse } from "@/lib/http/errors.ts";
import { readFormFields, seeOther } from "@/lib/http/form_posts.ts";
import type { RouteOptions } from "@/lib/platform/route_options.ts";

/** Writes fall under the per-person limit `alerts` (docs/decisions.md, Errors and limits, "Per-person limits"). */
export const routeOptions: RouteOptions = { personLimit: "alerts" };

interface Data {
  alerts: Alert[];
  /** Why a plain HTML "Alert me" was refused. */
  error?: string;
}

export const handler = define.handlers<Data>({
  async GET(_req, ctx) {
    assertSignedIn(ctx.state);
    return ctx.render({ alerts: await listAlerts(ctx.state.services.kv, ctx.state.user.id) });
  },
  async POST(req, ctx) {
    const { user, services: { kv } } = ctx.state;
    const { kind, from } = await readFormFields(req, ["kind", "from"]);
    if (!user) return seeOther(`/sign-in?${new URLSearchParams({ callbackURL: from.startsWith("/") ? from : "/" })}`);
    const known = ALERT_KINDS.find((k) => k === kind);
    if (!known) throw new NotFoundError("Unknown alert kind");
    const search = from.includes("?") ? from.slice(from.indexOf("?")) : "";
    try {
      await createAlert(kv, {
        userId: user.id,
        input: { kind: known, query: alertQuery(known, search), frequency: "daily" },
      });
      return seeOther("/me/alerts?created=1");
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      return ctx.render({ alerts: await listAlerts(kv, user.id), error: error.message }, {
        status: errorResponse(error).status,
      });
    }
  },
});

export default define.page<Data>(function AlertsPage({ data, url }) {
  return (
    <section aria-labelledby="page-title" class="mx-auto max-w-3xl">
      <PageHead title="My alerts" />
      <h1 id="page-title" class="text-3xl font-bold tracking-tight text-slate-900">My alerts</h1>
      <p class="mt-2 mb-6 text-slate-700">
        We e-mail you at 9 am when new listings match an alert (up to {MAX_ALERTS}{" "}
        alerts). Deadline reminders are set in <a href="/me/settings" class="text-indigo-700 underline">Settings</a>.
      </p>
      {data.error && (
        <div class="mb-6">
          <Notice kind="error" title="The alert was not saved">{data.error}</Notice>
        </div>
      )}
      {!data.error && url.searchParams.has("created") && (
        <div class="mb-6">
          <Notice kind="success">Alert saved: we will e-mail you new matches every morning.</Notice>
        </div>
      )}
      <AlertsManager alerts={data.alerts} />
    </section>
  );
});
