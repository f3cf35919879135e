/**
 * A legal page (`/privacy`, `/terms`, `/refunds`, `/contact`): its title, the deployer's Markdown rendered and
 * sanitized (`lib/legal/pages.ts`), and on the privacy and contact pages the grievance contact (`GRIEVANCE_EMAIL`).
 */
import { PageHead } from "@/components/PageHead.tsx";
import { Notice } from "@/components/forms.tsx";
import { PostBody } from "@/components/ungatekeep/PostBody.tsx";
import type { LegalPageData } from "@/lib/http/legal_page.ts";
import { define } from "@/lib/platform/define.ts";
import { useT } from "@/lib/i18n/context.ts";

/** The grievance contact: the officer's e-mail, or a note that none is configured. */
function Grievances({ email }: { email?: string }) {
  const t = useT();
  return (
    <section id="grievances" aria-labelledby="grievances-heading" class="mt-10">
      <h2 id="grievances-heading" class="text-xl font-semibold text-slate-900">
        {t("legal.grievance.heading")}
      </h2>
      {email
        ? (
          <p class="mt-3 text-slate-800">
            {t.rich("legal.grievance.writeTo", {
              email,
              mail: (chunks) => <a href={`mailto:${email}`} class="text-indigo-700 underline">{chunks}</a>,
            })}
          </p>
        )
        : (
          <div class="mt-3">
            <Notice kind="info">{t("legal.grievance.none")}</Notice>
          </div>
        )}
    </section>
  );
}

/** The page component of every legal page. */
export const LegalPage = define.page<LegalPageData>(function LegalPage({ data }) {
  const t = useT();
  const title = t(`legal.page.${data.name}.title`);
  return (
    <article aria-labelledby="page-title" class="mx-auto max-w-3xl">
      <PageHead title={title} description={t(`legal.page.${data.name}.description`)} />
      <h1 id="page-title" class="text-3xl font-bold tracking-tight text-slate-900">{title}</h1>
      <PostBody class="mt-6" html={data.html} />
      {(data.name === "privacy" || data.name === "contact") && <Grievances email={data.grievanceEmail} />}
    </article>
  );
});
