/** Browser-safe: how a toolkit's facts read on its card and page, and how the cards' covers load. */
import type { Toolkit } from "@/lib/toolkits/schema.ts";
import type { Translate } from "@/lib/i18n/translator.ts";

/** "8 lessons · 3 hours" in `t`'s language (the duration as the admin wrote it). */
export function lessonFacts(t: Translate, toolkit: Pick<Toolkit, "lessonCount" | "totalDuration">): string {
  const lessons = t("toolkits.card.lessons", { count: toolkit.lessonCount });
  return toolkit.totalDuration ? `${lessons} · ${toolkit.totalDuration}` : lessons;
}

/**
 * How a card's cover loads: `first` (the page's largest paint: at once, before other images), `eager` (in the first
 * screen: at once) or `lazy` (further down: when scrolled near).
 */
export type CoverLoading = "first" | "eager" | "lazy";

/** The cover loading of the card at `index` of a grid whose first `firstScreen` cards show without scrolling. */
export function coverLoadingAt(index: number, firstScreen: number): CoverLoading {
  return index === 0 ? "first" : index < firstScreen ? "eager" : "lazy";
}
