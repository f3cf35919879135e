/**
 * `/me/settings`: the signed-in person's language (a plain form to `POST /language`, docs/decisions.md, Languages) and
 * notification settings, each channel of each type switched and saved in place (docs/decisions.md, Notifications,
 * "Channels"), then "Account and data": links to the profile, "Your data" (`/me/data`), the data export and account deletion. Guests are sent
 * to sign in and back.
 *
 * `POST /me/settings` is the notification form without JavaScript (docs/decisions.md, Islands, "Forms work without
 * JavaScript"): a ticked box is a channel on, a box not sent is off (the push boxes only while push is configured, as
 * only then are they shown; receipts' fixed e-mail is left alone), saved with the same `updateSettings` as
 * `PATCH /api/me/settings`; then 303 to `/me/settings?saved=1`, whose form says it saved.
 */
import { define } from "@/lib/platform/define.ts";
import { assertSignedIn } from "@/lib/http/guards.ts";
import { readForm, seeOther } from "@/lib/http/form_posts.ts";
import { PageHead } from "@/components/PageHead.tsx";
import SettingsForm, { SETTINGS_FORM_TEXT } from "@/islands/SettingsForm.tsx";
import {
  type Channel,
  getSettings,
  type Settings,
  type SettingsChange,
  updateSettings,
} from "@/lib/settings/settings.ts";
import { channelRule, NOTIFICATION_TYPES, type NotificationType } from "@/lib/notifications/types.ts";
import type { RouteOptions } from "@/lib/platform/route_options.ts";
import { useT } from "@/lib/i18n/context.ts";
import type { MessageKey } from "@/lib/i18n/translator.ts";
import { LANGUAGE_NAMES, LANGUAGES } from "@/lib/i18n/languages.ts";

/** The account's own pages and data rights, which live on the profile page (docs/decisions.md, Data rights). */
const ACCOUNT_LINKS: { href: string; label: MessageKey; detail: MessageKey; download?: true }[] = [
  { href: "/profile", label: "me.settings.editProfile", detail: "me.settings.editProfileDetail" },
  { href: "/me/data", label: "me.settings.readData", detail: "me.settings.readDataDetail" },
  {
    href: "/api/me/export",
    label: "me.settings.download",
    detail: "me.settings.downloadDetail",
    download: true,
  },
  { href: "/profile#your-data", label: "me.settings.delete", detail: "me.settings.deleteDetail" },
];

/** The form's saves fall under the per-person limit `settings`, as `PATCH /api/me/settings` does. */
export const routeOptions: RouteOptions = { personLimit: "settings" };

interface Data {
  settings: Settings;
  pushAvailable: boolean;
  saved: boolean;
}

/** The channels the posted switches (`<type>.email`, `<type>.push`) set; push only when `withPush`. */
function postedChannels(form: FormData, withPush: boolean): SettingsChange["channels"] {
  const channels: Partial<Record<NotificationType, Partial<Channel>>> = {};
  for (const type of NOTIFICATION_TYPES) {
    const channel: Partial<Channel> = {};
    if (channelRule(type).email !== "always") channel.email = form.has(`${type}.email`);
    if (withPush) channel.push = form.has(`${type}.push`);
    channels[type] = channel;
  }
  return channels;
}

export const handler = define.handlers<Data>({
  async GET(req, ctx) {
    assertSignedIn(ctx.state);
    const { kv, push } = ctx.state.services;
    const saved = new URL(req.url).searchParams.get("saved") === "1";
    return ctx.render({ settings: await getSettings(kv, ctx.state.user.id), pushAvailable: push !== null, saved });
  },

  async POST(req, ctx) {
    assertSignedIn(ctx.state);
    const { kv, push } = ctx.state.services;
    const channels = postedChannels(await readForm(req), push !== null);
    await updateSettings(kv, ctx.state.user.id, { channels });
    return seeOther("/me/settings?saved=1");
  },
});

export default define.page<Data>(function SettingsPage({ data }) {
  const t = useT();
  return (
    <section aria-labelledby="page-title" class="mx-auto max-w-2xl">
      <PageHead title={t("me.settings.title")} />
      <h1 id="page-title" class="text-3xl font-bold tracking-tight text-slate-900">{t("me.settings.title")}</h1>
      <p class="mt-2 mb-6 text-slate-700">
        {t.rich("me.settings.lead", {
          alerts: (chunks) => <a href="/me/alerts" class="text-indigo-700 underline">{chunks}</a>,
        })}
      </p>
      <form method="post" action="/language" class="mb-6 rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
        <input type="hidden" name="back" value="/me/settings" />
        <fieldset>
          <legend class="px-1 font-semibold text-slate-900">{t("me.settings.language")}</legend>
          <p id="language-hint" class="text-sm text-slate-700">{t("me.settings.languageHint")}</p>
          <div class="mt-3 flex flex-wrap gap-x-6 gap-y-2">
            {LANGUAGES.map((lang) => (
              <label key={lang} class="flex items-center gap-2 text-slate-900">
                <input
                  type="radio"
                  name="lang"
                  value={lang}
                  checked={data.settings.language === lang}
                  aria-describedby="language-hint"
                  class="h-4 w-4 accent-indigo-700"
                />
                <span lang={lang}>{LANGUAGE_NAMES[lang]}</span>
              </label>
            ))}
          </div>
        </fieldset>
        <button
          type="submit"
          class="mt-3 rounded-md bg-indigo-700 px-4 py-2 font-medium text-white hover:bg-indigo-800"
        >
          {t("me.settings.saveLanguage")}
        </button>
      </form>
      <SettingsForm
        initial={data.settings}
        pushAvailable={data.pushAvailable}
        saved={data.saved}
        text={t.island(SETTINGS_FORM_TEXT)}
      />
      <section aria-labelledby="account-data" class="mt-10">
        <h2 id="account-data" class="text-lg font-semibold text-slate-900">{t("me.settings.account")}</h2>
        <ul class="mt-3 divide-y divide-slate-200 rounded-lg border border-slate-200 bg-white shadow-sm">
          {ACCOUNT_LINKS.map((link) => (
            <li key={link.href} class="px-4 py-3">
              <a href={link.href} download={link.download} class="font-medium text-indigo-700 underline">
                {t(link.label)}
              </a>
              <p class="text-sm text-slate-700">{t(link.detail)}</p>
            </li>
          ))}
        </ul>
      </section>
    </section>
  );
});
