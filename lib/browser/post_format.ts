/**
 * Browser-safe: how a post reads on its card: its date relative to now (its unit and count, which the page words from
 * its catalogue as "3 days ago", "3 दिन पहले"; the exact date is `formatDateTime` of `lib/dates.ts`), and its
 * thumbnail.
 */
import type { PostView } from "@/lib/ungatekeep/schema.ts";

/** The units a relative date is told in, largest first. */
export const RELATIVE_UNITS = ["year", "month", "week", "day", "hour", "minute"] as const;
export type RelativeUnit = typeof RELATIVE_UNITS[number];

const SECONDS: Record<RelativeUnit, number> = {
  year: 365 * 24 * 3600,
  month: 30 * 24 * 3600,
  week: 7 * 24 * 3600,
  day: 24 * 3600,
  hour: 3600,
  minute: 60,
};

/**
 * How far the ISO timestamp `iso` is from `now`: the largest whole unit, its count, and whether it is past; null for
 * less than a minute, which the page says as "just now".
 */
export function relativeTime(
  iso: string,
  now = new Date(),
): { unit: RelativeUnit; count: number; past: boolean } | null {
  const seconds = (new Date(iso).getTime() - now.getTime()) / 1000;
  for (const unit of RELATIVE_UNITS) {
    const count = Math.trunc(Math.abs(seconds) / SECONDS[unit]);
    if (count >= 1) return { unit, count, past: seconds < 0 };
  }
  return null;
}

/** The thumbnail's source: the first image, else the link's preview image, else none. */
export function thumbnailOf(post: Pick<PostView, "images" | "linkImage">): string | null {
  return post.images.length > 0 ? `/api/files/${post.images[0]}` : post.linkImage;
}
