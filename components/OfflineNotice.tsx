/**
 * The notice on a saved copy of a page (docs/decisions.md, Installable and offline, "Service worker"): every page
 * carries it hidden; the service worker shows it, with the time the copy was saved in its `<time data-saved>`, when
 * it answers with the copy because the network did not.
 */
import { useT } from "@/lib/i18n/context.ts";

export function OfflineNotice() {
  const t = useT();
  return (
    <div
      id="offline-notice"
      hidden
      role="status"
      class="mb-6 rounded-md border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-900"
    >
      <p>
        <strong>{t("layout.offline.slow")}</strong> {t.rich("layout.offline.saved", { time: <time data-saved></time> })}
      </p>
    </div>
  );
}
