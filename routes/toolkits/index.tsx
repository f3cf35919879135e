/**
 * `/toolkits`: the marketplace of active toolkits, newest first, with an empty state. Server-rendered, no JavaScript.
 * The first screen's covers load at once, the first before anything else; the rest when scrolled near.
 */
import { define } from "@/lib/platform/define.ts";
import { useT } from "@/lib/i18n/context.ts";
import { PageHead } from "@/components/PageHead.tsx";
import { ToolkitCard } from "@/components/toolkits/ToolkitCard.tsx";
import { coverLoadingAt } from "@/lib/browser/toolkit_format.ts";
import { listActiveToolkits, type Toolkit } from "@/lib/toolkits/catalog.ts";

/** Cards in the first screen: the first row of the three-column grid on a wide screen (one on a phone). */
const FIRST_SCREEN_CARDS = 3;

export const handler = define.handlers<Toolkit[]>({
  async GET(_req, ctx) {
    return ctx.render(await listActiveToolkits(ctx.state.services.kv));
  },
});

export default define.page<Toolkit[]>(function ToolkitsPage({ data: toolkits, state }) {
  const t = useT();
  return (
    <section aria-labelledby="page-title" class="space-y-6">
      <PageHead title={t("toolkits.list.title")} description={t("toolkits.list.description")} />
      <div class="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 id="page-title" class="text-3xl font-bold tracking-tight text-slate-900">{t("toolkits.list.title")}</h1>
          <p class="mt-2 text-slate-700">{t("toolkits.list.lead")}</p>
        </div>
        {state.user && (
          <a href="/toolkits/mine" class="font-medium text-indigo-700 underline hover:text-indigo-900">
            {t("toolkits.list.mine")}
          </a>
        )}
      </div>
      {toolkits.length === 0
        ? (
          <div class="rounded-lg border border-dashed border-slate-300 bg-white p-10 text-center">
            <h2 class="text-lg font-semibold text-slate-900">{t("toolkits.list.none")}</h2>
            <p class="mt-1 text-slate-700">{t("toolkits.list.noneHint")}</p>
          </div>
        )
        : (
          <ul class="grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
            {toolkits.map((toolkit, index) => (
              <li key={toolkit.id}>
                <ToolkitCard toolkit={toolkit} cover={coverLoadingAt(index, FIRST_SCREEN_CARDS)} />
              </li>
            ))}
          </ul>
        )}
    </section>
  );
});
