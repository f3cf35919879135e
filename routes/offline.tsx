/**
 * `/offline`: what the service worker shows for a page it cannot fetch and never saved (docs/decisions.md, Installable
 * and offline, "Service worker"). It names what is available offline; its island lists it. Precached as a guest sees
 * it, once per language (`/offline?lang=en`, `/offline?lang=hi`), so it shows nobody's name and the worker can show it
 * in the language the visitor last read (docs/decisions.md, Languages, "The offline page"); search engines skip it.
 */
import { define } from "@/lib/platform/define.ts";
import { PageHead } from "@/components/PageHead.tsx";
import { useT } from "@/lib/i18n/context.ts";
import OfflineContents, { OFFLINE_CONTENTS_TEXT } from "@/islands/OfflineContents.tsx";

export const handler = define.handlers({
  GET: (_req, ctx) => ctx.render(undefined, { headers: { "x-robots-tag": "noindex" } }),
});

export default define.page(function OfflinePage() {
  const t = useT();
  return (
    <section aria-labelledby="page-title" class="mx-auto max-w-2xl space-y-4">
      <PageHead title={t("layout.offlinePage.title")} description={t("layout.offlinePage.description")} />
      <h1 id="page-title" class="text-3xl font-bold tracking-tight text-slate-900">{t("layout.offlinePage.title")}</h1>
      <p class="text-slate-700">{t("layout.offlinePage.lead")}</p>
      <OfflineContents text={t.island(OFFLINE_CONTENTS_TEXT)} />
    </section>
  );
});
