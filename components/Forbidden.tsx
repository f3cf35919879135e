/** The body of a 403 page: signed in, but the page is for another role. */
import { PageHead } from "./PageHead.tsx";

export function Forbidden({ what = "This area is for administrators." }: { what?: string }) {
  return (
    <section aria-labelledby="page-title" class="py-16 text-center">
      <PageHead title="Access denied" />
      <h1 id="page-title" class="text-3xl font-bold text-slate-900">You do not have access to this page</h1>
      <p class="mt-3 text-slate-700">{what} If you think you should have access, ask an administrator.</p>
      <a href="/" class="mt-6 inline-block font-medium text-indigo-700 underline">Go to the home page</a>
    </section>
  );
}
