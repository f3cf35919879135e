/** `/admin/toolkits/new`: create a toolkit, then add its lessons in its editor (admins only). */
import { PageHead } from "@/components/PageHead.tsx";
import ToolkitForm from "@/islands/ToolkitForm.tsx";

export default function NewToolkitPage() {
  return (
    <section aria-labelledby="page-title" class="max-w-3xl space-y-6">
      <PageHead title="New toolkit · Admin" />
      <a href="/admin/toolkits" class="text-sm text-indigo-700 underline hover:text-indigo-900">← All toolkits</a>
      <h1 id="page-title" class="text-3xl font-bold tracking-tight text-slate-900">New toolkit</h1>
      <ToolkitForm />
    </section>
  );
}
