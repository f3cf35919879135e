/**
 * The alerts of `/me/alerts` (docs/decisions.md, Alerts): each alert in words with its last e-mail, a pause/resume
 * switch, the frequency, its search words (and place, for internships) editable in place, and delete after a
 * confirmation. Changes go to `PATCH`/`DELETE /api/me/alerts/{id}`; outcomes are announced in a live region.
 */
import { useState } from "preact/hooks";
import { fetchJson } from "@/lib/browser/fetch_json.ts";
import { useConfirmDelete } from "@/lib/browser/use_confirm_delete.ts";
import { ConfirmDialog } from "@/components/ConfirmDialog.tsx";
import { SECONDARY_BUTTON, useHydrated } from "@/components/forms.tsx";
import { formatDateTime } from "@/lib/dates.ts";
import { describeAlert } from "@/lib/alerts/describe.ts";
import type { Alert } from "@/lib/alerts/alerts.ts";

const FIELD = "mt-1 block w-full rounded-md border border-slate-400 bg-white px-3 py-1.5 text-slate-900";

function AlertRow(
  { alert, onSaved, onDelete, hydrated }: {
    alert: Alert;
    onSaved: (alert: Alert, message: string) => void;
    onDelete: (alert: Alert) => void;
    hydrated: boolean;
  },
) {
  const [search, setSearch] = useState(String(alert.query.search ?? ""));
  const [place, setPlace] = useState(String(alert.query.location ?? ""));
  const [error, setError] = useState<string | null>(null);
  const base = `alert-${alert.id}`;
  const title = describeAlert(alert);
  const patch = async (body: Record<string, unknown>, message: string) => {
    setError(null);
    const res = await fetchJson<{ alert: Alert }>(`/api/me/alerts/${alert.id}`, { method: "PATCH", body });
    if (res.ok) onSaved(res.data.alert, message);
    else setError(res.error);
  };
  const saveFilters = (event: Event) => {
    event.preventDefault();
    const query: Record<string, string | number> = { ...alert.query, search: search.trim() };
    if (alert.kind === "internships") query.location = place.trim();
    patch({ query: Object.fromEntries(Object.entries(query).filter(([, v]) => v !== "")) }, "Filters saved.");
  };
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
              value={alert.frequency}
              disabled={!hydrated}
              onChange={(e) => patch({ frequency: (e.target as HTMLSelectElement).value }, "Frequency saved.")}
              class="mt-1 rounded-md border border-slate-400 bg-white px-2 py-1.5 text-sm"
            >
              <option value="daily">Daily</option>
              <option value="weekly">Weekly</option>
            </select>
          </div>
          <button
            type="button"
            class={SECONDARY_BUTTON}
            disabled={!hydrated}
            aria-describedby={`${base}-title`}
            onClick={() => patch({ isActive: !alert.isActive }, alert.isActive ? "Alert paused." : "Alert resumed.")}
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
      <form onSubmit={saveFilters} class="mt-3 flex flex-wrap items-end gap-3">
        <div class="min-w-40 flex-1">
          <label for={`${base}-search`} class="block text-xs font-medium text-slate-800">Search words</label>
          <input
            id={`${base}-search`}
            value={search}
            maxLength={200}
            onInput={(e) => setSearch((e.target as HTMLInputElement).value)}
            class={FIELD}
          />
        </div>
        {alert.kind === "internships" && (
          <div class="min-w-40 flex-1">
            <label for={`${base}-location`} class="block text-xs font-medium text-slate-800">Location</label>
            <input
              id={`${base}-location`}
              value={place}
              maxLength={200}
              onInput={(e) => setPlace((e.target as HTMLInputElement).value)}
              class={FIELD}
            />
          </div>
        )}
        <button type="submit" class={SECONDARY_BUTTON} disabled={!hydrated} aria-describedby={`${base}-title`}>
          Save filters
        </button>
      </form>
      {error && <p role="alert" class="mt-2 text-sm text-red-700">{error}</p>}
    </li>
  );
}

export default function AlertsManager({ alerts: initial }: { alerts: Alert[] }) {
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
