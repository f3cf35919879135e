/**
 * What a toolkit's owner can keep offline (docs/decisions.md, Installable and offline, "Keep offline"): every lesson
 * page they can open, as the props of the "Keep offline" control (`islands/KeepOffline.tsx`).
 */
import type { ToolkitDetail } from "./learning.ts";

/** The toolkit (the group its lessons are kept as), the lesson pages to keep, and how many of them are videos. */
export interface OfflineLessons {
  toolkitId: string;
  lessonUrls: string[];
  videoLessons: number;
}

/** The lesson pages of `detail` its viewer can open, and how many of them are videos. */
export function offlineLessons({ toolkit, contentItems }: ToolkitDetail): OfflineLessons {
  const readable = contentItems.filter((item) => item.content !== null || item.cdnVideoUrl !== null);
  return {
    toolkitId: toolkit.id,
    lessonUrls: readable.map((item) => `/toolkits/${toolkit.id}/learn/${item.id}`),
    videoLessons: readable.filter((item) => item.type === "video").length,
  };
}
