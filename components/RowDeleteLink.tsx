/**
 * The Delete link of an admin table's row before its island hydrates (docs/decisions.md, Islands, "Forms work without
 * JavaScript"): it opens the page with its confirmation (`DeleteConfirmation`); it looks as the row's Delete button
 * (`RowDeleteButton`), apart from it so that the tables without such a link do not carry it.
 */
import { useT } from "@/lib/i18n/context.ts";

/** The Delete link of the row named `name` (accessible name "Delete {name}") to `href`. */
export function RowDeleteLink({ name, href }: { name: string; href: string }) {
  const t = useT();
  return (
    <a
      href={href}
      class="inline-block rounded-md border border-red-300 bg-white px-3 py-1 text-sm font-medium text-red-700 hover:bg-red-50"
    >
      {t.rich("common.deleteNamed", { name: () => <span class="sr-only">{` ${name} `}</span> })}
    </a>
  );
}
