/**
 * `/admin`: the dashboard (docs/decisions.md, Money operations): tiles of the totals, sign-ups and revenue per IST day
 * over 30 days as server-rendered SVG charts, the top toolkits and coupons, all from `GET /api/admin/stats`'s figures.
 */
import { define } from "@/lib/platform/define.ts";
import { PageHead } from "@/components/PageHead.tsx";
import { BarChart } from "@/components/BarChart.tsx";
import { readStats, type Stats } from "@/lib/stats/stats.ts";
import { useT } from "@/lib/i18n/context.ts";

/** Days the charts cover. */
const DAYS = 30;

export const handler = define.handlers<Stats>({
  async GET(_req, ctx) {
    return ctx.render(await readStats(ctx.state.services.kv, DAYS));
  },
});

function Tile({ label, value, href }: { label: string; value: string; href?: string }) {
  const body = (
    <>
      <span class="block text-sm text-slate-700">{label}</span>
      <span class="block text-2xl font-bold text-slate-900">{value}</span>
    </>
  );
  return (
    <li class="rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
      {href ? <a href={href} class="block hover:underline">{body}</a> : body}
    </li>
  );
}

export default define.page<Stats>(function AdminDashboard({ data: stats }) {
  const { totals } = stats;
  const t = useT();
  const count = (n: number) => t.number(n);
  return (
    <section aria-labelledby="page-title" class="space-y-8">
      <PageHead title={t("admin.pageTitle", { page: t("admin.nav.dashboard") })} />
      <h1 id="page-title" class="text-3xl font-bold tracking-tight text-slate-900">{t("admin.nav.dashboard")}</h1>
      <ul aria-label={t("admin.dashboard.totals")} class="grid grid-cols-2 gap-3 md:grid-cols-4">
        <Tile label={t("admin.dashboard.users")} value={count(totals.users)} href="/admin/users" />
        <Tile label={t("admin.dashboard.verifiedUsers")} value={count(totals.verifiedUsers)} />
        <Tile
          label={t("admin.dashboard.openInternships")}
          value={count(totals.openInternships)}
          href="/admin/internships"
        />
        <Tile
          label={t("admin.dashboard.pendingOpportunities")}
          value={count(totals.pendingOpportunities)}
          href="/admin/opportunities"
        />
        <Tile label={t("admin.dashboard.activeToolkits")} value={count(totals.activeToolkits)} href="/admin/toolkits" />
        <Tile label={t("admin.dashboard.revenue")} value={t.rupees(totals.revenue)} href="/admin/purchases" />
        <Tile label={t("admin.dashboard.refunded")} value={t.rupees(totals.refunds)} href="/admin/purchases" />
        <Tile
          label={t("admin.dashboard.refundRequests")}
          value={count(totals.refundRequests)}
          href="/admin/purchases?tab=asked"
        />
        <Tile
          label={t("admin.dashboard.net")}
          value={t.rupees(Math.round((totals.revenue - totals.refunds) * 100) / 100)}
        />
      </ul>
      <div class="grid gap-4 lg:grid-cols-2">
        <BarChart
          id="signups-chart"
          title={t("admin.dashboard.signupsChart", { days: DAYS })}
          bars={stats.days.map((d) => ({ date: d.date, value: d.signups }))}
          format={count}
        />
        <BarChart
          id="revenue-chart"
          title={t("admin.dashboard.revenueChart", { days: DAYS })}
          bars={stats.days.map((d) => ({ date: d.date, value: d.revenue }))}
          format={t.rupees}
          color="#15803d"
        />
      </div>
      <div class="grid gap-4 lg:grid-cols-2">
        <section aria-labelledby="top-toolkits" class="rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
          <h2 id="top-toolkits" class="font-semibold text-slate-900">{t("admin.dashboard.topToolkits")}</h2>
          {stats.topToolkits.length === 0
            ? <p class="mt-2 text-slate-700">{t("admin.dashboard.noSales")}</p>
            : (
              <table class="mt-2 w-full text-left text-sm">
                <thead>
                  <tr class="text-slate-700">
                    <th scope="col" class="py-1 font-semibold">{t("admin.dashboard.toolkit")}</th>
                    <th scope="col" class="py-1 text-right font-semibold">{t("admin.dashboard.sales")}</th>
                    <th scope="col" class="py-1 text-right font-semibold">{t("admin.dashboard.revenue")}</th>
                  </tr>
                </thead>
                <tbody class="divide-y divide-slate-200">
                  {stats.topToolkits.map((toolkit) => (
                    <tr key={toolkit.id}>
                      <th scope="row" class="py-1.5 font-normal">
                        {toolkit.title ?? t("admin.dashboard.removedToolkit")}
                      </th>
                      <td class="py-1.5 text-right tabular-nums">{count(toolkit.sales)}</td>
                      <td class="py-1.5 text-right tabular-nums">{t.rupees(toolkit.revenue)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
        </section>
        <section aria-labelledby="top-coupons" class="rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
          <h2 id="top-coupons" class="font-semibold text-slate-900">{t("admin.dashboard.couponsUsed")}</h2>
          {stats.coupons.length === 0
            ? <p class="mt-2 text-slate-700">{t("admin.dashboard.noCoupons")}</p>
            : (
              <table class="mt-2 w-full text-left text-sm">
                <thead>
                  <tr class="text-slate-700">
                    <th scope="col" class="py-1 font-semibold">{t("admin.dashboard.code")}</th>
                    <th scope="col" class="py-1 text-right font-semibold">{t("admin.dashboard.uses")}</th>
                    <th scope="col" class="py-1 text-right font-semibold">{t("admin.dashboard.discountGiven")}</th>
                  </tr>
                </thead>
                <tbody class="divide-y divide-slate-200">
                  {stats.coupons.map((c) => (
                    <tr key={c.code}>
                      <th scope="row" class="py-1.5 font-mono font-normal">{c.code}</th>
                      <td class="py-1.5 text-right tabular-nums">{count(c.uses)}</td>
                      <td class="py-1.5 text-right tabular-nums">{t.rupees(c.discountGiven)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
        </section>
      </div>
    </section>
  );
});
