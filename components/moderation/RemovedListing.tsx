/**
 * What a listing an admin took off the site shows in place of itself (410; docs/decisions.md, Trust, "Reports"): a
 * heading and a sentence saying so, and a link to the other listings of its kind.
 */
import { PageHead } from "@/components/PageHead.tsx";
import { useT } from "@/lib/i18n/context.ts";

/** The removed internship's or opportunity's page, worded from `internships.removed.*` or `opportunities.removed.*`. */
export function RemovedListing({ kind }: { kind: "internships" | "opportunities" }) {
  const t = useT();
  return (
    <section aria-labelledby="page-title" class="mx-auto max-w-2xl py-12 text-center">
      <PageHead title={t(`${kind}.removed.title`)} />
      <h1 id="page-title" class="text-3xl font-bold text-slate-900">{t(`${kind}.removed.title`)}</h1>
      <p class="mt-3 text-slate-700">{t(`${kind}.removed.text`)}</p>
      <a href={`/${kind}`} class="mt-6 inline-block font-medium text-indigo-700 underline">
        {t(`${kind}.removed.browse`)}
      </a>
    </section>
  );
}
