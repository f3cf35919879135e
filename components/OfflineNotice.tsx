/**
 * The notices of a page without a connection (docs/decisions.md, Installable and offline): `OfflineNotice` is on a
 * saved copy of a page: every page carries it hidden; the service worker shows it, with the time the copy was saved in
 * its `<time data-saved>`, when it answers with the copy because the network did not. `OfflineUnsentNotice` holds the
 * sentences a plain form shows by its button (`lib/web/client/busy_forms.ts`), each kept in a `<template>` until then
 * (its `role="alert"` is set as it shows, so a page without it has no alert): "nothing was sent" when the page itself
 * held back a form sent with no connection, and "this may or may not have been sent" when the network failed a form
 * the page let go (the service worker cannot tell whether the server took it before the connection dropped).
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

/** The ids of `OfflineUnsentNotice`'s `<template>`s, which `busy_forms.ts` copies from. */
const OFFLINE_UNSENT_ID = "offline-unsent";
const OFFLINE_UNANSWERED_ID = "offline-unanswered";

const UNSENT_CLASS = "mt-3 w-full rounded-md border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-900";

export function OfflineUnsentNotice() {
  const t = useT();
  return (
    <>
      <template id={OFFLINE_UNSENT_ID}>
        <p data-offline-unsent class={UNSENT_CLASS}>{t("layout.offline.unsent")}</p>
      </template>
      <template id={OFFLINE_UNANSWERED_ID}>
        <p data-offline-unsent class={UNSENT_CLASS}>{t("layout.offline.unanswered")}</p>
      </template>
    </>
  );
}
