/**
 * Browser-safe: the save button of a listing (`islands/SaveButton.tsx`) with its words in the language of what renders
 * it (a page, or the filter island's cards; docs/decisions.md, Languages, "Islands"), given as plain strings so the
 * button carries no message formatter.
 */
import SaveButton, { type SaveButtonProps } from "@/islands/SaveButton.tsx";
import { useT } from "@/lib/i18n/context.ts";
import type { MessageKey } from "@/lib/i18n/translator.ts";

/** The catalogue messages of the button's words, in the order of `SaveButtonProps.words`. */
const WORDS: MessageKey[] = [
  "internships.save.save",
  "internships.save.saved",
  "internships.save.appliedOn",
  "internships.save.notSaved",
];

/** The save button of a page or a card, in its language. */
export function SaveListing(props: Omit<SaveButtonProps, "words" | "lang">) {
  const t = useT();
  return <SaveButton {...props} words={WORDS.map((key) => t(key))} lang={t.lang} />;
}
