/**
 * "Keep offline" for a toolkit its owner reads (docs/decisions.md, Installable and offline, "Keep offline"): keeps
 * every lesson page of the toolkit, with what they need to show, in the service worker's `kept` cache, so they open
 * with no network; "Remove from this phone" drops them. Shown only where service workers exist, once hydrated (it has
 * nothing to do without JavaScript). Video lessons keep their page; the video itself needs a connection.
 */
import { useEffect, useState } from "preact/hooks";
import { askServiceWorker, offlineSupported } from "@/lib/browser/offline.ts";
import type { OfflineLessons } from "@/lib/toolkits/offline.ts";

type State = "unknown" | "kept" | "not-kept" | "working";

export default function KeepOffline({ toolkitId, lessonUrls, videoLessons }: OfflineLessons) {
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
    setMessage("Saving the lessons on this device…");
    const reply = await askServiceWorker({ type: "keep", group: toolkitId, urls: lessonUrls });
    if (!reply || reply.failed || reply.kept === 0) {
      setState("not-kept");
      setMessage("Could not save the lessons. Check your connection and try again.");
      return;
    }
    setState("kept");
    const missed = lessonUrls.length - reply.kept;
    setMessage(
      `${reply.kept} ${reply.kept === 1 ? "lesson" : "lessons"} saved on this device` +
        (missed > 0 ? `; ${missed} could not be saved.` : ". They open without a connection."),
    );
  };
  const drop = async () => {
    setState("working");
    const reply = await askServiceWorker({ type: "unkeep", group: toolkitId });
    setState(reply && !reply.failed ? "not-kept" : "kept");
    setMessage(reply && !reply.failed ? "Removed from this device." : "Could not remove the lessons; try again.");
  };

  return (
    <div class="space-y-2 rounded-md border border-slate-200 bg-slate-50 p-3 text-sm">
      {state === "kept"
        ? (
          <div class="flex flex-wrap items-center gap-3">
            <p class="font-medium text-slate-900">Kept offline on this device</p>
            <button type="button" onClick={drop} class="text-indigo-700 underline hover:text-indigo-900">
              Remove from this device
            </button>
          </div>
        )
        : (
          <button
            type="button"
            onClick={keep}
            disabled={state !== "not-kept"}
            aria-busy={state === "working"}
            class="rounded-md border border-indigo-700 bg-white px-3 py-1.5 font-medium text-indigo-700 hover:bg-indigo-50 disabled:opacity-60"
          >
            {state === "working" ? "Saving…" : "Keep offline"}
          </button>
        )}
      <p class="text-slate-700">
        {videoLessons > 0
          ? "Read the lessons without a connection. Videos still need one."
          : "Read the lessons without a connection."}
      </p>
      <p role="status" class="text-slate-700">{message}</p>
    </div>
  );
}
