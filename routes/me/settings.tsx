/**
 * `/me/settings`: the signed-in person's notification settings, each channel of each type switched and saved in place
 * (docs/decisions.md, Notifications, "Channels"). Guests are sent to sign in and back.
 */
import { define } from "@/lib/platform/define.ts";
import { assertSignedIn } from "@/lib/http/guards.ts";
import { PageHead } from "@/components/PageHead.tsx";
import SettingsForm from "@/islands/SettingsForm.tsx";
import { getSettings, type Settings } from "@/lib/settings/settings.ts";

interface Data {
  settings: Settings;
  pushAvailable: boolean;
}

export const handler = define.handlers<Data>({
  async GET(_req, ctx) {
    assertSignedIn(ctx.state);
    const { kv, push } = ctx.state.services;
    return ctx.render({ settings: await getSettings(kv, ctx.state.user.id), pushAvailable: push !== null });
  },
});

export default define.page<Data>(function SettingsPage({ data }) {
  return (
    <section aria-labelledby="page-title" class="mx-auto max-w-2xl">
      <PageHead title="Settings" />
      <h1 id="page-title" class="text-3xl font-bold tracking-tight text-slate-900">Settings</h1>
      <p class="mt-2 mb-6 text-slate-700">
        Choose how we tell you what happened. Search alerts are turned on and off in{" "}
        <a href="/me/alerts" class="text-indigo-700 underline">My alerts</a>.
      </p>
      <SettingsForm initial={data.settings} pushAvailable={data.pushAvailable} />
    </section>
  );
});
