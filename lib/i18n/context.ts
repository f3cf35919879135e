/**
 * Browser-safe: how components find their words (docs/decisions.md, Languages). `_app` provides the request's
 * translator to every page and component; an island provides its own, made from its `text` prop (`IslandText`), so a
 * component reads `useT()` the same way on a page and inside an island.
 */
import { type ComponentChildren, createContext, h } from "preact";
import { useContext } from "preact/hooks";
import { type IslandText, type Translate, translatorOf } from "./translator.ts";

/** The translator of what is being rendered; null outside `_app` and islands. */
export const TextContext = createContext<Translate | null>(null);

/**
 * The translator of the page or island being rendered.
 * @throws Error when nothing provides one (a component rendered outside `_app` and outside an island).
 */
export function useT(): Translate {
  const t = useContext(TextContext);
  if (!t) throw new Error("No translator: render inside _app or an island's IslandTextProvider");
  return t;
}

/** Provides the translator of an island's `text` prop to the island's content. */
export function IslandTextProvider({ text, children }: { text: IslandText; children?: ComponentChildren }) {
  return h(TextContext.Provider, { value: translatorOf(text) }, children);
}
