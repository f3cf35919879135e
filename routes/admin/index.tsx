/** `/admin`: the admin area's landing page, one card per admin page. */
import { ADMIN_LINKS } from "@/components/AdminNav.tsx";
import { PageHead } from "@/components/PageHead.tsx";

export default function AdminHome() {
  return (
    <section aria-labelledby="page-title">
      <PageHead title="Admin" />
      <h1 id="page-title" class="text-3xl font-bold tracking-tight text-slate-900">Admin</h1>
      <ul class="mt-6 grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
        {ADMIN_LINKS.map((link) => (
          <li key={link.href}>
            <a
              href={link.href}
              class="block rounded-lg border border-slate-200 bg-white p-5 font-semibold text-indigo-700 shadow-sm hover:border-indigo-400"
            >
              {link.label}
            </a>
          </li>
        ))}
      </ul>
    </section>
  );
}
