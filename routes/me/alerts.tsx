/**
 * `/me/alerts`: the signed-in person's search alerts, to pause, resume, re-time, edit and delete in place
 * (docs/decisions.md, Alerts). Guests are sent to sign in and back.
 *
 * `POST /me/alerts` is "Alert me" without JavaScript (docs/decisions.md, Islands, "Forms work without JavaScript"):
 * `kind` and `from`, the list page's path and query, whose filters become a daily alert as `POST /api/me/alerts`
 * makes it; 303 to this page, which confirms it (`?created=1`), or the page again with the refusal. With `intent` it
 * is an alert's own form without JavaScript: `filters` saves the filters (by the form's control names) and the
 * frequency, `pause` and `resume` turn it off and on, as `PATCH /api/me/alerts/{id}` does; 303 to this page
 * (`?saved=1`), or the page again (400) with the filters as sent and each problem at its field; `delete` deletes it
 * as `DELETE /api/me/alerts/{id}` does, 303 to `?deleted=1`. Another person's alert is 404. Without JavaScript an
 * alert's "Delete" is a link to `?delete={id}`, this page with a confirmation naming that alert.
 */
import { define } from "@/lib/platform/define.ts";
import { assertSignedIn } from "@/lib/http/guards.ts";
import { PageHead } from "@/components/PageHead.tsx";
import { Notice } from "@/components/forms.tsx";
import { DeleteConfirmation } from "@/components/DeleteConfirmation.tsx";
import AlertsManager, { ALERTS_MANAGER_TEXT, type RefusedAlert } from "@/islands/AlertsManager.tsx";
import {
  type Alert,
  ALERT_FREQUENCIES,
  ALERT_KINDS,
  type AlertPatch,
  createAlert,
  deleteAlert,
  listAlerts,
  MAX_ALERTS,
  TOO_MANY_ALERTS,
  updateAlert,
} from "@/lib/alerts/alerts.ts";
import { type AlertFilters, alertQuery, alertQueryOf } from "@/lib/browser/alert_query.ts";
import { describeAlert } from "@/lib/alerts/describe.ts";
import { DomainError, InvalidInputError, NotFoundError, ValidationError } from "@/lib/errors.ts";
import { errorResponse } from "@/lib/http/errors.ts";
import { formFields, readForm, seeOther } from "@/lib/http/form_posts.ts";
import { fieldProblems } from "@/lib/field_messages.ts";
import { fieldText } from "@/lib/i18n/field_text.ts";
import { useT } from "@/lib/i18n/context.ts";
import type { RouteOptions } from "@/lib/platform/route_options.ts";
import { REFUSALS } from "@/lib/refusals.ts";

/** Writes fall under the per-person limit `alerts` (docs/decisions.md, Errors and limits, "Per-person limits"). */
export const routeOptions: RouteOptions = { personLimit: "alerts" };

interface Data {
  alerts: Alert[];
  /** Why a plain HTML "Alert me" was refused, in the page's language. */
  error?: string;
  /** What a refused plain submit of an alert's own form left. */
  refused?: RefusedAlert;
  /** The alert whose "Delete" link was followed (`?delete={id}`), to confirm without JavaScript. */
  doomed?: Alert;
}

/** The filters of alert `id`'s form as sent, read by the names of its controls (`alert-{id}-search`, ...). */
function postedFilters(form: FormData, id: string): AlertFilters {
  const base = `alert-${id}`;
  const text = formFields(form, [
    `${base}-search`,
    `${base}-tags`,
    `${base}-location`,
    `${base}-minStipend`,
    `${base}-maxStipend`,
  ]);
  const trust = form.getAll(`${base}-trust`);
  return {
    search: text[`${base}-search`],
    types: form.getAll(`${base}-types`).filter((v): v is string => typeof v === "string"),
    tags: text[`${base}-tags`],
    location: text[`${base}-location`],
    minStipend: text[`${base}-minStipend`],
    maxStipend: text[`${base}-maxStipend`],
    verifiedOnly: trust.includes("verifiedOnly"),
    paidOnly: trust.includes("paidOnly"),
  };
}

/**
 * The change an alert's own form asks for: its filters and frequency (`filters`), or pause and resume.
 * @throws InvalidInputError for another intent.
 */
function patchOf(alert: Alert, form: FormData, intent: string): AlertPatch {
  if (intent === "pause" || intent === "resume") return { isActive: intent === "resume" };
  if (intent !== "filters") throw new InvalidInputError("Unknown intent");
  const frequency = ALERT_FREQUENCIES.find((f) => f === form.get("frequency"));
  return { query: alertQueryOf(alert.kind, postedFilters(form, alert.id)), ...frequency ? { frequency } : {} };
}

export const handler = define.handlers<Data>({
  async GET(_req, ctx) {
    assertSignedIn(ctx.state);
    const alerts = await listAlerts(ctx.state.services.kv, ctx.state.user.id);
    const doomed = alerts.find((a) => a.id === ctx.url.searchParams.get("delete"));
    return ctx.render({ alerts, doomed });
  },
  async POST(req, ctx) {
    const { user, services: { kv } } = ctx.state;
    const form = await readForm(req);
    const { kind, from, intent } = formFields(form, ["kind", "from", "intent"]);
    if (intent) {
      assertSignedIn(ctx.state);
      const alert = (await listAlerts(kv, ctx.state.user.id)).find((a) => a.id === form.get("id"));
      if (!alert) throw new NotFoundError(REFUSALS.alertNotFound);
      if (intent === "delete") {
        await deleteAlert(kv, ctx.state.user.id, alert.id);
        return seeOther("/me/alerts?deleted=1");
      }
      try {
        await updateAlert(kv, { userId: ctx.state.user.id, id: alert.id, patch: patchOf(alert, form, intent) });
        return seeOther("/me/alerts?saved=1");
      } catch (error) {
        if (!(error instanceof ValidationError)) throw error;
        const fieldErrors = Object.fromEntries(
          fieldProblems(error.issues).filter((p) => p.field.startsWith("query."))
            .map((p) => [p.field.slice("query.".length), fieldText(ctx.state.t, p)]),
        );
        const error400 = ctx.state.t("me.alerts.invalidFilters");
        const refused = { id: alert.id, inputs: postedFilters(form, alert.id), fieldErrors, error: error400 };
        return ctx.render({ alerts: await listAlerts(kv, ctx.state.user.id), refused }, { status: 400 });
      }
    }
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
      const { t } = ctx.state;
      const words = error.message === TOO_MANY_ALERTS
        ? t("me.alertsPage.tooMany", { max: MAX_ALERTS })
        : t("common.errors.refused", { error: error.message });
      return ctx.render({ alerts: await listAlerts(kv, user.id), error: words }, {
        status: errorResponse(error).status,
      });
    }
  },
});

export default define.page<Data>(function AlertsPage({ data, url }) {
  const t = useT();
  return (
    <section aria-labelledby="page-title" class="mx-auto max-w-3xl">
      <PageHead title={t("me.alertsPage.title")} />
      <h1 id="page-title" class="text-3xl font-bold tracking-tight text-slate-900">{t("me.alertsPage.title")}</h1>
      <p class="mt-2 mb-6 text-slate-700">
        {t.rich("me.alertsPage.lead", {
          max: MAX_ALERTS,
          settings: (chunks) => <a href="/me/settings" class="text-indigo-700 underline">{chunks}</a>,
        })}
      </p>
      {data.error && (
        <div class="mb-6">
          <Notice kind="error" title={t("me.alertsPage.notSaved")}>{data.error}</Notice>
        </div>
      )}
      {!data.error && url.searchParams.has("created") && (
        <div class="mb-6">
          <Notice kind="success">{t("me.alertMe.saved")}</Notice>
        </div>
      )}
      {!data.refused && url.searchParams.has("saved") && (
        <div class="mb-6">
          <Notice kind="success">{t("me.alertsPage.saved")}</Notice>
        </div>
      )}
      {!data.doomed && url.searchParams.has("deleted") && (
        <div class="mb-6">
          <Notice kind="success">{t("me.alerts.deleted")}</Notice>
        </div>
      )}
      {data.doomed && (
        <div class="mb-6">
          <DeleteConfirmation
            id="delete-alert"
            title={t("me.alerts.deleteTitle")}
            text={t("me.alerts.deleteText", { alert: describeAlert(data.doomed, t) })}
            action="/me/alerts"
            fields={{ intent: "delete", id: data.doomed.id }}
            cancelHref="/me/alerts"
          />
        </div>
      )}
      <AlertsManager alerts={data.alerts} refused={data.refused} text={t.island(ALERTS_MANAGER_TEXT)} />
    </section>
  );
});
