/**
 * Browser-only, loaded on demand by the filter island (`islands/InternshipFilters.tsx`): renders the results it loaded
 * into `#internship-results` (`InternshipResults`, in the island's language), so the island itself hydrates without
 * the cards, the page links and their formatting (docs/decisions.md, Islands, "Hydration kept cheap").
 */
import { h, render } from "preact";
import { InternshipResults, type InternshipResultsProps } from "@/components/internships/InternshipResults.tsx";
import { IslandTextProvider } from "@/lib/i18n/island_text.ts";
import type { IslandText } from "@/lib/i18n/translator.ts";

/** The sections rendered here at least once (their server-rendered content replaced). */
const rendered = new WeakSet<HTMLElement>();

/**
 * Renders `props` into `section` in the language of `text`. The first time, the server-rendered content (and the
 * islands in it) is replaced whole; the control that had the focus in it (by id, e.g. the order menu) keeps it.
 */
export function showResults(section: HTMLElement, props: InternshipResultsProps, text: IslandText): void {
  const focused = section.contains(document.activeElement) ? document.activeElement?.id : undefined;
  if (!rendered.has(section)) {
    section.textContent = "";
    rendered.add(section);
  }
  render(h(IslandTextProvider, { text }, h(InternshipResults, props)), section);
  if (focused) document.getElementById(focused)?.focus();
}
