/**
 * A legal page (`/privacy`, `/terms`, `/refunds`, `/contact`): its title, the deployer's Markdown rendered and
 * sanitized (`lib/legal/pages.ts`), and on the privacy and contact pages the grievance contact (`GRIEVANCE_EMAIL`).
 */
import { PageHead } from "@/components/PageHead.tsx";
import { Notice } from "@/components/forms.tsx";
import { PostBody } from "@/components/ungatekeep/PostBody.tsx";
import { LEGAL_PAGES } from "@/lib/legal/pages.ts";
import type { LegalPageData } from "@/lib/http/legal_page.ts";
import { define } from "@/lib/platform/define.ts";

/** The grievance contact: the officer's e-mail, or a note that none is configured. */
function Grievances({ email }: { email?: string }) {
  return (
    <section id="grievances" aria-labelledby="grievances-heading" class="mt-10">
      <h2 id="grievances-heading" class="text-xl font-semibold text-slate-900">Grievance officer</h2>
      {email
        ? (
          <p class="mt-3 text-slate-800">
            Write to <a href={`mailto:${email}`} class="text-indigo-700 underline">{email}</a>{" "}
            about your data, a purchase or anything else on this site. We acknowledge a grievance within 48 hours and
            resolve it within 30 days.
          </p>
        )
        : (
          <div class="mt-3">
            <Notice kind="info">The operator of this site has not published a grievance contact yet.</Notice>
          </div>
        )}
    </section>
  );
}

/** The page component of every legal page. */
export const LegalPage = define.page<LegalPageData>(function LegalPage({ data }) {
  const page = LEGAL_PAGES[data.name];
  return (
    <article aria-labelledby="page-title" class="mx-auto max-w-3xl">
      <PageHead title={page.title} description={page.description} />
      <h1 id="page-title" class="text-3xl font-bold tracking-tight text-slate-900">{page.title}</h1>
      <PostBody class="mt-6" html={data.html} />
      {(data.name === "privacy" || data.name === "contact") && <Grievances email={data.grievanceEmail} />}
    </article>
  );
});
