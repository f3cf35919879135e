/** The action links the internship pages share: "Post an internship" (for those `canPost` allows). */

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
