/**
 * The confirmation of a delete without JavaScript (docs/decisions.md, Islands, "Forms work without JavaScript"): a
 * page's "Delete" link (`?delete={id}`, `?deleteComment={id}`) opens the page again with this box, which names what
 * goes and holds a plain form posting `fields` (the intent and the id) to `action`, and a "Cancel" link back. Hydrated,
 * the island intercepts the link and asks in its own dialog instead.
 */
import { useT } from "@/lib/i18n/context.ts";
import { SECONDARY_BUTTON } from "@/lib/browser/styles.ts";

/**
 * Props: the box's `id` (the link's fragment), its title and sentence, its button's words (default "Yes, delete", as
 * the islands' dialogs say), the form's target and fields, and Cancel's.
 */
export interface DeleteConfirmationProps {
  id: string;
  title: string;
  text: string;
  confirm?: string;
  action: string;
  fields: Record<string, string>;
  cancelHref: string;
}

export function DeleteConfirmation(
  { id, title, text, confirm, action, fields, cancelHref }: DeleteConfirmationProps,
) {
  const t = useT();
  return (
    <section
      id={id}
      aria-labelledby={`${id}-title`}
      class="scroll-mt-20 rounded-lg border border-red-300 bg-red-50 p-4 text-slate-900"
    >
      <h2 id={`${id}-title`} class="font-semibold">{title}</h2>
      <p class="mt-1 text-slate-800">{text}</p>
      <form method="post" action={action} class="mt-3 flex flex-wrap items-center gap-3">
        {Object.entries(fields).map(([name, value]) => <input key={name} type="hidden" name={name} value={value} />)}
        <button
          type="submit"
          class="rounded-md bg-red-700 px-3 py-1.5 text-sm font-medium text-white hover:bg-red-800"
        >
          {confirm ?? t("common.yesDelete")}
        </button>
        <a href={cancelHref} class={SECONDARY_BUTTON}>{t("common.cancel")}</a>
      </form>
    </section>
  );
}
