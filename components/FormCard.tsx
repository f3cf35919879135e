/** The narrow card that holds a single-purpose page (sign-up, sign-in, password reset): heading, lead text, body. */
import type { ComponentChildren } from "preact";

export function FormCard(
  { title, lead, children }: { title: string; lead?: ComponentChildren; children?: ComponentChildren },
) {
  return (
    <section aria-labelledby="page-title" class="mx-auto w-full max-w-md">
      <div class="rounded-lg border border-slate-200 bg-white p-6 shadow-sm sm:p-8">
        <h1 id="page-title" class="text-2xl font-bold tracking-tight text-slate-900">{title}</h1>
        {lead && <p class="mt-2 text-slate-700">{lead}</p>}
        <div class="mt-6 space-y-4">{children}</div>
      </div>
    </section>
  );
}
