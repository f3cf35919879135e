/** Browser-safe: how a toolkit's facts read on its card and page. */
import type { Toolkit } from "@/lib/toolkits/schema.ts";

/** "8 lessons · 3 hours". */
export function lessonFacts(toolkit: Pick<Toolkit, "lessonCount" | "totalDuration">): string {
  const lessons = `${toolkit.lessonCount} ${toolkit.lessonCount === 1 ? "lesson" : "lessons"}`;
  return toolkit.totalDuration ? `${lessons} · ${toolkit.totalDuration}` : lessons;
}
