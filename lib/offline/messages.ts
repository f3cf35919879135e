/**
 * What pages ask the service worker and what it answers (docs/decisions.md, Installable and offline, "Keep offline"),
 * through `postMessage` with a reply port (`askServiceWorker` of `lib/browser/offline.ts`), what the worker tells a
 * page unasked (`WorkerNotice`), and where the offline page of each language is. Browser-safe.
 */
import { type Lang, LANG_PARAM } from "@/lib/i18n/languages.ts";

/**
 * The offline page in `lang` (`/offline?lang=hi`), as the service worker precaches and shows it (docs/decisions.md,
 * Languages, "The offline page").
 */
export function offlinePagePath(lang: Lang): string {
  return `/offline?${LANG_PARAM}=${lang}`;
}

/**
 * Keep the pages `urls` offline as the group `group` (a toolkit's id); drop a group; list what is offline; or note the
 * language a page is in (its `<html lang>`, which `lib/web/client/register_sw.ts` sends unanswered).
 */
export type OfflineRequest =
  | { type: "keep"; group: string; urls: string[] }
  | { type: "unkeep"; group: string }
  | { type: "contents" }
  | { type: "language"; lang: string };

/**
 * What the worker tells the page a form was sent from when the network failed it (`FORM_UNSENT`): the page stays, and
 * the form says no answer came, so it may or may not have been sent (`lib/web/client/busy_forms.ts`).
 */
export interface WorkerNotice {
  type: "form-unsent";
}

/** The notice of a form the network failed. */
export const FORM_UNSENT: WorkerNotice = { type: "form-unsent" };

/**
 * Whether the window at `windowUrl` is the page a form with referrer `referrer` was sent from: the same address
 * without its `#fragment`, which a window's address keeps and a referrer never carries (a page reached by
 * `/internships/mine#internship-1`).
 */
export function isFormSender(windowUrl: string, referrer: string): boolean {
  if (!referrer) return false;
  const url = new URL(windowUrl);
  url.hash = "";
  return url.href === referrer;
}

/** The answer to `keep` and `unkeep`: how many pages are now kept; `failed` when the work broke off. */
export interface KeepReply {
  kept: number;
  failed?: boolean;
}

/** A page available offline: its path, title, group (kept pages only) and when it was saved (ISO). */
export interface OfflinePage {
  url: string;
  title: string;
  group: string | null;
  savedAt: string | null;
}

/** The answer to `contents`: pages visited (newest first) and pages kept. */
export interface OfflineContents {
  pages: OfflinePage[];
  kept: OfflinePage[];
}
