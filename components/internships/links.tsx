/**
 * The action links the internship pages share: "Post an internship" (for those `canPost`
 * allows) and a listing's "Edit" link, whose accessible name carries the title so a list of
 * them reads as "Edit <title>" to screen readers.
 */

/** The "Post an internship" button-styled link to `/internships/new`. */
export function PostInternshipLink() {
  return (
    <a
      href="/internships/new"
      class="rounded-md bg-indigo-700 px-4 py-2 font-medium text-white hover:bg-indigo-800"
    >
      Post an internship
    </a>
  );
}

/** The "Edit" link to `/internships/{id}/edit`, named "Edit <title>" for assistive technology. */
export function EditInternshipLink({ id, title }: { id: string; title: string }) {
  return (
    <a
      href={`/internships/${id}/edit`}
      class="rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm font-medium text-slate-800 hover:bg-slate-100"
    >
      Edit<span class="sr-only">{` ${title}`}</span>
    </a>
  );
}
