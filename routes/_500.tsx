/** The page for an unexpected server error; it never shows error details. */
import { PageHead } from "@/components/PageHead.tsx";
import { useT } from "@/lib/i18n/context.ts";

export default function ServerError() {
  const t = useT();
  return (
    <section class="py-16 text-center">
      <PageHead title={t("layout.serverError.title")} error />
      <h1 class="text-3xl font-bold">{t("layout.serverError.title")}</h1>
      <p class="mt-3 text-slate-700">{t("layout.serverError.lead")}</p>
      <a href="/" class="mt-6 inline-block text-indigo-700 underline">{t("layout.home")}</a>
    </section>
  );
}
