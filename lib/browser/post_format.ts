/**
 * Browser-safe: how a post reads on its card: its date relative to now ("3 days ago"; the exact date is
 * `formatDateTime` of `lib/dates.ts`), and its thumbnail.
 */
import type { PostView } from "@/lib/ungatekeep/schema.ts";

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ["year", 365 * 24 * 3600],
  ["month", 30 * 24 * 3600],
  ["week", 7 * 24 * 3600],
  ["day", 24 * 3600],
  ["hour", 3600],
  ["minute", 60],
];

const relative = new Intl.RelativeTimeFormat("en", { numeric: "auto" });

/** "3 days ago", "in 2 hours", "just now" for the ISO timestamp `iso` seen at `now`. */
export function relativeTime(iso: string, now = new Date()): string {
  const seconds = (new Date(iso).getTime() - now.getTime()) / 1000;
  for (const [unit, size] of UNITS) {
    if (Math.abs(seconds) >= size) return relative.format(Math.trunc(seconds / size), unit);
  }
  return "just now";
}

/** The thumbnail's source: the first image, else the link's preview image, else none. */
export function thumbnailOf(post: Pick<PostView, "images" | "linkImage">): string | null {
  return post.images.length > 0 ? `/api/files/${post.images[0]}` : post.linkImage;
}
