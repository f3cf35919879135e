/**
 * Browser-safe: how components find their words (docs/decisions.md, Languages). `_app` provides the request's
 * translator to every page and component; an island provides its own, made from its `text` prop (`IslandTextProvider`,
 * `lib/i18n/island_text.ts`), so a component reads `useT()` the same way on a page and inside an island. Imports the
 * translator's types only.
 */
import { createContext } from "preact";
import { useContext } from "preact/hooks";
import type { Translate } from "./translator.ts";

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
