/**
 * The icon of a reaction type, drawn inline as SVG in the text colour: it needs no emoji font,
 * which many phones and desktops lack. Decorative: the reaction's label gives the name.
 */
import type { ReactionType } from "@/lib/comments/limits.ts";

/** The strokes of each icon, on a 20 × 20 grid. */
const PATHS: Record<ReactionType, string[]> = {
  helpful: [
    "M6 9v8H3V9z",
    "M6 9l3-6c1.2 0 2 .9 2 2l-.5 3H16a1.5 1.5 0 0 1 1.5 1.8l-1.2 6A1.5 1.5 0 0 1 14.8 17H6",
  ],
  insightful: [
    "M10 2.5a5 5 0 0 0-3 9c.6.5 1 1.2 1 2v.5h4v-.5c0-.8.4-1.5 1-2a5 5 0 0 0-3-9z",
    "M8 16.5h4",
    "M8.8 18.5h2.4",
  ],
  celebrate: [
    "M3 17.5 7 6l7 7z",
    "M12 2.5v2.5",
    "M15 5.5l2-2",
    "M15.5 8.5h2.5",
  ],
};

/** The reaction's icon, 1 em square, hidden from assistive technology. */
export function ReactionIcon({ type }: { type: ReactionType }) {
  return (
    <svg
      aria-hidden="true"
      viewBox="0 0 20 20"
      fill="none"
      stroke="currentColor"
      stroke-width="1.6"
      stroke-linecap="round"
      stroke-linejoin="round"
      class="h-[1em] w-[1em] shrink-0"
    >
      {PATHS[type].map((d) => <path key={d} d={d} />)}
    </svg>
  );
}
