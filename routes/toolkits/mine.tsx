/** `/toolkits/mine`: "My toolkits", the toolkits the signed-in user bought, each with its progress and a link to resume. */
import { PageTitle } from "../../components/PageTitle.tsx";
import { assertSignedIn } from "../../lib/http/guards.ts";
import type { AppState } from "../../lib/platform/state.ts";
import { type OwnedToolkit, ownedToolkits } from "../../lib/toolkits/learning.ts";
import type { Handlers, PageProps } from "../../lib/web/types.ts";

export const handler: Handlers<OwnedToolkit[], AppState> = {
  async GET(_req, ctx) {
    assertSignedIn(ctx.state);
    return ctx.render(await ownedToolkits(ctx.state.services.kv, ctx.state.user));
  },
};

export default function MyToolkitsPage({ data: owned }: PageProps<OwnedToolkit[], AppState>) {
  return (
    <section aria-labelledby="page-title" class="space-y-6">
      <PageTitle title="My toolkits" />
      <h1 id="page-title" class="text-3xl font-bold tracking-tight text-slate-900">My toolkits</h1>
      {owned.length === 0
        ? (
          <div class="rounded-lg border border-dashed border-slate-300 bg-white p-10 text-center">
            <h2 class="text-lg font-semibold text-slate-900">You have no toolkits yet</h2>
            <p class="mt-1 text-slate-700">
              <a href="/toolkits" class="text-indigo-700 underline">Browse the toolkits</a> to start learning.
            </p>
          </div>
        )
        : (
          <ul class="grid gap-4 sm:grid-cols-2">
            {owned.map(({ toolkit, completedCount }) => {
              const percent = toolkit.lessonCount === 0 ? 0 : Math.round(completedCount / toolkit.lessonCount * 100);
              return (
                <li key={toolkit.id} class="space-y-3 rounded-lg border border-slate-200 bg-white p-5 shadow-sm">
                  <h2 class="text-lg font-semibold text-slate-900">{toolkit.title}</h2>
                  <p id={`progress-${toolkit.id}`} class="text-sm text-slate-700">
                    {`${completedCount} of ${toolkit.lessonCount} lessons complete`}
                  </p>
                  <div
                    role="progressbar"
                    aria-labelledby={`progress-${toolkit.id}`}
                    aria-valuemin={0}
                    aria-valuemax={100}
                    aria-valuenow={percent}
                    class="h-2.5 w-full overflow-hidden rounded-full bg-slate-200"
                  >
                    <div class="h-full rounded-full bg-green-700" style={{ width: `${percent}%` }} />
                  </div>
                  <a
                    href={`/toolkits/${toolkit.id}/learn`}
                    class="inline-block rounded-md bg-indigo-700 px-4 py-2 font-medium text-white hover:bg-indigo-800"
                  >
                    {completedCount > 0 ? "Resume" : "Start"}
                    <span class="sr-only">{` ${toolkit.title}`}</span>
                  </a>
                </li>
              );
            })}
          </ul>
        )}
    </section>
  );
}
