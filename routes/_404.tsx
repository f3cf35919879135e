/** The page for an unknown path. */
import { PageHead } from "@/components/PageHead.tsx";

export default function NotFound() {
  return (
    <section class="py-16 text-center">
      <PageHead title="Page not found" />
      <h1 class="text-3xl font-bold">Page not found</h1>
      <p class="mt-3 text-slate-700">The page you are looking for does not exist or has moved.</p>
      <a href="/" class="mt-6 inline-block text-indigo-700 underline">Go to the home page</a>
    </section>
  );
}
