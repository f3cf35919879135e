/**
 * `/admin/organizations` (admins only, by `/admin`'s middleware): every organization by name (docs/decisions.md,
 * Trust, "Organizations"), with a search over the name, all / verified / unverified, its live listing count, and a
 * link to edit each. A plain GET form and links: it works without JavaScript.
 */
import { define } from "@/lib/platform/define.ts";
import { PageHead } from "@/components/PageHead.tsx";
import { INPUT, SECONDARY_BUTTON, STACKED_TABLE } from "@/lib/browser/styles.ts";
import { Cell } from "@/components/StackedTable.tsx";
import { Pagination } from "@/components/Pagination.tsx";
import { pagePosition } from "@/lib/browser/pagination.ts";
import { OrganizationBadge } from "@/components/organizations/OrganizationBadge.tsx";
import {
  type AdminOrganizationPage,
  AdminOrganizationQuerySchema,
  listForAdmin,
} from "@/lib/organizations/organizations.ts";
import { useT } from "@/lib/i18n/context.ts";

/** Organizations per page. */
const PAGE_SIZE = 50;

interface Data {
  page: AdminOrganizationPage;
  search: string;
  verified: "" | "true" | "false";
}

export const handler = define.handlers<Data>({
  async GET(_req, ctx) {
    const params = ctx.url.searchParams;
    const search = (params.get("search") ?? "").trim().slice(0, 200);
    const asked = params.get("verified") ?? "";
    const verified = asked === "true" || asked === "false" ? asked : "";
    const offset = params.get("offset") ?? "0";
    const parsed = AdminOrganizationQuerySchema.safeParse({
      ...search ? { search } : {},
      ...verified ? { verified } : {},
      offset: /^\d+$/.test(offset) ? offset : "0",
      limit: String(PAGE_SIZE),
    });
    const query = parsed.success ? parsed.data : AdminOrganizationQuerySchema.parse({ limit: String(PAGE_SIZE) });
    return ctx.render({ page: await listForAdmin(ctx.state.services.kv, query), search, verified });
  },
});

export default define.page<Data>(function AdminOrganizationsPage({ data: { page, search, verified } }) {
  const { offset, total } = page.pagination;
  const href = (at: number) => {
    const params = new URLSearchParams();
    if (search) params.set("search", search);
    if (verified) params.set("verified", verified);
    if (at > 0) params.set("offset", String(at));
    const query = params.toString();
    return `/admin/organizations${query ? `?${query}` : ""}`;
  };
  const t = useT();
  return (
    <section aria-labelledby="page-title" class="space-y-6">
      <PageHead title={t("admin.pageTitle", { page: t("admin.nav.organizations") })} />
      <div>
        <h1 id="page-title" class="text-3xl font-bold tracking-tight text-slate-900">{t("admin.nav.organizations")}</h1>
        <p class="mt-2 text-slate-700">{t("admin.organizations.lead")}</p>
      </div>
      <form method="get" role="search" class="flex flex-wrap items-end gap-3">
        <div>
          <label for="organization-search" class="block text-sm font-medium text-slate-800">
            {t("admin.organizations.name")}
          </label>
          <input id="organization-search" name="search" type="search" value={search} maxLength={200} class={INPUT} />
        </div>
        <div>
          <label for="organization-verified" class="block text-sm font-medium text-slate-800">
            {t("admin.organizations.show")}
          </label>
          <select id="organization-verified" name="verified" class={INPUT}>
            <option value="" selected={verified === ""}>{t("admin.organizations.all")}</option>
            <option value="true" selected={verified === "true"}>{t("admin.organizations.verified")}</option>
            <option value="false" selected={verified === "false"}>{t("admin.organizations.notVerified")}</option>
          </select>
        </div>
        <button type="submit" class={SECONDARY_BUTTON}>{t("admin.organizations.search")}</button>
      </form>
      <p class="text-sm text-slate-700" role="status">
        {t("admin.organizations.count", { total })}
      </p>
      {page.organizations.length > 0 && (
        <div class="overflow-x-auto rounded-lg border border-slate-200 bg-white shadow-sm">
          <table class={`min-w-full text-left text-sm ${STACKED_TABLE}`}>
            <thead class="bg-slate-50 text-slate-800">
              <tr>
                <th scope="col" class="px-4 py-3 font-semibold">{t("admin.organizations.name")}</th>
                <th scope="col" class="px-4 py-3 font-semibold">{t("admin.organizations.state")}</th>
                <th scope="col" class="px-4 py-3 font-semibold">{t("admin.organizations.website")}</th>
                <th scope="col" class="px-4 py-3 text-right font-semibold">{t("admin.organizations.listings")}</th>
                <th scope="col" class="px-4 py-3 font-semibold">
                  <span class="sr-only">{t("admin.organizations.actions")}</span>
                </th>
              </tr>
            </thead>
            <tbody class="divide-y divide-slate-200">
              {page.organizations.map((organization) => (
                <tr key={organization.id}>
                  <th scope="row" class="px-4 py-3 font-medium">
                    <a href={`/organizations/${organization.slug}`} class="text-indigo-700 underline">
                      {organization.name}
                    </a>
                  </th>
                  <Cell label={t("admin.organizations.state")}>
                    <OrganizationBadge organization={organization} />
                  </Cell>
                  <Cell label={t("admin.organizations.website")}>{organization.website ?? "—"}</Cell>
                  <Cell label={t("admin.organizations.listings")} class="tabular-nums lg:text-right">
                    {organization.internships}
                  </Cell>
                  <Cell>
                    <a href={`/admin/organizations/${organization.id}`} class="text-indigo-700 underline">
                      {t.rich("admin.organizations.edit", {
                        name: () => <span class="sr-only">{` ${organization.name}`}</span>,
                      })}
                    </a>
                  </Cell>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {page.organizations.length === 0 && (
        <p class="rounded-lg border border-dashed border-slate-300 bg-white p-8 text-center text-slate-700">
          {t(search ? "admin.organizations.noMatch" : "admin.organizations.none")}
        </p>
      )}
      <Pagination
        position={pagePosition(t, offset, page.organizations.length, total)}
        prev={offset > 0 ? { href: href(Math.max(0, offset - PAGE_SIZE)) } : null}
        next={offset + PAGE_SIZE < total ? { href: href(offset + PAGE_SIZE) } : null}
      />
    </section>
  );
});
