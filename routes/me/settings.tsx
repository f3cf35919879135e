/**
 * `/me/settings`: the signed-in person's notification settings, each channel of each type switched and saved in place
 * (docs/decisions.md, Notifications, "Channels"), then "Account and data": links to the profile, the data export and
 * account deletion. Guests are sent to sign in and back.
 */
import { define } from "@/lib/platform/define.ts";
import { assertSignedIn } from "@/lib/http/guards.ts";
import { PageHead } from "@/components/PageHead.tsx";
import SettingsForm from "@/islands/SettingsForm.tsx";
import { getSettings, type Settings } from "@/lib/settings/settings.ts";

/** The account's own pages and data rights, which live on the profile page (docs/decisions.md, Data rights). */
const ACCOUNT_LINKS = [
  {
    href: "/profile",
    label: "Edit your profile",
    detail: "Your name, studies, city and interests.",
    download: undefined,
  },
  {
    href: "/api/me/export",
    label: "Download your data",
    detail: "Everything we keep about you, as one JSON file.",
    download: true,
  },
  {
    href: "/profile#your-data",
    label: "Delete your account",
    detail: "On your profile page, after you confirm with your e-mail address.",
    download: undefined,
  },
];

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
      <section aria-labelledby="account-data" class="mt-10">
        <h2 id="account-data" class="text-lg font-semibold text-slate-900">Account and data</h2>
        <ul class="mt-3 divide-y divide-slate-200 rounded-lg border border-slate-200 bg-white shadow-sm">
          {ACCOUNT_LINKS.map((link) => (
            <li key={link.label} class="px-4 py-3">
              <a href={link.href} download={link.download} class="font-medium text-indigo-700 underline">
                {link.label}
              </a>
              <p class="text-sm text-slate-700">{link.detail}</p>
            </li>
          ))}
        </ul>
      </section>
    </section>
  );
});
