/**
 * The e-mail settings of `/me/settings` (docs/decisions.md, Notifications): a switch per setting, each saved at once
 * with `PATCH /api/me/settings`; the outcome is announced in a live region and a failed save turns the switch back.
 */
import { useState } from "preact/hooks";
import { fetchJson } from "@/lib/browser/fetch_json.ts";
import { useHydrated } from "@/lib/browser/use_hydrated.ts";
import type { Settings } from "@/lib/settings/settings.ts";
import { SETTING_LABELS as LABELS } from "@/lib/settings/labels.ts";

export default function SettingsForm({ initial }: { initial: Settings }) {
  const [settings, setSettings] = useState(initial);
  const [message, setMessage] = useState("");
  const hydrated = useHydrated();

  const change = async (name: keyof Settings, value: boolean) => {
    setSettings({ ...settings, [name]: value });
    const res = await fetchJson<{ settings: Settings }>("/api/me/settings", {
      method: "PATCH",
      body: { [name]: value },
    });
    if (res.ok) {
      setSettings(res.data.settings);
      setMessage(`${LABELS[name].label}: ${value ? "on" : "off"}. Saved.`);
    } else {
      setSettings({ ...settings, [name]: !value });
      setMessage(`Not saved: ${res.error}`);
    }
  };

  return (
    <fieldset class="rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
      <legend class="px-1 font-semibold text-slate-900">E-mails</legend>
      <ul class="space-y-4">
        {(Object.keys(LABELS) as (keyof Settings)[]).map((name) => (
          <li key={name} class="flex items-start gap-3">
            <input
              id={`setting-${name}`}
              name={name}
              type="checkbox"
              checked={settings[name]}
              disabled={!hydrated}
              aria-describedby={`setting-${name}-hint`}
              onChange={(event) => change(name, (event.target as HTMLInputElement).checked)}
              class="mt-1 h-5 w-5 rounded border-slate-400 text-indigo-700 focus:ring-indigo-600"
            />
            <div>
              <label for={`setting-${name}`} class="font-medium text-slate-900">{LABELS[name].label}</label>
              <p id={`setting-${name}-hint`} class="text-sm text-slate-700">{LABELS[name].hint}</p>
            </div>
          </li>
        ))}
      </ul>
      <p role="status" class="mt-3 text-sm text-slate-700">{message}</p>
    </fieldset>
  );
}
