/**
 * `/admin/banners`: the banners manager of the feed's carousel (admins only). docs/decisions.md,
 * Ungatekeep and banners, "Banners".
 */
import { define } from "@/lib/platform/define.ts";
import { PageHead } from "@/components/PageHead.tsx";
import BannerManager, { BANNER_MANAGER_TEXT, type BannerRow } from "@/islands/BannerManager.tsx";
import { listBanners } from "@/lib/ungatekeep/banners.ts";
import { useT } from "@/lib/i18n/context.ts";

export const handler = define.handlers<BannerRow[]>({
  async GET(_req, ctx) {
    const banners = await listBanners(ctx.state.services.kv, false);
    return ctx.render(banners.map(({ id, title, imageId, linkUrl, isActive, orderIndex }) => ({
      id,
      title,
      imageId,
      linkUrl,
      isActive,
      orderIndex,
    })));
  },
});

export default define.page<BannerRow[]>(function AdminBannersPage({ data }) {
  const t = useT();
  return (
    <section aria-labelledby="page-title" class="space-y-6">
      <PageHead title={t("admin.pageTitle", { page: t("admin.nav.banners") })} />
      <div>
        <h1 id="page-title" class="text-3xl font-bold tracking-tight text-slate-900">{t("admin.nav.banners")}</h1>
        <p class="mt-2 text-slate-700">{t("admin.banners.lead")}</p>
      </div>
      <BannerManager initial={data} text={t.island(BANNER_MANAGER_TEXT)} />
    </section>
  );
});
