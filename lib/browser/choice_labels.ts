/**
 * Browser-safe: the words of the onboarding and profile choices (docs/decisions.md, Languages, "Catalogues"). A choice
 * is stored as its English value ("Data & AI"); a page shows it from the catalogue (`profile.choice.data_ai`).
 */
import type { Translate } from "@/lib/i18n/translator.ts";

/** The catalogue message of a choice value: "Data & AI" → `profile.choice.data_ai`. */
export function choiceKey(value: string): string {
  return `profile.choice.${value.toLowerCase().replace(/[^a-z0-9]+/g, "_").replace(/^_|_$/g, "")}`;
}

/** A choice's label in `t`'s language; a value without a message (stored before the list changed) as written. */
export function choiceLabel(t: Translate, value: string): string {
  const key = choiceKey(value);
  return t.has(key) ? t.dynamic(key) : value;
}
