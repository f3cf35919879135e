/**
 * `/admin/banners`: the banners manager of the feed's carousel (admins only). docs/decisions.md,
 * Ungatekeep and banners, "Banners".
 */
import { define } from "@/lib/platform/define.ts";
import { PageHead } from "@/components/PageHead.tsx";
import BannerManager, { type BannerRow } from "@/islands/BannerManager.tsx";
import { listBanners } from "@/lib/ungatekeep/banners.ts";

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
  return (
    <section aria-labelledby="page-title" class="space-y-6">
      <PageHead title="Banners · Admin" />
      <div>
        <h1 id="page-title" class="text-3xl font-bold tracking-tight text-slate-900">Banners</h1>
        <p class="mt-2 text-slate-700">The carousel at the top of the Ungatekeep feed, in order.</p>
      </div>
      <BannerManager initial={data} />
    </section>
  );
});
