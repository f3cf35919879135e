/** The page for an unexpected server error; it never shows error details. */
import { PageHead } from "@/components/PageHead.tsx";

export default function ServerError() {
  return (
    <section class="py-16 text-center">
      <PageHead title="Something went wrong" />
      <h1 class="text-3xl font-bold">Something went wrong</h1>
      <p class="mt-3 text-slate-700">We could not load this page. Please try again in a moment.</p>
      <a href="/" class="mt-6 inline-block text-indigo-700 underline">Go to the home page</a>
    </section>
  );
}
