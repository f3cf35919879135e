/**
 * `/admin/log` (admins only, by `/admin`'s middleware): the admin audit log (docs/decisions.md, Admin, "Audit log") as
 * a plain table, newest first, 50 entries a page: when, which admin, what, which record, and the entry's few words.
 * A target with a page of its own (a listing, an organization, a toolkit, a post, a job's card) links to it. A `GET`
 * form filters by `action` and `adminId` (the current admins); "Older changes" follows the page's `cursor`,
 * "Newest changes" goes back to the first page. Links and a form only: it works without JavaScript.
 */
import { define } from "@/lib/platform/define.ts";
import { PageHead } from "@/components/PageHead.tsx";
import {
  ADMIN_ACTIONS,
  type AdminLogEntry,
  type AdminLogPage,
  adminLogQuerySchema,
  listAdminLog,
  type TargetKind,
} from "@/lib/admin_log/admin_log.ts";
import { getUserSummaries } from "@/lib/users/users.ts";
import { adminIds } from "@/lib/users/user_index.ts";
import { useT } from "@/lib/i18n/context.ts";
import type { Translate } from "@/lib/i18n/translator.ts";
import { STACKED_TABLE } from "@/lib/browser/styles.ts";
import { Cell } from "@/components/StackedTable.tsx";

/** Entries per page. */
const PAGE_SIZE = 50;

/** The page an admin reads a target of `kind` on (each shows the record in any state to an admin), when it has one. */
const TARGET_PAGES: Partial<Record<TargetKind, (id: string) => string>> = {
  internship: (id) => `/internships/${id}`,
  opportunity: (id) => `/opportunities/${id}`,
  organization: (id) => `/admin/organizations/${id}`,
  toolkit: (id) => `/admin/toolkits/${id}`,
  post: (id) => `/admin/ungatekeep/${id}`,
  job: (name) => `/admin/jobs#job-${name}`,
};

interface Data {
  page: AdminLogPage;
  /** The filters as applied (an unknown value is dropped). */
  action: string | undefined;
  adminId: string | undefined;
  cursor: string | undefined;
  /** The names of the admins the page names, and the current admins for the filter, by id. */
  names: Record<string, string>;
  admins: { id: string; name: string }[];
}

export const handler = define.handlers<Data>({
  async GET(_req, ctx) {
    const { kv } = ctx.state.services;
    const params = ctx.url.searchParams;
    const given = (name: string) => params.get(name) || undefined;
    const parsed = adminLogQuerySchema.safeParse({
      action: given("action"),
      adminId: given("adminId"),
      cursor: given("cursor"),
      limit: String(PAGE_SIZE),
    });
    const query = parsed.success ? parsed.data : adminLogQuerySchema.parse({ limit: String(PAGE_SIZE) });
    const page = await listAdminLog(kv, query);
    const named = page.entries.map((entry) => entry.adminId).filter((id): id is string => id !== null);
    const [summaries, adminSummaries] = await Promise.all([
      getUserSummaries(kv, named),
      adminIds(kv).then((ids) => getUserSummaries(kv, ids)),
    ]);
    const admins = [...adminSummaries.values()].filter((user) => user.role === "admin")
      .map(({ id, name }) => ({ id, name })).sort((a, b) => a.name.localeCompare(b.name, "en"));
    const names = Object.fromEntries([...summaries.values(), ...admins].map(({ id, name }) => [id, name]));
    return ctx.render({ page, action: query.action, adminId: query.adminId, cursor: query.cursor, names, admins });
  },
});

/**
 * An entry's summary in the reader's language where it is one of the log's codes (a decision, a verified state, a
 * role change, an internship's switches, a job run's outcome); a title or name as written; "—" for none.
 */
function summaryWords(t: Translate, { action, summary }: AdminLogEntry): string {
  if (!summary) return "—";
  if (action === "user.role") {
    const [from, to] = summary.split(" → ");
    const role = (name: string | undefined) =>
      name && t.has(`admin.roles.${name}`) ? t.dynamic(`admin.roles.${name}`) : name ?? "";
    return to === undefined ? summary : t("admin.log.roleChange", { from: role(from), to: role(to) });
  }
  if (action === "internship.update") {
    const flags = summary.split(", ").map((pair) => pair.split(": "));
    if (flags.every(([flag, on]) => t.has(`admin.log.flags.${flag}`) && (on === "true" || on === "false"))) {
      return flags.map(([flag, on]) => t.dynamic(`admin.log.flags.${flag}`, { on })).join(", ");
    }
  }
  const code = `admin.log.codes.${summary.replaceAll(" ", "_")}`;
  return CODED.has(action) && t.has(code) ? t.dynamic(code) : summary;
}

/** The actions whose summary is a code of the log (`admin.log.codes.*`), not words someone wrote. */
const CODED = new Set<string>([
  "report.resolve",
  "moderation.decide",
  "opportunity.review",
  "organization.update",
  "job.run",
]);

/** A target's id, a link to the page that shows the record when its kind has one. */
function TargetId({ kind, id }: { kind: TargetKind; id: string }) {
  const code = <code class="text-xs [overflow-wrap:anywhere]">{id}</code>;
  const page = TARGET_PAGES[kind];
  return page
    ? <a href={page(encodeURIComponent(id))} class="text-indigo-700 underline">{code}</a>
    : <span class="text-slate-700">{code}</span>;
}

export default define.page<Data>(function AdminLogPage({ data }) {
  const { page, action, adminId, cursor, names, admins } = data;
  const t = useT();
  const href = (parts: Record<string, string | undefined>) => {
    const params = new URLSearchParams();
    for (const [name, value] of Object.entries(parts)) if (value) params.set(name, value);
    const query = params.toString();
    return `/admin/log${query ? `?${query}` : ""}`;
  };
  const adminName = (entry: AdminLogEntry) =>
    entry.adminId === null ? t("admin.log.formerAdmin") : names[entry.adminId] ?? t("admin.log.formerAdmin");
  return (
    <section aria-labelledby="page-title" class="space-y-6">
      <PageHead title={t("admin.pageTitle", { page: t("admin.nav.log") })} />
      <div>
        <h1 id="page-title" class="text-3xl font-bold tracking-tight text-slate-900">{t("admin.nav.log")}</h1>
        <p class="mt-2 text-slate-700">{t("admin.log.lead")}</p>
      </div>
      <form method="get" action="/admin/log" aria-label={t("admin.log.filters")} class="flex flex-wrap items-end gap-3">
        <label class="flex flex-col gap-1 text-sm font-medium text-slate-800">
          {t("admin.log.action")}
          <select name="action" class="rounded-md border border-slate-300 bg-white px-3 py-2">
            <option value="">{t("admin.log.allActions")}</option>
            {ADMIN_ACTIONS.map((value) => (
              <option key={value} value={value} selected={value === action}>
                {t.dynamic(`admin.log.actions.${value}`)}
              </option>
            ))}
          </select>
        </label>
        <label class="flex flex-col gap-1 text-sm font-medium text-slate-800">
          {t("admin.log.admin")}
          <select name="adminId" class="rounded-md border border-slate-300 bg-white px-3 py-2">
            <option value="">{t("admin.log.allAdmins")}</option>
            {admins.map((admin) => (
              <option key={admin.id} value={admin.id} selected={admin.id === adminId}>{admin.name}</option>
            ))}
          </select>
        </label>
        <button type="submit" class="rounded-md bg-indigo-700 px-4 py-2 text-sm font-semibold text-white">
          {t("admin.log.show")}
        </button>
      </form>
      {page.entries.length === 0
        ? (
          <p class="rounded-lg border border-dashed border-slate-300 bg-white p-8 text-center text-slate-700">
            {t("admin.log.none")}
          </p>
        )
        : (
          <div class="overflow-x-auto rounded-lg border border-slate-200 bg-white shadow-sm">
            <table class={`min-w-full divide-y divide-slate-200 text-left text-sm ${STACKED_TABLE}`}>
              <caption class="sr-only">{t("admin.log.caption")}</caption>
              <thead class="bg-slate-50 text-slate-800">
                <tr>
                  <th scope="col" class="px-4 py-3 font-semibold">{t("admin.log.when")}</th>
                  <th scope="col" class="px-4 py-3 font-semibold">{t("admin.log.admin")}</th>
                  <th scope="col" class="px-4 py-3 font-semibold">{t("admin.log.action")}</th>
                  <th scope="col" class="px-4 py-3 font-semibold">{t("admin.log.target")}</th>
                  <th scope="col" class="px-4 py-3 font-semibold">{t("admin.log.summary")}</th>
                </tr>
              </thead>
              <tbody class="divide-y divide-slate-200 text-slate-800">
                {page.entries.map((entry) => (
                  <tr key={entry.id} class="align-top">
                    <th scope="row" class="px-4 py-3 font-medium lg:whitespace-nowrap">
                      <time datetime={entry.at}>{t.dateTime(entry.at)}</time>
                    </th>
                    <Cell label={t("admin.log.admin")}>{adminName(entry)}</Cell>
                    <Cell label={t("admin.log.action")}>{t.dynamic(`admin.log.actions.${entry.action}`)}</Cell>
                    <Cell label={t("admin.log.target")}>
                      {t.dynamic(`admin.log.kinds.${entry.targetKind}`)} {entry.targetId === null
                        ? t("admin.log.deletedTarget")
                        : <TargetId kind={entry.targetKind} id={entry.targetId} />}
                    </Cell>
                    <Cell label={t("admin.log.summary")}>{summaryWords(t, entry)}</Cell>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      {(cursor || page.nextCursor) && (
        <nav aria-label={t("admin.log.pages")} class="flex items-center justify-between gap-4">
          {cursor
            ? (
              <a
                href={href({ action, adminId })}
                class="rounded-md border border-slate-300 bg-white px-4 py-2 text-slate-800 hover:bg-slate-100"
              >
                {t("admin.log.newest")}
              </a>
            )
            : <span />}
          {page.nextCursor && (
            <a
              href={href({ action, adminId, cursor: page.nextCursor })}
              rel="next"
              class="rounded-md border border-slate-300 bg-white px-4 py-2 text-slate-800 hover:bg-slate-100"
            >
              {t("admin.log.older")}
            </a>
          )}
        </nav>
      )}
    </section>
  );
});
