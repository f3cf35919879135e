/**
 * The action links the internship pages share: "Post an internship" (for those `canPost`
 * allows) and a listing's "Edit" link, whose accessible name carries the title so a list of
 * them reads as "Edit <title>" to screen readers.
 */
import { useT } from "@/lib/i18n/context.ts";

/** The "Post an internship" button-styled link to `/internships/new`. */
export function PostInternshipLink() {
  const t = useT();
  return (
    <a
      href="/internships/new"
      class="rounded-md bg-indigo-700 px-4 py-2 font-medium text-white hover:bg-indigo-800"
    >
      {t("internships.links.post")}
    </a>
  );
}

/** The "Edit" link to `/internships/{id}/edit`, named "Edit <title>" for assistive technology. */
export function EditInternshipLink({ id, title }: { id: string; title: string }) {
  const t = useT();
  return (
    <a
      href={`/internships/${id}/edit`}
      class="rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm font-medium text-slate-800 hover:bg-slate-100"
    >
      {t.rich("internships.links.edit", { title: <span class="sr-only">{` ${title} `}</span> })}
    </a>
  );
}
