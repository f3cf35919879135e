/**
 * The admin outbox table (docs/decisions.md, Background work, "Admin"): the e-mails of the outbox, newest first, by
 * status (tabs with their counts), searched by recipient (loaded from `GET /api/admin/outbox` through the shared admin
 * list hook), each with its tries and last error; a failed mail whose content was kept (`canRetry`) has "Retry", which
 * queues it again and starts its try (`POST /api/admin/outbox/{id}/retry`); one that held a single-use link says that
 * it cannot be sent again (docs/decisions.md, Background work, "Bodies dropped"). Pages of 50. The API never sends a
 * mail's body, so neither does this table.
 */
import { useRef, useState } from "preact/hooks";
import { AdminTable, ListPages, ListSearch } from "@/components/AdminList.tsx";
import { Cell } from "@/components/StackedTable.tsx";
import { SECONDARY_BUTTON } from "@/lib/browser/styles.ts";
import { useHydrated } from "@/lib/browser/use_hydrated.ts";
import { fetchJson } from "@/lib/browser/fetch_json.ts";
import { useAdminList } from "@/lib/browser/use_admin_list.ts";
import { formatDateTime } from "@/lib/dates.ts";
import type { MailStatus, OutboxRow } from "@/lib/mail/outbox.ts";
import type { OutboxPage } from "@/lib/mail/outbox_admin.ts";

const PAGE_SIZE = 50;

/** The tabs: every status, then each one. */
const TABS: { status: MailStatus | null; label: string }[] = [
  { status: null, label: "All" },
  { status: "pending", label: "Pending" },
  { status: "sent", label: "Sent" },
  { status: "failed", label: "Failed" },
];

const BADGE: Record<MailStatus, string> = {
  pending: "bg-amber-100 text-amber-900",
  sent: "bg-green-100 text-green-900",
  failed: "bg-red-100 text-red-900",
};

/** The number of mails a tab holds, from the answer's counts. */
function countOf(counts: OutboxPage["counts"], status: MailStatus | null): number {
  return status ? counts[status] : counts.pending + counts.sent + counts.failed;
}

export default function AdminOutboxTable({ initial }: { initial: OutboxPage }) {
  const hydrated = useHydrated();
  const [status, setStatus] = useState<MailStatus | null>(null);
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
    loaded: (data) => {
      const text = nextAnnouncement.current ?? `${data.pagination.total} e-mails match.`;
      nextAnnouncement.current = null;
      return text;
    },
  });
  const [retrying, setRetrying] = useState<string | null>(null);

  const retry = async (row: OutboxRow) => {
    setRetrying(row.id);
    const data = await list.run(
      fetchJson<{ mail: OutboxRow }>(`/api/admin/outbox/${row.id}/retry`, { method: "POST" }),
      (error) => `Not retried: ${error}`,
    );
    setRetrying(null);
    if (!data) return;
    list.replaceRow(data.mail);
    nextAnnouncement.current = `The e-mail to ${row.to} is queued again and being sent.`;
    list.reload();
  };

  const rows = list.rows ?? [];
  const page = list.data ?? initial;
  return (
    <div class="space-y-4">
      <div class="space-y-4 rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
        <div role="group" aria-label="Status" class="flex flex-wrap gap-2">
          {TABS.map((tab) => {
            const current = tab.status === status;
            return (
              <button
                key={tab.label}
                type="button"
                aria-pressed={current ? "true" : "false"}
                disabled={!hydrated}
                onClick={() => setStatus(tab.status)}
                class={`rounded-full px-3 py-1.5 text-sm font-medium ${
                  current ? "bg-indigo-700 text-white" : "border border-slate-400 bg-white text-slate-800"
                } disabled:cursor-not-allowed`}
              >
                {tab.label} <span class="tabular-nums">({countOf(page.counts, tab.status)})</span>
              </button>
            );
          })}
        </div>
        <div role="search">
          <ListSearch id="outbox-search" label="Search by recipient" list={list} maxLength={100} />
        </div>
      </div>
      <AdminTable
        list={list}
        loadingText="Loading e-mails…"
        loadErrorTitle="We could not load the outbox"
        rowErrorTitle="The e-mail was not retried"
        retry
        label="E-mails"
        caption="E-mails in the outbox, newest first"
        columns={[
          { label: "E-mail" },
          { label: "Status" },
          { label: "Last error" },
          { label: "Actions", hidden: true },
        ]}
        empty="No e-mails match."
      >
        {rows.map((row) => (
          <tr key={row.id} class="align-top">
            <th scope="row" class="px-4 py-3 font-normal text-slate-800">
              <span class="block font-medium text-slate-900">{row.to}</span>
              {row.subject}
            </th>
            <Cell label="Status" class="min-w-44">
              <span class={`rounded-full px-2 py-0.5 text-xs font-semibold ${BADGE[row.status]}`}>{row.status}</span>
              <span class="mt-1 block text-xs text-slate-700">
                {`queued ${formatDateTime(row.createdAt)} · `}
                {row.attempts === 1 ? "1 try" : `${row.attempts} tries`}
                {row.sentAt ? ` · sent ${formatDateTime(row.sentAt)}` : ""}
                {row.status === "pending" && row.dueAt ? ` · next ${formatDateTime(row.dueAt)}` : ""}
              </span>
            </Cell>
            <Cell label="Last error" class="max-w-xs text-slate-700">
              {row.lastError ?? "—"}
            </Cell>
            <Cell>
              {row.status === "failed" && !row.canRetry && (
                <span class="block max-w-40 text-xs text-slate-700 max-lg:max-w-none">
                  Held a single-use link: not kept, so it cannot be sent again
                </span>
              )}
              {row.canRetry && (
                <button
                  type="button"
                  class={SECONDARY_BUTTON}
                  disabled={!hydrated || retrying !== null}
                  aria-label={`Retry the e-mail to ${row.to}`}
                  onClick={() => retry(row)}
                >
                  {retrying === row.id ? "Retrying…" : "Retry"}
                </button>
              )}
            </Cell>
          </tr>
        ))}
      </AdminTable>
      <ListPages
        label="Pages of e-mails"
        list={list}
        pageSize={PAGE_SIZE}
        shown={rows.length}
        total={page.pagination.total}
        hasMore={page.pagination.hasMore}
        disabled={!hydrated}
      />
    </div>
  );
}
