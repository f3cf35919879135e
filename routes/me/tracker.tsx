/**
 * `/me/tracker`: the signed-in person's application tracker, their saved internships and opportunities by status,
 * changeable in place (docs/decisions.md, Student space). Guests are sent to sign in and back.
 */
import { define } from "@/lib/platform/define.ts";
import { assertSignedIn } from "@/lib/http/guards.ts";
import { PageHead } from "@/components/PageHead.tsx";
import SavedTracker from "@/islands/SavedTracker.tsx";
import { listSaved, type SavedItem } from "@/lib/saved/saved.ts";

export const handler = define.handlers<SavedItem[]>({
  async GET(_req, ctx) {
    assertSignedIn(ctx.state);
    return ctx.render(await listSaved(ctx.state.services.kv, ctx.state.user.id, {}));
  },
});

export default define.page<SavedItem[]>(function TrackerPage({ data }) {
  return (
    <section aria-labelledby="page-title">
      <PageHead title="My applications" />
      <h1 id="page-title" class="text-3xl font-bold tracking-tight text-slate-900">My applications</h1>
      <p class="mt-2 text-slate-700">
        Everything you saved, by where your application stands. Change a status or a note and it is saved at once.
      </p>
      <div class="mt-6">
        <SavedTracker items={data} />
      </div>
    </section>
  );
});
