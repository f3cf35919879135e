/**
 * The body of a 403 page: signed in, but the page is for another role, or refused for a reason of `REFUSALS`
 * (`refusal`, its English sentence, worded here in the reader's language; e.g. an admin whose address is not verified).
 */
import { useT } from "@/lib/i18n/context.ts";
import { refusalText } from "@/lib/refusals.ts";
import { PageHead } from "./PageHead.tsx";

export function Forbidden({ refusal }: { refusal?: string }) {
  const t = useT();
  return (
    <section aria-labelledby="page-title" class="py-16 text-center">
      <PageHead title={t("layout.forbidden.title")} error />
      <h1 id="page-title" class="text-3xl font-bold text-slate-900">{t("layout.forbidden.heading")}</h1>
      <p class="mt-3 text-slate-700">
        {refusal ? refusalText(t, refusal) : `${t("layout.forbidden.admins")} ${t("layout.forbidden.askAdmin")}`}
      </p>
      <a href="/" class="mt-6 inline-block font-medium text-indigo-700 underline">{t("layout.home")}</a>
    </section>
  );
}
