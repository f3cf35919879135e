/**
 * The banner carousel at the top of the Ungatekeep feed (docs/decisions.md, Ungatekeep and banners, "Banners"),
 * following the WAI-ARIA carousel pattern: previous/next buttons and one button per slide, the arrow keys inside the
 * carousel, a pause/play button; rotation every 6 s pauses while the pointer is over it or focus is inside, and never
 * starts for a user who prefers reduced motion. Links are the banners' own (http(s) or site paths, checked on write);
 * external ones open without opener.
 */
import { useEffect, useState } from "preact/hooks";
import type { BannerSlide } from "@/lib/ungatekeep/banners.ts";
import { type IslandText, translatorOf } from "@/lib/i18n/translator.ts";

/** The messages this island uses (its `text`). */
export const BANNER_CAROUSEL_TEXT = ["ungatekeep.carousel."] as const;

const INTERVAL_MS = 6000;

/** Props: the banners in their order, and the messages (`BANNER_CAROUSEL_TEXT`). */
export interface BannerCarouselProps {
  banners: BannerSlide[];
  text: IslandText;
}

export default function BannerCarousel({ banners, text }: BannerCarouselProps) {
  const t = translatorOf(text);
  const [index, setIndex] = useState(0);
  const [hovered, setHovered] = useState(false);
  const [focused, setFocused] = useState(false);
  const [stopped, setStopped] = useState(true);
  const count = banners.length;

  useEffect(() => {
    setStopped(globalThis.matchMedia?.("(prefers-reduced-motion: reduce)").matches ?? false);
  }, []);
  const rotating = count > 1 && !stopped && !hovered && !focused;
  useEffect(() => {
    if (!rotating) return;
    const timer = setInterval(() => setIndex((i) => (i + 1) % count), INTERVAL_MS);
    return () => clearInterval(timer);
  }, [rotating, count]);

  const go = (next: number) => setIndex((next + count) % count);
  const banner = banners[index];
  const external = banner.linkUrl !== null && /^https?:/i.test(banner.linkUrl);
  const slide = (
    <div class="relative flex min-h-36 items-end overflow-hidden rounded-lg bg-indigo-900 sm:min-h-44">
      {banner.imageUrl && (
        <img src={banner.imageUrl} alt="" class="absolute inset-0 h-full w-full object-cover opacity-70" />
      )}
      <p class="relative m-4 rounded bg-slate-900/80 px-3 py-2 text-lg font-semibold text-white">{banner.title}</p>
    </div>
  );
  const button = "rounded-md border border-slate-300 bg-white px-3 py-1 text-sm text-slate-800 hover:bg-slate-100";

  return (
    <section
      aria-roledescription="carousel"
      aria-label={t("ungatekeep.carousel.label")}
      onMouseEnter={() => setHovered(true)}
      onMouseLeave={() => setHovered(false)}
      onFocusIn={() => setFocused(true)}
      onFocusOut={() => setFocused(false)}
      onKeyDown={(e) => {
        if (e.key === "ArrowRight") go(index + 1);
        else if (e.key === "ArrowLeft") go(index - 1);
      }}
    >
      <div
        role="group"
        aria-roledescription="slide"
        aria-label={t("ungatekeep.carousel.slide", { number: index + 1, count, title: banner.title })}
        aria-live={rotating ? "off" : "polite"}
      >
        {banner.linkUrl
          ? (
            <a
              href={banner.linkUrl}
              target={external ? "_blank" : undefined}
              rel={external ? "noopener noreferrer" : undefined}
              class="block focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-600 focus-visible:ring-offset-2"
            >
              {slide}
            </a>
          )
          : slide}
      </div>
      {count > 1 && (
        <div class="mt-2 flex flex-wrap items-center gap-2">
          <button type="button" class={button} onClick={() => setStopped(!stopped)}>
            {t.rich(stopped ? "ungatekeep.carousel.play" : "ungatekeep.carousel.pause", {
              sr: (chunks) => <span class="sr-only">{chunks}</span>,
            })}
          </button>
          <button type="button" class={button} onClick={() => go(index - 1)}>
            {t("ungatekeep.carousel.previous")}
          </button>
          <button type="button" class={button} onClick={() => go(index + 1)}>
            {t("ungatekeep.carousel.next")}
          </button>
          <span class="ml-auto flex gap-1">
            {banners.map((b, i) => (
              <button
                key={b.id}
                type="button"
                aria-label={t("ungatekeep.carousel.show", { number: i + 1, title: b.title })}
                aria-current={i === index ? "true" : undefined}
                onClick={() => go(i)}
                class="h-6 w-6 rounded-full border-2 border-indigo-700 aria-[current=true]:bg-indigo-700"
              />
            ))}
          </span>
        </div>
      )}
    </section>
  );
}
