/**
 * Previous/next links of a paged list, with an optional position text between them
 * ("11–20 of 34"), as the internship pages show them. They are plain links, so paging works
 * without JavaScript; an island may add a click handler that loads the page in place.
 * Free of server-only imports, so islands can use it; an island that renders it passes `common.pagination.` in
 * its `text`.
 */
import { useT } from "@/lib/i18n/context.ts";

/** Where a page link goes; `onClick` (islands only) replaces the full page load. */
export interface PageLink {
  href: string;
  onClick?: (event: MouseEvent) => void;
}

/** Props: the previous and next page (null when there is none), the text between them, and spacing classes. */
export interface PaginationProps {
  prev: PageLink | null;
  next: PageLink | null;
  /** Shown between the links, e.g. `pagePosition(t, …)`; nothing when omitted. */
  position?: string;
  /** Extra classes for the `<nav>`, e.g. a top margin. */
  class?: string;
}

/** The labelled `<nav>`; renders nothing when there is neither a previous nor a next page. */
export function Pagination({ prev, next, position, class: extra }: PaginationProps) {
  const t = useT();
  if (!prev && !next) return null;
  return (
    <nav
      aria-label={t("common.pagination.label")}
      class={`flex items-center justify-between gap-4 ${extra ?? ""}`}
    >
      {prev ? <PageLinkButton link={prev} rel="prev" label={t("common.pagination.previous")} /> : <span />}
      {position !== undefined && <span class="text-sm text-slate-700">{position}</span>}
      {next ? <PageLinkButton link={next} rel="next" label={t("common.pagination.next")} /> : <span />}
    </nav>
  );
}

function PageLinkButton({ link, rel, label }: { link: PageLink; rel: "prev" | "next"; label: string }) {
  return (
    <a
      href={link.href}
      rel={rel}
      onClick={link.onClick}
      class="rounded-md border border-slate-300 bg-white px-4 py-2 text-slate-800 hover:bg-slate-100"
    >
      {label}
    </a>
  );
}
