/**
 * The alerts of `/me/alerts` (docs/decisions.md, Alerts): each alert in words with its last e-mail, a pause/resume
 * switch, the frequency, every filter it holds editable in place (search words and types; for internships also the
 * tags, location and stipend bounds), each refusal shown at its field, and delete after a confirmation. Changes go to `PATCH`/`DELETE /api/me/alerts/{id}`; outcomes are announced in a live region.
 * Before or without JavaScript each alert is a plain form posted to `/me/alerts` (`id`, the filters by their controls'
 * names, `frequency`, and `intent`: `filters`, `pause` or `resume`); delete needs the script's confirmation.
 */
import { useState } from "preact/hooks";
import { fetchJson } from "@/lib/browser/fetch_json.ts";
import { type AlertFilters, alertQueryOf } from "@/lib/browser/alert_query.ts";
import { useConfirmDelete } from "@/lib/browser/use_confirm_delete.ts";
import { ConfirmDialog } from "@/components/ConfirmDialog.tsx";
import { ChoiceGroup, TextField } from "@/components/forms.tsx";
import { ROW_INPUT, SECONDARY_BUTTON } from "@/lib/browser/styles.ts";
import { useHydrated } from "@/lib/browser/use_hydrated.ts";
import { TYPE_LABELS as INTERNSHIP_TYPE_LABELS } from "@/lib/browser/internship_format.ts";
import { TYPE_LABELS as OPPORTUNITY_TYPE_LABELS } from "@/lib/browser/opportunity_format.ts";
import { formatDateTime } from "@/lib/dates.ts";
import { describeAlert } from "@/lib/alerts/describe.ts";
import type { Alert } from "@/lib/alerts/alerts.ts";

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
const TRUST_CHOICES = [{ value: "verifiedOnly", label: "Verified only" }, { value: "paidOnly", label: "Paid only" }];

/** What a plain HTML submit of one alert's form that the page refused left: the filters as sent, the problems. */
export interface RefusedAlert {
  id: string;
  inputs: AlertFilters;
  error: string;
  fieldErrors: Record<string, string>;
}

function AlertRow(
  { alert, onSaved, onDelete, hydrated, refused }: {
    alert: Alert;
    onSaved: (alert: Alert, message: string) => void;
    onDelete: (alert: Alert) => void;
    hydrated: boolean;
    refused?: RefusedAlert;
  },
) {
  const [inputs, setInputs] = useState(() => refused?.inputs ?? inputsOf(alert));
  const [error, setError] = useState<string | null>(refused?.error ?? null);
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>(refused?.fieldErrors ?? {});
  const base = `alert-${alert.id}`;
  const form = `${base}-form`;
  const title = describeAlert(alert);
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
      res.fields.filter((f) => f.field.startsWith("query.")).map((f) => [f.field.slice(6), f.message]),
    );
    setFieldErrors(byField);
    setError(Object.keys(byField).length > 0 ? "Some filters are not valid; see the fields marked." : res.error);
  };
  const saveFilters = (event: Event) => {
    event.preventDefault();
    patch({ query: alertQueryOf(alert.kind, inputs) }, "Filters saved.");
  };
  const set = (name: Exclude<keyof AlertFilters, "types" | "verifiedOnly" | "paidOnly">) => (e: Event) =>
    setInputs({ ...inputs, [name]: (e.currentTarget as HTMLInputElement).value });
  const typeChoices = Object.entries(internships ? INTERNSHIP_TYPE_LABELS : OPPORTUNITY_TYPE_LABELS)
    .map(([value, label]) => ({ value, label }));
  const typesField = internships ? "types" : "type";
  return (
    <li class="rounded-lg border border-slate-200 bg-white p-4 shadow-sm [overflow-wrap:anywhere]">
      <div class="flex flex-wrap items-start justify-between gap-3">
        <div>
          <h2 id={`${base}-title`} class="font-semibold text-slate-900">{title}</h2>
          <p class="text-sm text-slate-700">
            {alert.isActive ? "On" : "Paused"} · {alert.frequency === "daily" ? "Daily" : "Weekly"} ·{" "}
            {alert.lastSentAt ? `last e-mail ${formatDateTime(alert.lastSentAt)}` : "no e-mail yet"}
          </p>
        </div>
        <div class="flex flex-wrap items-end gap-2">
          <div>
            <label for={`${base}-frequency`} class="block text-xs font-medium text-slate-800">Frequency</label>
            <select
              id={`${base}-frequency`}
              name="frequency"
              form={form}
              value={alert.frequency}
              onChange={(e) => patch({ frequency: (e.target as HTMLSelectElement).value }, "Frequency saved.")}
              class={`mt-1 ${ROW_INPUT}`}
            >
              <option value="daily">Daily</option>
              <option value="weekly">Weekly</option>
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
              patch({ isActive: !alert.isActive }, alert.isActive ? "Alert paused." : "Alert resumed.");
            }}
          >
            {alert.isActive ? "Pause" : "Resume"}
          </button>
          <button
            type="button"
            class={`${SECONDARY_BUTTON} text-red-800`}
            disabled={!hydrated}
            aria-describedby={`${base}-title`}
            onClick={() => onDelete(alert)}
          >
            Delete
          </button>
        </div>
      </div>
      <form
        id={form}
        method="post"
        action="/me/alerts"
        onSubmit={saveFilters}
        class="mt-3 space-y-3"
        aria-label={`Filters of ${title}`}
      >
        <input type="hidden" name="id" value={alert.id} />
        <TextField
          id={`${base}-search`}
          label="Search words"
          value={inputs.search}
          maxLength={200}
          error={fieldErrors.search}
          onInput={set("search")}
        />
        <ChoiceGroup
          id={`${base}-types`}
          label={internships ? "Work type" : "Kind"}
          options={typeChoices}
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
                label="Location"
                value={inputs.location}
                maxLength={200}
                error={fieldErrors.location}
                onInput={set("location")}
              />
              <TextField
                id={`${base}-tags`}
                label="Tags"
                hint="Comma-separated, e.g. react, design"
                value={inputs.tags}
                error={fieldErrors.tags}
                onInput={set("tags")}
              />
            </div>
            <div class="grid grid-cols-2 gap-3">
              <TextField
                id={`${base}-minStipend`}
                label="Minimum stipend (₹ a month)"
                inputMode="numeric"
                value={inputs.minStipend}
                error={fieldErrors.minStipend}
                onInput={set("minStipend")}
              />
              <TextField
                id={`${base}-maxStipend`}
                label="Maximum stipend (₹ a month)"
                inputMode="numeric"
                value={inputs.maxStipend}
                error={fieldErrors.maxStipend}
                onInput={set("maxStipend")}
              />
            </div>
            <ChoiceGroup
              id={`${base}-trust`}
              label="Trust"
              options={TRUST_CHOICES}
              value={TRUST_CHOICES.map((choice) => choice.value).filter((name) =>
                inputs[name as "verifiedOnly" | "paidOnly"]
              )}
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
          Save filters
        </button>
      </form>
      {error && <p role="alert" class="mt-2 text-sm text-red-700">{error}</p>}
    </li>
  );
}

/** Props: the person's alerts, and what a refused plain submit of one of them left (if any). */
export default function AlertsManager({ alerts: initial, refused }: { alerts: Alert[]; refused?: RefusedAlert }) {
  const [alerts, setAlerts] = useState(initial);
  const [message, setMessage] = useState("");
  const hydrated = useHydrated();
  const remove = useConfirmDelete<Alert>({
    path: (alert) => `/api/me/alerts/${alert.id}`,
    deleted: (alert) => {
      setAlerts(alerts.filter((a) => a.id !== alert.id));
      setMessage("Alert deleted.");
    },
    failed: (_alert, error) => setMessage(error),
  });
  return (
    <div>
      <p role="status" class="sr-only">{message}</p>
      {alerts.length === 0
        ? (
          <p class="rounded-lg border border-dashed border-slate-300 bg-white p-6 text-slate-700">
            You have no alerts yet. Filter the <a href="/internships" class="text-indigo-700 underline">internships</a>
            {" "}
            or <a href="/opportunities" class="text-indigo-700 underline">opportunities</a>{" "}
            and choose "Alert me about new matches": we e-mail you new listings that match.
          </p>
        )
        : (
          <ul class="space-y-3">
            {alerts.map((alert) => (
              <AlertRow
                key={alert.id}
                alert={alert}
                hydrated={hydrated}
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
      <ConfirmDialog {...remove.dialog} title="Delete this alert?">
        {remove.target ? `“${describeAlert(remove.target)}” will no longer be e-mailed.` : ""}
      </ConfirmDialog>
    </div>
  );
}
