/**
 * "Keep offline" for a toolkit its owner reads (docs/decisions.md, Installable and offline, "Keep offline"): keeps
 * every lesson page of the toolkit, with what they need to show, in the service worker's `kept` cache, so they open
 * with no network; "Remove from this phone" drops them. Shown only where service workers exist, once hydrated (it has
 * nothing to do without JavaScript). Video lessons keep their page; the video itself needs a connection. A session
 * without "Keep me signed in" keeps nothing on the phone (docs/decisions.md, Installable and offline, "A phone changing
 * hands"): it says so instead of offering the button.
 */
import { useEffect, useState } from "preact/hooks";
import { askServiceWorker, offlineSupported } from "@/lib/browser/offline.ts";
import type { OfflineLessons } from "@/lib/toolkits/offline.ts";
import { type IslandText, translatorOf } from "@/lib/i18n/translator.ts";

/** The messages this island uses (its `text`). */
export const KEEP_OFFLINE_TEXT = ["toolkits.keep."] as const;

type State = "unknown" | "kept" | "not-kept" | "working";

/**
 * Props: the toolkit's lessons to keep (`offlineLessons`), whether the viewer's session is remembered ("Keep me signed
 * in"), and the messages (`KEEP_OFFLINE_TEXT`).
 */
export interface KeepOfflineProps extends OfflineLessons {
  remembered: boolean;
  text: IslandText;
}

export default function KeepOffline({ toolkitId, lessonUrls, videoLessons, remembered, text }: KeepOfflineProps) {
  const t = translatorOf(text);
  const [supported, setSupported] = useState(false);
  const [state, setState] = useState<State>("unknown");
  const [message, setMessage] = useState("");

  useEffect(() => {
    if (!offlineSupported()) return;
    setSupported(true);
    askServiceWorker({ type: "contents" }).then((contents) => {
      const kept = contents?.kept.filter((page) => page.group === toolkitId).length ?? 0;
      setState(kept > 0 ? "kept" : "not-kept");
    });
  }, [toolkitId]);

  if (!supported || lessonUrls.length === 0) return null;

  const keep = async () => {
    setState("working");
    setMessage(t("toolkits.keep.saving"));
    const reply = await askServiceWorker({ type: "keep", group: toolkitId, urls: lessonUrls });
    if (!reply || reply.failed || reply.kept === 0) {
      setState("not-kept");
      setMessage(t("toolkits.keep.failed"));
      return;
    }
    setState("kept");
    const missed = lessonUrls.length - reply.kept;
    setMessage(
      missed > 0
        ? t("toolkits.keep.savedSome", { count: reply.kept, missed })
        : t("toolkits.keep.saved", { count: reply.kept }),
    );
  };
  const drop = async () => {
    setState("working");
    const reply = await askServiceWorker({ type: "unkeep", group: toolkitId });
    setState(reply && !reply.failed ? "not-kept" : "kept");
    setMessage(t(reply && !reply.failed ? "toolkits.keep.removed" : "toolkits.keep.removeFailed"));
  };

  return (
    <div class="space-y-2 rounded-md border border-slate-200 bg-slate-50 p-3 text-sm">
      {state === "kept"
        ? (
          <div class="flex flex-wrap items-center gap-3">
            <p class="font-medium text-slate-900">{t("toolkits.keep.kept")}</p>
            <button type="button" onClick={drop} class="text-indigo-700 underline hover:text-indigo-900">
              {t("toolkits.keep.remove")}
            </button>
          </div>
        )
        : !remembered
        ? <p class="text-slate-700">{t("toolkits.keep.notRemembered")}</p>
        : (
          <button
            type="button"
            onClick={keep}
            disabled={state !== "not-kept"}
            aria-busy={state === "working"}
            class="rounded-md border border-indigo-700 bg-white px-3 py-1.5 font-medium text-indigo-700 hover:bg-indigo-50 disabled:opacity-60"
          >
            {t(state === "working" ? "toolkits.keep.savingButton" : "toolkits.keep.button")}
          </button>
        )}
      {(remembered || state === "kept") && (
        <p class="text-slate-700">
          {t(videoLessons > 0 ? "toolkits.keep.hintVideos" : "toolkits.keep.hint")}
        </p>
      )}
      <p role="status" class="text-slate-700">{message}</p>
    </div>
  );
}
