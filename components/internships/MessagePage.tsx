/** A short page that explains why something cannot be shown or done, with one way on. */
import type { ComponentChildren } from "preact";
import { PageHead } from "@/components/PageHead.tsx";

export function MessagePage(
  { title, children, link, error = false }: {
    title: string;
    children: ComponentChildren;
    link: { href: string; label: string };
    /** The page answers an error status: its head names no canonical URL (`PageHead`). */
    error?: boolean;
  },
) {
  return (
    <section aria-labelledby="page-title" class="mx-auto max-w-xl py-12 text-center">
      <PageHead title={title} error={error} />
      <h1 id="page-title" class="text-3xl font-bold tracking-tight text-slate-900">{title}</h1>
      <div class="mt-3 text-slate-700">{children}</div>
      <a
        href={link.href}
        class="mt-6 inline-block rounded-md bg-indigo-700 px-4 py-2 font-medium text-white hover:bg-indigo-800"
      >
        {link.label}
      </a>
    </section>
  );
}
