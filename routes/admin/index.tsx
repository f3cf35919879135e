/**
 * `/admin`: the dashboard (docs/decisions.md, Money operations): tiles of the totals, sign-ups and revenue per IST day
 * over 30 days as server-rendered SVG charts, the top toolkits and coupons, all from `GET /api/admin/stats`'s figures.
 */
import { define } from "@/lib/platform/define.ts";
import { PageHead } from "@/components/PageHead.tsx";
import { BarChart } from "@/components/BarChart.tsx";
import { formatRupees } from "@/lib/money.ts";
import { readStats, type Stats } from "@/lib/stats/stats.ts";

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

const count = (n: number) => n.toLocaleString("en-IN");

export default define.page<Stats>(function AdminDashboard({ data: stats }) {
  const { totals } = stats;
  return (
    <section aria-labelledby="page-title" class="space-y-8">
      <PageHead title="Dashboard · Admin" />
      <h1 id="page-title" class="text-3xl font-bold tracking-tight text-slate-900">Dashboard</h1>
      <ul aria-label="Totals" class="grid grid-cols-2 gap-3 md:grid-cols-4">
        <Tile label="Users" value={count(totals.users)} href="/admin/users" />
        <Tile label="Verified users" value={count(totals.verifiedUsers)} />
        <Tile label="Open internships" value={count(totals.openInternships)} href="/admin/internships" />
        <Tile label="Opportunities to review" value={count(totals.pendingOpportunities)} href="/admin/opportunities" />
        <Tile label="Active toolkits" value={count(totals.activeToolkits)} href="/admin/toolkits" />
        <Tile label="Revenue" value={formatRupees(totals.revenue)} href="/admin/purchases" />
        <Tile label="Refunded" value={formatRupees(totals.refunds)} href="/admin/purchases" />
        <Tile label="Net" value={formatRupees(Math.round((totals.revenue - totals.refunds) * 100) / 100)} />
      </ul>
      <div class="grid gap-4 lg:grid-cols-2">
        <BarChart
          id="signups-chart"
          title={`Sign-ups per day, last ${DAYS} days`}
          bars={stats.days.map((d) => ({ date: d.date, value: d.signups }))}
          format={count}
        />
        <BarChart
          id="revenue-chart"
          title={`Revenue per day, last ${DAYS} days`}
          bars={stats.days.map((d) => ({ date: d.date, value: d.revenue }))}
          format={formatRupees}
          color="#15803d"
        />
      </div>
      <div class="grid gap-4 lg:grid-cols-2">
        <section aria-labelledby="top-toolkits" class="rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
          <h2 id="top-toolkits" class="font-semibold text-slate-900">Top toolkits</h2>
          {stats.topToolkits.length === 0
            ? <p class="mt-2 text-slate-700">No sales yet.</p>
            : (
              <table class="mt-2 w-full text-left text-sm">
                <thead>
                  <tr class="text-slate-700">
                    <th scope="col" class="py-1 font-semibold">Toolkit</th>
                    <th scope="col" class="py-1 text-right font-semibold">Sales</th>
                    <th scope="col" class="py-1 text-right font-semibold">Revenue</th>
                  </tr>
                </thead>
                <tbody class="divide-y divide-slate-200">
                  {stats.topToolkits.map((t) => (
                    <tr key={t.id}>
                      <th scope="row" class="py-1.5 font-normal">{t.title}</th>
                      <td class="py-1.5 text-right tabular-nums">{count(t.sales)}</td>
                      <td class="py-1.5 text-right tabular-nums">{formatRupees(t.revenue)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
        </section>
        <section aria-labelledby="top-coupons" class="rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
          <h2 id="top-coupons" class="font-semibold text-slate-900">Coupons used</h2>
          {stats.coupons.length === 0
            ? <p class="mt-2 text-slate-700">No coupon has been used yet.</p>
            : (
              <table class="mt-2 w-full text-left text-sm">
                <thead>
                  <tr class="text-slate-700">
                    <th scope="col" class="py-1 font-semibold">Code</th>
                    <th scope="col" class="py-1 text-right font-semibold">Uses</th>
                    <th scope="col" class="py-1 text-right font-semibold">Discount given</th>
                  </tr>
                </thead>
                <tbody class="divide-y divide-slate-200">
                  {stats.coupons.map((c) => (
                    <tr key={c.code}>
                      <th scope="row" class="py-1.5 font-mono font-normal">{c.code}</th>
                      <td class="py-1.5 text-right tabular-nums">{count(c.uses)}</td>
                      <td class="py-1.5 text-right tabular-nums">{formatRupees(c.discountGiven)}</td>
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
