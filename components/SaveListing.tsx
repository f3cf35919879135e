/**
 * Browser-safe: the save button of a listing (`islands/SaveButton.tsx`) with its words in the language of what renders
 * it (a page, or the filter island's cards; docs/decisions.md, Languages, "Islands"), given as plain strings so the
 * button carries no message formatter.
 */
import SaveButton, { type SaveButtonProps } from "@/islands/SaveButton.tsx";
import { useT } from "@/lib/i18n/context.ts";
import type { MessageKey, Translate } from "@/lib/i18n/translator.ts";

/**
 * The catalogue messages of the button's words, in the order of `SaveButtonProps.words`: its own, and the platform's
 * refusals it meets (a write lost to busy writers, the per-person limit). The last, the limit's with when to try again,
 * keeps its `{when}` for the button to fill (`WHEN`).
 */
const WORDS: MessageKey[] = [
  "internships.save.save",
  "internships.save.saved",
  "internships.save.appliedOn",
  "internships.save.notSaved",
  "common.refusal.tooManySaved",
  "internships.save.gone",
  "common.errors.busy",
  "common.errors.tooMany",
  "internships.save.wait",
];

/** The placeholder of the last word, left in it for the button (which has no message formatter). */
const WHEN = { when: "{when}" };

/**
 * The words of each translator, frozen: a list page renders a button per card, and the island props serializer encodes
 * a frozen array once.
 */
const wordsOf = new WeakMap<Translate, readonly string[]>();

/** The save button of a page or a card, in its language. */
export function SaveListing(props: Omit<SaveButtonProps, "words" | "lang">) {
  const t = useT();
  let words = wordsOf.get(t);
  if (!words) wordsOf.set(t, words = Object.freeze(WORDS.map((key) => t(key, WHEN))));
  return <SaveButton {...props} words={words} lang={t.lang} />;
}
