/**
 * Browser-safe: how a post reads on its card: its date relative to now ("3 days ago"; the exact date is
 * `formatDateTime` of `lib/dates.ts`), and its thumbnail.
 */
import type { PostView } from "@/lib/ungatekeep/schema.ts";
import { type Lang, LOCALES } from "@/lib/i18n/languages.ts";

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ["year", 365 * 24 * 3600],
  ["month", 30 * 24 * 3600],
  ["week", 7 * 24 * 3600],
  ["day", 24 * 3600],
  ["hour", 3600],
  ["minute", 60],
];

/**
 * "3 days ago", "in 2 hours" ("3 दिन पहले", "2 घंटे में" in Hindi) for the ISO timestamp `iso` seen at `now`; null for
 * less than a minute, which the page says as "just now" from its catalogue.
 */
export function relativeTime(iso: string, now = new Date(), lang: Lang = "en"): string | null {
  const relative = new Intl.RelativeTimeFormat(LOCALES[lang], { numeric: "auto" });
  const seconds = (new Date(iso).getTime() - now.getTime()) / 1000;
  for (const [unit, size] of UNITS) {
    if (Math.abs(seconds) >= size) return relative.format(Math.trunc(seconds / size), unit);
  }
  return null;
}

/** The thumbnail's source: the first image, else the link's preview image, else none. */
export function thumbnailOf(post: Pick<PostView, "images" | "linkImage">): string | null {
  return post.images.length > 0 ? `/api/files/${post.images[0]}` : post.linkImage;
}
