/**
 * Browser-safe: the provider an island wraps its content in (docs/decisions.md, Languages, "The library"), so the
 * island, its hooks and the shared components it renders read `useT()` from the island's `text` prop.
 */
import { type ComponentChildren, h } from "preact";
import { TextContext } from "./context.ts";
import { type IslandText, translatorOf } from "./translator.ts";

/** Provides the translator of an island's `text` prop to the island's content. */
export function IslandTextProvider({ text, children }: { text: IslandText; children?: ComponentChildren }) {
  return h(TextContext.Provider, { value: translatorOf(text) }, children);
}
