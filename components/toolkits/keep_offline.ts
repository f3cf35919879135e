/**
 * The props of the "Keep offline" control (`islands/KeepOffline.tsx`) for a toolkit its viewer owns: every lesson
 * they can open (docs/decisions.md, Installable and offline, "Keep offline").
 */
import type { KeepOfflineProps } from "@/islands/KeepOffline.tsx";
import type { ToolkitDetail } from "@/lib/toolkits/learning.ts";

/** The lesson pages of `detail` its viewer can open, and how many of them are videos. */
export function keepOfflineProps({ toolkit, contentItems }: ToolkitDetail): KeepOfflineProps {
  const readable = contentItems.filter((item) => item.content !== null || item.cdnVideoUrl !== null);
  return {
    toolkitId: toolkit.id,
    lessonUrls: readable.map((item) => `/toolkits/${toolkit.id}/learn/${item.id}`),
    videoLessons: readable.filter((item) => item.type === "video").length,
  };
}
