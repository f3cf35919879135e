/**
 * The language switch of the header (docs/decisions.md, Languages, "The switch"): a button naming the other language
 * in itself ("हिन्दी", "English") that posts to `/language` with the page's path and query, which keeps the choice
 * (cookie, and the setting of a signed-in person) and comes back to the same page and query in that language. A plain
 * form, so it works without JavaScript.
 */
import { useT } from "@/lib/i18n/context.ts";
import { LANGUAGE_NAMES } from "@/lib/i18n/languages.ts";

/** `back` is the page's path and query; `class` places the form. */
export function LanguageSwitch({ back, class: layout = "" }: { back: string; class?: string }) {
  const t = useT();
  const other = t.lang === "hi" ? "en" : "hi";
  return (
    <form method="post" action="/language" class={layout}>
      <input type="hidden" name="back" value={back} />
      <button
        type="submit"
        name="lang"
        value={other}
        class="inline-flex items-center gap-1.5 rounded-md px-2 py-1.5 text-slate-700 hover:bg-slate-100 hover:text-indigo-700"
      >
        <svg aria-hidden="true" viewBox="0 0 20 20" class="h-4 w-4 shrink-0 fill-current">
          <path d="M10 2a8 8 0 1 0 0 16 8 8 0 0 0 0-16Zm5.9 7h-2.5a12.6 12.6 0 0 0-1.2-4.8A6.1 6.1 0 0 1 15.9 9ZM10 4.1c.7.9 1.4 2.6 1.6 4.9H8.4c.2-2.3.9-4 1.6-4.9ZM7.8 4.2A12.6 12.6 0 0 0 6.6 9H4.1a6.1 6.1 0 0 1 3.7-4.8ZM4.1 11h2.5c.1 1.8.6 3.5 1.2 4.8A6.1 6.1 0 0 1 4.1 11Zm5.9 4.9c-.7-.9-1.4-2.6-1.6-4.9h3.2c-.2 2.3-.9 4-1.6 4.9Zm2.2-.1c.6-1.3 1.1-3 1.2-4.8h2.5a6.1 6.1 0 0 1-3.7 4.8Z" />
        </svg>
        <span class="sr-only">{t("layout.language.label")}:</span>
        <span lang={other}>{LANGUAGE_NAMES[other]}</span>
      </button>
    </form>
  );
}
