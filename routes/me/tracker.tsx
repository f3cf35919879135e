/**
 * `/me/tracker`: the signed-in person's application tracker: the applications they sent here, with every change and
 * the organization's messages (withdraw and stipend report as plain forms; docs/decisions.md, Applications, "The
 * tracker follows"), then their saved internships and opportunities by status, changeable in place
 * (docs/decisions.md, Student space). Guests are sent to sign in and back.
 */
import { define } from "@/lib/platform/define.ts";
import { assertSignedIn } from "@/lib/http/guards.ts";
import { PageHead } from "@/components/PageHead.tsx";
import SavedTracker from "@/islands/SavedTracker.tsx";
import { MyApplications } from "@/components/applications/MyApplications.tsx";
import { listSaved, type SavedItem } from "@/lib/saved/saved.ts";
import { type MyApplication, myApplications } from "@/lib/applications/applications.ts";

/** The applications sent here, the saved items, and the time the page was made (ms). */
interface Data {
  applications: MyApplication[];
  items: SavedItem[];
  now: number;
}

export const handler = define.handlers<Data>({
  async GET(_req, ctx) {
    assertSignedIn(ctx.state);
    const { kv } = ctx.state.services;
    const [applications, items] = await Promise.all([
      myApplications(kv, { userId: ctx.state.user.id }),
      listSaved(kv, ctx.state.user.id, {}),
    ]);
    return ctx.render({ applications, items, now: Date.now() });
  },
});

export default define.page<Data>(function TrackerPage({ data, url }) {
  return (
    <section aria-labelledby="page-title">
      <PageHead title="My applications" />
      <h1 id="page-title" class="text-3xl font-bold tracking-tight text-slate-900">My applications</h1>
      <p class="mt-2 text-slate-700">
        The applications you sent here, with every answer from the organizations; then everything you saved, by where
        your application stands.
      </p>
      <MyApplications applications={data.applications} now={data.now} changed={url.searchParams.get("changed")} />
      <h2 class="mt-8 text-xl font-semibold text-slate-900">Saved</h2>
      <p class="mt-1 text-sm text-slate-700">Change a status or a note and it is saved at once.</p>
      <div class="mt-4">
        <SavedTracker items={data.items} />
      </div>
    </section>
  );
});
