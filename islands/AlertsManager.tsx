/**
 * The alerts of `/me/alerts` (docs/decisions.md, Alerts): each alert in words with its last e-mail, a pause/resume
 * switch, the frequency, every filter it holds editable in place (search words and types; for internships also the
 * tags, location and stipend bounds), each refusal shown at its field, and delete after a confirmation. Changes go to `PATCH`/`DELETE /api/me/alerts/{id}`; outcomes
 * are announced in a live region. Before or without JavaScript each alert is a plain form posted to `/me/alerts` (`id`,
 * the filters by their controls' names, `frequency`, and `intent`: `filters`, `pause` or `resume`), and "Delete" is a
 * link to the page's own confirmation (`?delete={id}`); hydrated, the link opens the island's dialog.
 */
import { useState } from "preact/hooks";
import { failureMessage, fetchJson, refusalPrefixes } from "@/lib/browser/fetch_json.ts";
import { type AlertFilters, alertQueryOf } from "@/lib/browser/alert_query.ts";
import { DELETE_DIALOG_TEXT, useConfirmDelete } from "@/lib/browser/use_confirm_delete.ts";
import { ConfirmDialog } from "@/components/ConfirmDialog.tsx";
import { TextField } from "@/components/forms.tsx";
import { ChoiceGroup } from "@/components/ChoiceGroup.tsx";
import { ROW_INPUT, SECONDARY_BUTTON } from "@/lib/browser/styles.ts";
import { TYPE_KEYS as INTERNSHIP_TYPE_KEYS } from "@/lib/browser/internship_format.ts";
import { TYPE_KEYS as OPPORTUNITY_TYPE_KEYS } from "@/lib/browser/opportunity_format.ts";
import { describeAlert } from "@/lib/alerts/describe.ts";
import type { Alert } from "@/lib/alerts/alerts.ts";
import { useT } from "@/lib/i18n/context.ts";
import { fieldText } from "@/lib/i18n/field_text.ts";
import { IslandTextProvider } from "@/lib/i18n/island_text.ts";
import type { IslandText, Translate } from "@/lib/i18n/translator.ts";

/**
 * The messages this island uses (its `text`): its own, an alert in words, the types, the delete dialog's, refusals and
 * field sentences.
 */
export const ALERTS_MANAGER_TEXT = [
  "me.alerts.",
  "me.alertWords.",
  "internships.type.",
  "opportunities.type.",
  ...DELETE_DIALOG_TEXT,
  "common.errors.",
  "fields.",
  ...refusalPrefixes("alertNotFound", "tooManyAlerts"),
] as const;

/** `query` (an alert's stored filters) as the form's inputs; `types` holds internship types or opportunity types. */
function inputsOf(alert: Alert): AlertFilters {
  const text = (name: string) => String(alert.query[name] ?? "");
  const list = (name: string) => text(name).split(",").map((v) => v.trim()).filter(Boolean);
  return {
    types: list(alert.kind === "internships" ? "types" : "type"),
    tags: text("tags"),
    location: text("location"),
    search: text("search"),
    minStipend: text("minStipend"),
    maxStipend: text("maxStipend"),
    verifiedOnly: text("verifiedOnly") === "true",
    paidOnly: text("paidOnly") === "true",
  };
}

/** The on-or-off filters of an internship alert, as the form's choices. */
const trustChoices = (t: Translate) => [
  { value: "verifiedOnly", label: t("me.alerts.verifiedOnly") },
  { value: "paidOnly", label: t("me.alerts.paidOnly") },
];

/** The type choices of an alert of `kind`, in the order the list pages show them. */
function typeChoices(t: Translate, kind: Alert["kind"]) {
  return kind === "internships"
    ? Object.entries(INTERNSHIP_TYPE_KEYS).map(([value, key]) => ({ value, label: t(key) }))
    : Object.entries(OPPORTUNITY_TYPE_KEYS).map(([value, keys]) => ({ value, label: t(keys.one) }));
}

/** What a plain HTML submit of one alert's form that the page refused left: the filters as sent, the problems. */
export interface RefusedAlert {
  id: string;
  inputs: AlertFilters;
  error: string;
  fieldErrors: Record<string, string>;
}

function AlertRow(
  { alert, onSaved, onDelete, refused }: {
    alert: Alert;
    onSaved: (alert: Alert, message: string) => void;
    onDelete: (alert: Alert) => void;
    refused?: RefusedAlert;
  },
) {
  const t = useT();
  const [inputs, setInputs] = useState(() => refused?.inputs ?? inputsOf(alert));
  const [error, setError] = useState<string | null>(refused?.error ?? null);
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>(refused?.fieldErrors ?? {});
  const base = `alert-${alert.id}`;
  const form = `${base}-form`;
  const title = describeAlert(alert, t);
  const internships = alert.kind === "internships";
  const patch = async (body: Record<string, unknown>, message: string) => {
    setError(null);
    setFieldErrors({});
    const res = await fetchJson<{ alert: Alert }>(`/api/me/alerts/${alert.id}`, { method: "PATCH", body });
    if (res.ok) {
      onSaved(res.data.alert, message);
      return;
    }
    const byField = Object.fromEntries(
      res.fields.filter((f) => f.field.startsWith("query.")).map((f) => [f.field.slice(6), fieldText(t, f)]),
    );
    setFieldErrors(byField);
    setError(Object.keys(byField).length > 0 ? t("me.alerts.invalidFilters") : failureMessage(t, res));
  };
  const saveFilters = (event: Event) => {
    event.preventDefault();
    patch({ query: alertQueryOf(alert.kind, inputs) }, t("me.alerts.filtersSaved"));
  };
  const set = (name: Exclude<keyof AlertFilters, "types" | "verifiedOnly" | "paidOnly">) => (e: Event) =>
    setInputs({ ...inputs, [name]: (e.currentTarget as HTMLInputElement).value });
  const trust = trustChoices(t);
  const typesField = internships ? "types" : "type";
  return (
    <li class="rounded-lg border border-slate-200 bg-white p-4 shadow-sm [overflow-wrap:anywhere]">
      <div class="flex flex-wrap items-start justify-between gap-3">
        <div>
          <h2 id={`${base}-title`} class="font-semibold text-slate-900">{title}</h2>
          <p class="text-sm text-slate-700">
            {t(alert.isActive ? "me.alerts.on" : "me.alerts.paused")} ·{" "}
            {t(alert.frequency === "daily" ? "me.alerts.daily" : "me.alerts.weekly")} ·{" "}
            {alert.lastSentAt ? t("me.alerts.lastSent", { at: t.dateTime(alert.lastSentAt) }) : t("me.alerts.noneSent")}
          </p>
        </div>
        <div class="flex flex-wrap items-end gap-2">
          <div>
            <label for={`${base}-frequency`} class="block text-xs font-medium text-slate-800">
              {t("me.alerts.frequency")}
            </label>
            <select
              id={`${base}-frequency`}
              name="frequency"
              form={form}
              value={alert.frequency}
              onChange={(e) =>
                patch({ frequency: (e.target as HTMLSelectElement).value }, t("me.alerts.frequencySaved"))}
              class={`mt-1 ${ROW_INPUT}`}
            >
              <option value="daily">{t("me.alerts.daily")}</option>
              <option value="weekly">{t("me.alerts.weekly")}</option>
            </select>
          </div>
          <button
            type="submit"
            form={form}
            name="intent"
            value={alert.isActive ? "pause" : "resume"}
            class={SECONDARY_BUTTON}
            aria-describedby={`${base}-title`}
            onClick={(event) => {
              event.preventDefault();
              patch({ isActive: !alert.isActive }, t(alert.isActive ? "me.alerts.pausedNow" : "me.alerts.resumedNow"));
            }}
          >
            {t(alert.isActive ? "me.alerts.pause" : "me.alerts.resume")}
          </button>
          <a
            href={`?delete=${encodeURIComponent(alert.id)}#delete-alert`}
            class={`${SECONDARY_BUTTON} text-red-800`}
            aria-describedby={`${base}-title`}
            onClick={(event) => {
              event.preventDefault();
              onDelete(alert);
            }}
          >
            {t("common.delete")}
          </a>
        </div>
      </div>
      <form
        id={form}
        method="post"
        action="/me/alerts"
        onSubmit={saveFilters}
        class="mt-3 space-y-3"
        aria-label={t("me.alerts.filtersOf", { title })}
      >
        <input type="hidden" name="id" value={alert.id} />
        <TextField
          id={`${base}-search`}
          label={t("me.alerts.search")}
          value={inputs.search}
          maxLength={200}
          error={fieldErrors.search}
          onInput={set("search")}
        />
        <ChoiceGroup
          id={`${base}-types`}
          label={t(internships ? "me.alerts.workType" : "me.alerts.kind")}
          options={typeChoices(t, alert.kind)}
          value={inputs.types}
          multiple
          columns={internships ? 3 : 2}
          error={fieldErrors[typesField]}
          onChange={(types) => setInputs({ ...inputs, types })}
        />
        {internships && (
          <>
            <div class="grid gap-3 sm:grid-cols-2">
              <TextField
                id={`${base}-location`}
                label={t("me.alerts.location")}
                value={inputs.location}
                maxLength={200}
                error={fieldErrors.location}
                onInput={set("location")}
              />
              <TextField
                id={`${base}-tags`}
                label={t("me.alerts.tags")}
                hint={t("me.alerts.tagsHint")}
                value={inputs.tags}
                error={fieldErrors.tags}
                onInput={set("tags")}
              />
            </div>
            <div class="grid grid-cols-2 gap-3">
              <TextField
                id={`${base}-minStipend`}
                label={t("me.alerts.minStipend")}
                inputMode="numeric"
                value={inputs.minStipend}
                error={fieldErrors.minStipend}
                onInput={set("minStipend")}
              />
              <TextField
                id={`${base}-maxStipend`}
                label={t("me.alerts.maxStipend")}
                inputMode="numeric"
                value={inputs.maxStipend}
                error={fieldErrors.maxStipend}
                onInput={set("maxStipend")}
              />
            </div>
            <ChoiceGroup
              id={`${base}-trust`}
              label={t("me.alerts.trust")}
              options={trust}
              value={trust.map((choice) => choice.value).filter((name) => inputs[name as "verifiedOnly" | "paidOnly"])}
              multiple
              onChange={(on) =>
                setInputs({ ...inputs, verifiedOnly: on.includes("verifiedOnly"), paidOnly: on.includes("paidOnly") })}
            />
          </>
        )}
        <button
          type="submit"
          name="intent"
          value="filters"
          class={SECONDARY_BUTTON}
          aria-describedby={`${base}-title`}
        >
          {t("me.alerts.saveFilters")}
        </button>
      </form>
      {error && <p role="alert" class="mt-2 text-sm text-red-700">{error}</p>}
    </li>
  );
}

/**
 * Props: the person's alerts, what a refused plain submit of one of them left (if any; its sentences in the page's
 * language), and the messages (`ALERTS_MANAGER_TEXT`).
 */
export default function AlertsManager(
  { text, ...props }: { alerts: Alert[]; refused?: RefusedAlert; text: IslandText },
) {
  return (
    <IslandTextProvider text={text}>
      <Alerts {...props} />
    </IslandTextProvider>
  );
}

function Alerts({ alerts: initial, refused }: { alerts: Alert[]; refused?: RefusedAlert }) {
  const t = useT();
  const [alerts, setAlerts] = useState(initial);
  const [message, setMessage] = useState("");
  const remove = useConfirmDelete<Alert>({
    path: (alert) => `/api/me/alerts/${alert.id}`,
    deleted: (alert) => {
      setAlerts(alerts.filter((a) => a.id !== alert.id));
      setMessage(t("me.alerts.deleted"));
    },
    failed: (_alert, error) => setMessage(t("common.errors.refused", { error })),
  });
  return (
    <div>
      <p role="status" class="sr-only">{message}</p>
      {alerts.length === 0
        ? (
          <p class="rounded-lg border border-dashed border-slate-300 bg-white p-6 text-slate-700">
            {t.rich("me.alerts.empty", {
              internships: (chunks) => <a href="/internships" class="text-indigo-700 underline">{chunks}</a>,
              opportunities: (chunks) => <a href="/opportunities" class="text-indigo-700 underline">{chunks}</a>,
            })}
          </p>
        )
        : (
          <ul class="space-y-3">
            {alerts.map((alert) => (
              <AlertRow
                key={alert.id}
                alert={alert}
                refused={refused?.id === alert.id ? refused : undefined}
                onDelete={remove.ask}
                onSaved={(next, text) => {
                  setAlerts(alerts.map((a) => a.id === next.id ? next : a));
                  setMessage(text);
                }}
              />
            ))}
          </ul>
        )}
      <ConfirmDialog {...remove.dialog} title={t("me.alerts.deleteTitle")}>
        {remove.target ? t("me.alerts.deleteText", { alert: describeAlert(remove.target, t) }) : ""}
      </ConfirmDialog>
    </div>
  );
}
