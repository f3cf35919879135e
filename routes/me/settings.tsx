/**
 * `/me/settings`: the signed-in person's e-mail settings, each switched and saved in place (docs/decisions.md,
 * Notifications). Guests are sent to sign in and back.
 */
import { define } from "@/lib/platform/define.ts";
import { assertSignedIn } from "@/lib/http/guards.ts";
import { PageHead } from "@/components/PageHead.tsx";
import SettingsForm from "@/islands/SettingsForm.tsx";
import { getSettings, type Settings } from "@/lib/settings/settings.ts";

export const handler = define.handlers<Settings>({
  async GET(_req, ctx) {
    assertSignedIn(ctx.state);
    return ctx.render(await getSettings(ctx.state.services.kv, ctx.state.user.id));
  },
});

export default define.page<Settings>(function SettingsPage({ data }) {
  return (
    <section aria-labelledby="page-title" class="mx-auto max-w-2xl">
      <PageHead title="Settings" />
      <h1 id="page-title" class="text-3xl font-bold tracking-tight text-slate-900">Settings</h1>
      <p class="mt-2 mb-6 text-slate-700">
        Choose which e-mails we send you. Search alerts are turned on and off in{" "}
        <a href="/me/alerts" class="text-indigo-700 underline">My alerts</a>.
      </p>
      <SettingsForm initial={data} />
    </section>
  );
});
