/**
 * What this device holds offline, on the offline page (docs/decisions.md, Installable and offline, "Service
 * worker"): the lessons kept offline and the pages visited, each a link with its title and when it was saved, as the
 * service worker lists them; and "Try again", which reloads the page that could not be opened.
 */
import { useEffect, useState } from "preact/hooks";
import { askServiceWorker } from "@/lib/browser/offline.ts";
import type { OfflineContents as Contents, OfflinePage } from "@/lib/offline/messages.ts";
import { type IslandText, type Translate, translatorOf } from "@/lib/i18n/translator.ts";

/** The messages this island uses (its `text`). */
export const OFFLINE_CONTENTS_TEXT = ["layout.offlinePage.list.", "common.tryAgain"] as const;

function PageList({ t, pages }: { t: Translate; pages: OfflinePage[] }) {
  return (
    <ul class="mt-2 space-y-2">
      {pages.map((page) => (
        <li key={page.url}>
          <a href={page.url} class="font-medium text-indigo-700 underline hover:text-indigo-900">
            {page.title || page.url}
          </a>
          {page.savedAt && (
            <span class="block text-sm text-slate-700">
              {t("layout.offlinePage.list.saved", { time: t.dateTime(page.savedAt) })}
            </span>
          )}
        </li>
      ))}
    </ul>
  );
}

/** Props: the messages (`OFFLINE_CONTENTS_TEXT`). */
export interface OfflineContentsProps {
  text: IslandText;
}

export default function OfflineContents({ text }: OfflineContentsProps) {
  const t = translatorOf(text);
  const [contents, setContents] = useState<Contents | null>(null);
  useEffect(() => {
    askServiceWorker({ type: "contents" }, 3000).then(setContents);
  }, []);
  const kept = contents?.kept ?? [];
  const pages = contents?.pages ?? [];
  return (
    <div class="space-y-6">
      <button
        type="button"
        onClick={() => location.reload()}
        class="rounded-md bg-indigo-700 px-4 py-2 font-medium text-white hover:bg-indigo-800"
      >
        {t("common.tryAgain")}
      </button>
      {contents && kept.length === 0 && pages.length === 0 && (
        <p class="text-slate-700">{t("layout.offlinePage.list.nothing")}</p>
      )}
      {kept.length > 0 && (
        <section aria-labelledby="kept-heading">
          <h2 id="kept-heading" class="text-lg font-semibold text-slate-900">
            {t("layout.offlinePage.list.kept")}
          </h2>
          <PageList t={t} pages={kept} />
        </section>
      )}
      {pages.length > 0 && (
        <section aria-labelledby="visited-heading">
          <h2 id="visited-heading" class="text-lg font-semibold text-slate-900">
            {t("layout.offlinePage.list.visited")}
          </h2>
          <PageList t={t} pages={pages} />
        </section>
      )}
    </div>
  );
}
