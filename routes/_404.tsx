/** The page for an unknown path. */
import { PageHead } from "@/components/PageHead.tsx";
import { useT } from "@/lib/i18n/context.ts";

export default function NotFound() {
  const t = useT();
  return (
    <section class="py-16 text-center">
      <PageHead title={t("layout.notFound.title")} error />
      <h1 class="text-3xl font-bold">{t("layout.notFound.title")}</h1>
      <p class="mt-3 text-slate-700">{t("layout.notFound.lead")}</p>
      <a href="/" class="mt-6 inline-block text-indigo-700 underline">{t("layout.home")}</a>
    </section>
  );
}
