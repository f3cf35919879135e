/**
 * `/opportunities`: published hackathons, grants, competitions and ideathons, open ones first
 * (docs/decisions.md, Opportunities), with type chips, a search box (a plain GET form: no JavaScript), pagination
 * and an empty state; a page past the end is 404 and the canonical link names the page an offset falls in
 * (docs/decisions.md, Guest pages, "Pages past the end"). Signed-in users get links to submit one and to their
 * submissions. "Alert me" saves the type and search shown as an alert (docs/decisions.md, Alerts).
 * Guests are served from the guest page cache per opportunity data version.
 */
import { define } from "@/lib/platform/define.ts";
import { OpportunityCard } from "@/components/opportunities/OpportunityCard.tsx";
import { TYPE_KEYS } from "@/lib/browser/opportunity_format.ts";
import { useT } from "@/lib/i18n/context.ts";
import { PageHead } from "@/components/PageHead.tsx";
import { INPUT } from "@/lib/browser/styles.ts";
import { Pagination } from "@/components/Pagination.tsx";
import { pagePosition } from "@/lib/browser/pagination.ts";
import {
  listOpportunities,
  opportunitiesVersion,
  OPPORTUNITY_TYPES,
  type OpportunityPage,
  OpportunityQuerySchema,
  type OpportunityType,
} from "@/lib/opportunities/opportunities.ts";
import { servePublicPage } from "@/lib/platform/state.ts";
import { alignedOffset, assertWithinList } from "@/lib/http/list_pages.ts";
import AlertMe, { ALERT_ME_TEXT } from "@/islands/AlertMe.tsx";

/** Cards per page. */
const PAGE_SIZE = 12;

interface Data {
  page: OpportunityPage;
  type: OpportunityType | "";
  search: string;
}

export const handler = define.handlers<Data>({
  GET(req, ctx) {
    const { kv } = ctx.state.services;
    return servePublicPage(req, ctx.state, ctx.url, {
      version: () => opportunitiesVersion(kv),
      render: async () => {
        const params = ctx.url.searchParams;
        const type = (OPPORTUNITY_TYPES as readonly string[]).includes(params.get("type") ?? "")
          ? params.get("type") as OpportunityType
          : "";
        const search = (params.get("search") ?? "").slice(0, 200);
        const offset = /^\d{1,9}$/.test(params.get("offset") ?? "") ? params.get("offset")! : "0";
        const query = OpportunityQuerySchema.parse({ type, search, limit: String(PAGE_SIZE), offset });
        const page = await listOpportunities(kv, { ...query, mine: false }, null);
        assertWithinList(page.pagination.offset, page.pagination.total);
        return ctx.render({ page, type, search });
      },
    });
  },
});

function href(type: string, search: string, offset = 0): string {
  const params = new URLSearchParams();
  if (type) params.set("type", type);
  if (search) params.set("search", search);
  if (offset) params.set("offset", String(offset));
  const query = params.toString();
  return query ? `/opportunities?${query}` : "/opportunities";
}

export default define.page<Data>(function OpportunitiesPage({ data: { page, type, search }, state, url }) {
  const { opportunities, pagination: { offset, total } } = page;
  const t = useT();
  const chips: [string, string][] = [
    ["", t("opportunities.list.all")],
    ...OPPORTUNITY_TYPES.map((type): [string, string] => [type, t(TYPE_KEYS[type].many)]),
  ];
  return (
    <div>
      <PageHead
        title={t("opportunities.list.title")}
        description={t("opportunities.list.description")}
        canonical={search ? "/opportunities" : href(type, "", alignedOffset(offset, PAGE_SIZE))}
      />
      <div class="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 class="text-3xl font-bold tracking-tight text-slate-900">{t("opportunities.list.title")}</h1>
          <p class="mt-2 text-slate-700">{t("opportunities.list.lead")}</p>
        </div>
        {state.user && (
          <div class="flex flex-wrap gap-3">
            <a href="/opportunities/mine" class="rounded-md border border-slate-400 bg-white px-4 py-2 font-medium">
              {t("opportunities.list.mine")}
            </a>
            <a href="/opportunities/new" class="rounded-md bg-indigo-700 px-4 py-2 font-medium text-white">
              {t("opportunities.list.submit")}
            </a>
          </div>
        )}
      </div>
      <nav aria-label={t("opportunities.list.types")} class="mt-6">
        <ul class="flex flex-wrap gap-2">
          {chips.map(([value, label]) => (
            <li key={value}>
              <a
                href={href(value, search)}
                aria-current={value === type ? "page" : undefined}
                class={`inline-block rounded-full px-4 py-1.5 text-sm font-medium ring-1 ring-inset ${
                  value === type ? "bg-indigo-700 text-white ring-indigo-700" : "bg-white text-slate-800 ring-slate-300"
                }`}
              >
                {label}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      <div class="mt-4">
        <AlertMe
          kind="opportunities"
          signedIn={Boolean(state.user)}
          path={url.pathname + url.search}
          text={t.island(ALERT_ME_TEXT)}
        />
      </div>
      <form method="get" action="/opportunities" role="search" class="mt-4 flex max-w-xl gap-2">
        {type && <input type="hidden" name="type" value={type} />}
        <label for="opportunity-search" class="sr-only">{t("opportunities.list.searchLabel")}</label>
        <input
          id="opportunity-search"
          type="search"
          name="search"
          value={search}
          placeholder={t("opportunities.list.searchPlaceholder")}
          class={INPUT}
        />
        <button type="submit" class="mt-1 rounded-md bg-indigo-700 px-4 py-2 font-medium text-white">
          {t("opportunities.list.search")}
        </button>
      </form>
      {opportunities.length === 0
        ? (
          <div class="mt-8 rounded-lg border border-dashed border-slate-300 bg-white p-10 text-center">
            <h2 class="text-lg font-semibold text-slate-900">{t("opportunities.list.none")}</h2>
            <p class="mt-2 text-slate-700">
              {t(search || type ? "opportunities.list.tryAnother" : "opportunities.list.empty")}
            </p>
          </div>
        )
        : (
          <ul class="mt-6 grid gap-4 md:grid-cols-2">
            {opportunities.map((o) => (
              <li key={o.id}>
                <OpportunityCard o={o} signedIn={Boolean(state.user)} />
              </li>
            ))}
          </ul>
        )}
      <Pagination
        class="mt-6"
        position={pagePosition(null, offset, opportunities.length, total)}
        prev={offset > 0 ? { href: href(type, search, Math.max(0, offset - PAGE_SIZE)) } : null}
        next={offset + PAGE_SIZE < total ? { href: href(type, search, offset + PAGE_SIZE) } : null}
      />
    </div>
  );
});
