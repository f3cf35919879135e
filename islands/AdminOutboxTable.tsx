/**
 * The admin outbox table (docs/decisions.md, Background work, "Admin"): the e-mails of the outbox, newest first, by
 * status (tabs with their counts, "1,000+" past the newest `OUTBOX_WINDOW` of a status), searched by recipient
 * (loaded from `GET /api/admin/outbox` through the shared admin list hook), each with its tries and last error; a failed mail whose content was kept (`canRetry`) has "Retry", which
 * queues it again and starts its try (a plain form to the page until hydrated, then `POST
 * /api/admin/outbox/{id}/retry`); one that held a single-use link says that
 * it cannot be sent again (docs/decisions.md, Background work, "Bodies dropped"). Pages of 50. The API never sends a
 * mail's body, so neither does this table. Until hydrated the search and the tabs are one `GET` form to the page (the
 * tabs its submit buttons, "Search" keeping the tab) and Previous and Next links to it; the island starts from the tab,
 * search and page the server rendered.
 */
import { useRef, useState } from "preact/hooks";
import { AdminTable, ListSearch } from "@/components/AdminList.tsx";
import { ListPages } from "@/components/ListPages.tsx";
import { Cell } from "@/components/StackedTable.tsx";
import { SECONDARY_BUTTON } from "@/lib/browser/styles.ts";
import { useHydrated } from "@/lib/browser/use_hydrated.ts";
import { fetchJson, refusalPrefixes } from "@/lib/browser/fetch_json.ts";
import { ADMIN_LIST_TEXT, useAdminList } from "@/lib/browser/use_admin_list.ts";
import type { MailStatus, OutboxRow } from "@/lib/mail/outbox.ts";
import type { OutboxPage } from "@/lib/mail/outbox_admin.ts";
import { useT } from "@/lib/i18n/context.ts";
import { IslandTextProvider } from "@/lib/i18n/island_text.ts";
import type { IslandText, MessageKey } from "@/lib/i18n/translator.ts";

/** The messages this island uses (its `text`). */
export const ADMIN_OUTBOX_TEXT = [
  "admin.outbox.",
  ...ADMIN_LIST_TEXT,
  ...refusalPrefixes("mailNotFailed", "mailBodyDropped", "mailNotFound"),
] as const;

const PAGE_SIZE = 50;

/** The tabs: every status, then each one. */
const TABS: { status: MailStatus | null; label: MessageKey }[] = [
  { status: null, label: "admin.outbox.all" },
  { status: "pending", label: "admin.outbox.status.pending" },
  { status: "sent", label: "admin.outbox.status.sent" },
  { status: "failed", label: "admin.outbox.status.failed" },
];

const BADGE: Record<MailStatus, string> = {
  pending: "bg-amber-100 text-amber-900",
  sent: "bg-green-100 text-green-900",
  failed: "bg-red-100 text-red-900",
};

/**
 * The number of mails a tab holds, from the answer's counts, and whether the tab holds more than the newest ones read
 * (shown as "1,000+").
 */
function countOf(page: OutboxPage, status: MailStatus | null): { count: number; more: boolean } {
  const { counts, more } = page;
  if (status) return { count: counts[status], more: more[status] };
  return { count: counts.pending + counts.sent + counts.failed, more: more.pending || more.sent || more.failed };
}

/** Props of `AdminOutboxTable`. */
export interface OutboxTableProps {
  /** The page as the server read it, of tab `status` (null: all) and search `search` ("": none). */
  initial: OutboxPage;
  status: MailStatus | null;
  search: string;
  /** The messages (`ADMIN_OUTBOX_TEXT`). */
  text: IslandText;
}

export default function AdminOutboxTable({ text, ...props }: OutboxTableProps) {
  return (
    <IslandTextProvider text={text}>
      <OutboxTable {...props} />
    </IslandTextProvider>
  );
}

function OutboxTable({ initial, status: initialStatus, search }: Omit<OutboxTableProps, "text">) {
  const t = useT();
  const hydrated = useHydrated();
  const [status, setStatus] = useState<MailStatus | null>(initialStatus);
  const { offset } = initial.pagination;
  /** The address of the page the server rendered, at `at` (its links before hydration). */
  const href = (at: number) => {
    const params = { status: initialStatus ?? "", search, offset: at ? `${at}` : "" };
    return `/admin/outbox?${new URLSearchParams(Object.entries(params).filter(([, value]) => value))}`;
  };
  // What the next answer announces instead of the match count (the outcome of a retry, which reloads the counts).
  const nextAnnouncement = useRef<string | null>(null);
  const list = useAdminList<OutboxRow, OutboxPage>({
    path: ({ query, offset }) => {
      const params = new URLSearchParams({ limit: String(PAGE_SIZE), offset: String(offset) });
      if (status) params.set("status", status);
      if (query) params.set("search", query);
      return `/api/admin/outbox?${params}`;
    },
    rowsOf: (data) => data.mails,
    filters: [status],
    initial: initial.mails,
    start: { query: search, offset },
    loaded: (data) => {
      const text = nextAnnouncement.current ?? t("admin.outbox.match", { total: data.pagination.total });
      nextAnnouncement.current = null;
      return text;
    },
  });
  const [retrying, setRetrying] = useState<string | null>(null);

  const retry = async (row: OutboxRow) => {
    setRetrying(row.id);
    const data = await list.run(
      fetchJson<{ mail: OutboxRow }>(`/api/admin/outbox/${row.id}/retry`, { method: "POST" }),
      (error) => t("admin.outbox.notRetried", { error }),
    );
    setRetrying(null);
    if (!data) return;
    list.replaceRow(data.mail);
    nextAnnouncement.current = t("admin.outbox.queued", { to: row.to });
    list.reload();
  };

  const countText = ({ count, more }: { count: number; more: boolean }) =>
    more ? t("admin.outbox.countMore", { count: t.number(count) }) : t.number(count);
  const rows = list.rows ?? [];
  const page = list.data ?? initial;
  return (
    <div class="space-y-4">
      <div class="space-y-4 rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
        <form
          id="outbox-filters"
          method="get"
          action="/admin/outbox"
          onSubmit={(e) => e.preventDefault()}
          role="search"
          class="flex items-end gap-3"
        >
          <div class="flex-1">
            <ListSearch id="search" label={t("admin.outbox.search")} list={list} maxLength={100} />
          </div>
          {!hydrated && (
            <button type="submit" name="status" value={status ?? ""} class={SECONDARY_BUTTON}>
              {t("admin.outbox.searchSubmit")}
            </button>
          )}
        </form>
        <div role="group" aria-label={t("admin.outbox.statusLabel")} class="flex flex-wrap gap-2">
          {TABS.map((tab) => {
            const current = tab.status === status;
            return (
              <button
                key={tab.label}
                type={hydrated ? "button" : "submit"}
                form="outbox-filters"
                name="status"
                value={tab.status ?? ""}
                aria-pressed={current ? "true" : "false"}
                onClick={() => setStatus(tab.status)}
                class={`rounded-full px-3 py-1.5 text-sm font-medium ${
                  current ? "bg-indigo-700 text-white" : "border border-slate-400 bg-white text-slate-800"
                }`}
              >
                {t(tab.label)} <span class="tabular-nums">({countText(countOf(page, tab.status))})</span>
              </button>
            );
          })}
        </div>
      </div>
      <AdminTable
        list={list}
        loadingText={t("admin.outbox.loading")}
        loadErrorTitle={t("admin.outbox.loadError")}
        rowErrorTitle={t("admin.outbox.notRetriedTitle")}
        retry
        label={t("admin.outbox.label")}
        caption={t("admin.outbox.caption")}
        columns={[
          { label: t("admin.outbox.email") },
          { label: t("admin.outbox.statusLabel") },
          { label: t("admin.outbox.lastError") },
          { label: t("admin.list.actions"), hidden: true },
        ]}
        empty={t("admin.outbox.none")}
      >
        {rows.map((row) => (
          <tr key={row.id} class="align-top">
            <th scope="row" class="px-4 py-3 font-normal text-slate-800">
              <span class="block font-medium text-slate-900">{row.to}</span>
              {row.subject}
            </th>
            <Cell label={t("admin.outbox.statusLabel")} class="min-w-44">
              <span class={`rounded-full px-2 py-0.5 text-xs font-semibold ${BADGE[row.status]}`}>
                {t.dynamic(`admin.outbox.badge.${row.status}`)}
              </span>
              <span class="mt-1 block text-xs text-slate-700">
                {[
                  t("admin.outbox.queuedAt", { time: t.dateTime(row.createdAt) }),
                  t("admin.outbox.tries", { count: row.attempts }),
                  ...row.sentAt ? [t("admin.outbox.sentAt", { time: t.dateTime(row.sentAt) })] : [],
                  ...row.status === "pending" && row.dueAt
                    ? [t("admin.outbox.nextAt", { time: t.dateTime(row.dueAt) })]
                    : [],
                ].join(" · ")}
              </span>
            </Cell>
            <Cell label={t("admin.outbox.lastError")} class="max-w-xs text-slate-700">
              {row.lastError ?? "—"}
            </Cell>
            <Cell>
              {row.status === "failed" && !row.canRetry && (
                <span class="block max-w-40 text-xs text-slate-700 max-lg:max-w-none">
                  {t("admin.outbox.singleUse")}
                </span>
              )}
              {row.canRetry && (
                <form
                  method="post"
                  action="/admin/outbox"
                  onSubmit={(e) => {
                    e.preventDefault();
                    retry(row);
                  }}
                >
                  <input type="hidden" name="intent" value="retry" />
                  <input type="hidden" name="id" value={row.id} />
                  <button
                    type="submit"
                    class={SECONDARY_BUTTON}
                    disabled={retrying !== null}
                    aria-label={t("admin.outbox.retryLabel", { to: row.to })}
                  >
                    {t(retrying === row.id ? "admin.outbox.retrying" : "admin.outbox.retry")}
                  </button>
                </form>
              )}
            </Cell>
          </tr>
        ))}
      </AdminTable>
      <ListPages
        label={t("admin.outbox.pages")}
        list={list}
        pageSize={PAGE_SIZE}
        shown={rows.length}
        total={page.pagination.total}
        hasMore={page.pagination.hasMore}
        hrefOf={hydrated ? undefined : href}
      />
    </div>
  );
}
