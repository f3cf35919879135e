/**
 * `/internships`: the public listing (docs/api.md, Internships, docs/decisions.md, Internships). The query
 * string is the API's (`types`, `tags`, `location`, `minStipend`, `maxStipend`, `search`/`q`, `sort`,
 * `limit`, `offset`), so a filtered and sorted page is a shareable link; a plain GET form's repeated
 * `types` and empty fields are accepted too. Invalid parameters never fail the page: they are
 * left out and named in a note. A page past the end is 404 (docs/decisions.md, Guest pages, "Pages past the end"). Members and admins (only they) see links to their own listings and to post one. "Alert me" saves the filters shown as an
 * alert (docs/decisions.md, Alerts); the RSS feed of the same filters is linked under the results. A signed-in person
 * who is not an admin sees "For you" above the plain list's first page (not above a search, a filter, an order or a
 * later page): their recommended internships with the reasons (docs/decisions.md, Recommendations).
 */
import { define } from "@/lib/platform/define.ts";
import { PageHead } from "@/components/PageHead.tsx";
import { canPost } from "@/lib/internships/policy.ts";
import { PostInternshipLink } from "@/components/internships/links.tsx";
import { ignoredNote, parseListQuery } from "@/lib/internships/parse_query.ts";
import {
  feedHref,
  FOR_YOU_SLOT_ID,
  hasFilters,
  isPlainList,
  listQueryString,
  NO_FILTERS,
  readListParams,
  RESULTS_HEADING_ID,
  RESULTS_ID,
} from "@/lib/browser/internship_query.ts";
import InternshipFilters, { INTERNSHIP_FILTERS_TEXT } from "@/islands/InternshipFilters.tsx";
import { InternshipResults, type InternshipResultsProps } from "@/components/internships/InternshipResults.tsx";
import { internshipsVersion, listInternships } from "@/lib/internships/internships.ts";
import { servePublicPage } from "@/lib/platform/state.ts";
import { alignedOffset, assertWithinList } from "@/lib/http/list_pages.ts";
import { DEFAULT_LIMIT } from "@/lib/internships/schema.ts";
import { recommend } from "@/lib/recommendations/recommendations.ts";
import { ForYou, type ForYouProps } from "@/components/ForYou.tsx";
import AlertMe, { ALERT_ME_TEXT } from "@/islands/AlertMe.tsx";
import { useT } from "@/lib/i18n/context.ts";
import { isAdmin } from "@/lib/users/roles.ts";

/** How many recommended internships the page shows above the list. */
const FOR_YOU_COUNT = 4;

/**
 * The list's parameters and first page, and the recommendations of a signed-in person (null for guests, admins, and
 * any page but the plain list's first).
 */
type PageData = InternshipResultsProps & { forYou: ForYouProps | null };

export const handler = define.handlers<PageData>({
  GET(req, ctx) {
    const { kv } = ctx.state.services;
    return servePublicPage(req, ctx.state, ctx.url, {
      version: () => internshipsVersion(kv),
      render: async () => {
        const params = readListParams(ctx.url.searchParams);
        const { query, ignored } = parseListQuery(params);
        const { user } = ctx.state;
        const [results, forYou] = await Promise.all([
          listInternships(kv, { query, viewer: user ?? null }),
          user && !isAdmin(user) && isPlainList(params)
            ? recommend(kv, { user, kind: "internships", limit: FOR_YOU_COUNT })
            : null,
        ]);
        assertWithinList(results.pagination.offset, results.pagination.total);
        return ctx.render({
          params,
          results,
          notice: ignoredNote(ctx.state.t, ignored),
          signedIn: Boolean(user),
          forYou: forYou && { internships: forYou },
        });
      },
    });
  },
});

/**
 * The canonical path of a list page: the plain list for any filter (a filtered list is the list narrowed), else the
 * page of the default size that its offset falls in.
 */
function canonicalOf({ params, results }: Pick<PageData, "params" | "results">): string {
  if (hasFilters(params.filters)) return "/internships";
  const query = listQueryString({
    filters: NO_FILTERS,
    sort: "",
    offset: String(alignedOffset(results.pagination.offset, DEFAULT_LIMIT)),
    limit: "",
  });
  return query ? `/internships?${query}` : "/internships";
}

export default define.page<PageData>(function InternshipsPage({ data: { forYou, ...data }, state, url }) {
  const t = useT();
  const search = data.params.filters.search.trim();
  return (
    <div>
      <PageHead
        title={search ? t("internships.list.titleSearch", { search }) : t("internships.list.title")}
        description={t("internships.list.description")}
        feeds={[{ title: t("internships.list.feed"), href: feedHref(data.params.filters) }]}
        canonical={canonicalOf(data)}
      />
      <div class="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 class="text-3xl font-bold tracking-tight text-slate-900">{t("internships.list.title")}</h1>
          <p class="mt-2 text-slate-700">{t("internships.list.lead")}</p>
        </div>
        {canPost(state.user) && (
          <div class="flex flex-wrap gap-3">
            <a
              href="/internships/mine"
              class="rounded-md border border-slate-300 bg-white px-4 py-2 font-medium text-slate-800 hover:bg-slate-100"
            >
              {t("internships.list.mine")}
            </a>
            <PostInternshipLink />
          </div>
        )}
      </div>
      <div class="mt-4">
        <AlertMe
          kind="internships"
          signedIn={Boolean(state.user)}
          path={url.pathname + url.search}
          text={t.island(ALERT_ME_TEXT)}
        />
      </div>
      {forYou && (
        <div id={FOR_YOU_SLOT_ID} class="mt-8">
          <ForYou {...forYou} />
        </div>
      )}
      <div class="mt-8 grid gap-6 lg:grid-cols-[18rem_1fr] lg:gap-x-8">
        <InternshipFilters
          params={data.params}
          signedIn={data.signedIn}
          text={t.island(INTERNSHIP_FILTERS_TEXT)}
        />
        <section
          id={RESULTS_ID}
          aria-labelledby={RESULTS_HEADING_ID}
          class="aria-busy:[&_ul]:opacity-60 lg:col-start-2"
        >
          <InternshipResults {...data} />
        </section>
      </div>
    </div>
  );
});
