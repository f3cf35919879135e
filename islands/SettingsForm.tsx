/**
 * The notification settings of `/me/settings` (docs/decisions.md, Notifications, "Channels"): per notification type,
 * a switch for its e-mail and, when push is on, one for its push to this person's phones. It is a plain form first
 * (docs/decisions.md, Islands, "Forms work without JavaScript"): without JavaScript, "Save notifications" posts every
 * switch to `POST /me/settings`. Hydrated, the button goes and each switch is saved at once with `PATCH /api/me/settings`
 * `{channels: {<type>: {<channel>: value}}}`; the outcome is announced in a live region and a failed save turns the
 * switch back. Receipts and refunds are always e-mailed: that switch is shown on and fixed.
 */
import { useState } from "preact/hooks";
import { failureMessage, fetchJson, refusalPrefixes } from "@/lib/browser/fetch_json.ts";
import { useHydrated } from "@/lib/browser/use_hydrated.ts";
import type { Channel, Settings } from "@/lib/settings/settings.ts";
import { channelRule, NOTIFICATION_TYPES, type NotificationType } from "@/lib/notifications/types.ts";
import { type IslandText, translatorOf } from "@/lib/i18n/translator.ts";

/** The messages this island uses (its `text`). */
export const SETTINGS_FORM_TEXT = [
  "me.channels.",
  "notifications.type",
  "common.errors.",
  ...refusalPrefixes("alwaysEmailed"),
] as const;

/**
 * Props: the settings as read, whether push is configured (else only e-mail switches show), whether the page follows a
 * save of the plain form (its status says so), and its messages.
 */
export interface SettingsFormProps {
  initial: Settings;
  pushAvailable: boolean;
  saved: boolean;
  text: IslandText;
}

const BOX = "h-5 w-5 rounded border-slate-400 text-indigo-700 focus:ring-indigo-600 disabled:opacity-60";

export default function SettingsForm({ initial, pushAvailable, saved, text }: SettingsFormProps) {
  const t = translatorOf(text);
  const [channels, setChannels] = useState(initial.channels);
  const [message, setMessage] = useState(saved ? t("me.channels.allSaved") : "");
  const hydrated = useHydrated();
  const typeName = (type: NotificationType) => t.dynamic(`notifications.type.${type}`);

  const change = async (type: NotificationType, channel: keyof Channel, value: boolean) => {
    const before = channels;
    setChannels({ ...channels, [type]: { ...channels[type], [channel]: value } });
    const res = await fetchJson<{ settings: Settings }>("/api/me/settings", {
      method: "PATCH",
      body: { channels: { [type]: { [channel]: value } } },
    });
    const names = { type: typeName(type), channel: t(channel === "email" ? "me.channels.email" : "me.channels.push") };
    if (res.ok) {
      setChannels(res.data.settings.channels);
      setMessage(t("me.channels.saved", { ...names, state: value ? "on" : "off" }));
    } else {
      setChannels(before);
      setMessage(t("me.channels.notSaved", { error: failureMessage(t, res) }));
    }
  };

  return (
    <form
      method="post"
      action="/me/settings"
      onSubmit={(event) => event.preventDefault()}
      class="rounded-lg border border-slate-200 bg-white p-4 shadow-sm"
    >
      <fieldset>
        <legend class="px-1 font-semibold text-slate-900">{t("me.channels.legend")}</legend>
        <p class="text-sm text-slate-700">{t(pushAvailable ? "me.channels.introPush" : "me.channels.intro")}</p>
        <ul class="mt-4 divide-y divide-slate-200">
          {NOTIFICATION_TYPES.map((type) => {
            const always = channelRule(type).email === "always";
            const name = typeName(type);
            return (
              <li key={type} class="py-3">
                <p id={`channel-${type}`} class="font-medium text-slate-900">{name}</p>
                <p id={`channel-${type}-hint`} class="text-sm text-slate-700">
                  {t.dynamic(`notifications.typeHint.${type}`)}
                </p>
                <div class="mt-2 flex flex-wrap gap-x-6 gap-y-2">
                  <label class="flex items-center gap-2 text-sm text-slate-900">
                    <input
                      type="checkbox"
                      name={`${type}.email`}
                      checked={always || channels[type].email}
                      disabled={always}
                      aria-describedby={`channel-${type}-hint`}
                      onChange={(event) => change(type, "email", (event.target as HTMLInputElement).checked)}
                      class={BOX}
                    />
                    <span>
                      {t("me.channels.email")}
                      <span class="sr-only">: {name}</span>
                      {always && <span class="text-slate-700">{` ${t("me.channels.always")}`}</span>}
                    </span>
                  </label>
                  {pushAvailable && (
                    <label class="flex items-center gap-2 text-sm text-slate-900">
                      <input
                        type="checkbox"
                        name={`${type}.push`}
                        checked={channels[type].push}
                        onChange={(event) => change(type, "push", (event.target as HTMLInputElement).checked)}
                        class={BOX}
                      />
                      <span>
                        {t("me.channels.push")}
                        <span class="sr-only">: {name}</span>
                      </span>
                    </label>
                  )}
                </div>
              </li>
            );
          })}
        </ul>
      </fieldset>
      {/* The button's row keeps its height once hydration removes the button, so nothing below moves. */}
      <div class="mt-3 flex min-h-10 flex-wrap items-center gap-x-4 gap-y-2">
        {!hydrated && (
          <button
            type="submit"
            class="rounded-md bg-indigo-700 px-4 py-2 font-medium text-white hover:bg-indigo-800"
          >
            {t("me.channels.save")}
          </button>
        )}
        <p role="status" class="text-sm text-slate-700">{message}</p>
      </div>
    </form>
  );
}
