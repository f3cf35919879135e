/**
 * The admin review queue of opportunities (`GET /api/admin/opportunities`): tabs per review state
 * (awaiting review, published, rejected, all) with their counts, a search by title, organizer or
 * place, pages of 20, why moderation holds a row (approving clears it), and approve/reject per row
 * (`PATCH /api/admin/opportunities/{id}`) without a reload; the outcome is announced to screen readers.
 */
import { useState } from "preact/hooks";
import { fetchJson } from "@/lib/browser/fetch_json.ts";
import { useAdminList } from "@/lib/browser/use_admin_list.ts";
import { ListMessages, ListSearch } from "@/components/AdminList.tsx";
import { SECONDARY_BUTTON } from "@/lib/browser/styles.ts";
import { Pagination } from "@/components/Pagination.tsx";
import { pagePosition } from "@/lib/browser/pagination.ts";
import { FORMER_MEMBER } from "@/lib/users/roles.ts";
import type { OpportunityPage, StatusCounts } from "@/lib/opportunities/opportunities.ts";
import type { OpportunityStatus, OpportunityView } from "@/lib/opportunities/schema.ts";

type Status = OpportunityStatus | "all";
type Queue = OpportunityPage & { counts: StatusCounts };

const TABS: [Status, string][] = [["pending", "Awaiting review"], ["approved", "Published"], [
  "rejected",
  "Rejected",
], ["all", "All"]];
const PAGE_SIZE = 20;

/** The review state of a row, as the server's `statusOf`: one held by moderation awaits review. */
function stateOf(row: OpportunityView): OpportunityStatus {
  if (!row.isActive) return "rejected";
  return row.isVerified && row.moderation.status === "clear" ? "approved" : "pending";
}

export default function AdminOpportunitiesQueue() {
  const [status, setStatus] = useState<Status>("pending");
  const [busyId, setBusyId] = useState("");
  const list = useAdminList<OpportunityView, Queue>({
    path: ({ query, offset }) => {
      const params = new URLSearchParams({ status, limit: String(PAGE_SIZE), offset: String(offset) });
      if (query) params.set("search", query);
      return `/api/admin/opportunities?${params}`;
    },
    rowsOf: (data) => data.opportunities,
    filters: [status],
  });
  const { query, offset, setOffset, data: queue } = list;

  const review = async (row: OpportunityView, action: "approve" | "reject") => {
    setBusyId(row.id);
    const done = await list.run(
      fetchJson(`/api/admin/opportunities/${row.id}`, { method: "PATCH", body: { action } }),
      (error) => `${row.title}: ${error}`,
    );
    setBusyId("");
    if (done === null) return;
    list.announce(`${row.title} ${action === "approve" ? "approved and published" : "rejected"}.`);
    list.reload();
  };

  const rows = list.rows ?? [];
  return (
    <div class="space-y-4">
      <div role="tablist" aria-label="Review state" class="flex flex-wrap gap-2">
        {TABS.map(([value, label]) => (
          <button
            key={value}
            type="button"
            role="tab"
            aria-selected={status === value}
            onClick={() => setStatus(value)}
            class={`rounded-full px-4 py-1.5 text-sm font-medium ring-1 ring-inset ${
              status === value ? "bg-indigo-700 text-white ring-indigo-700" : "bg-white text-slate-800 ring-slate-300"
            }`}
          >
            {label} <span class="tabular-nums">({queue ? queue.counts[value] : "…"})</span>
          </button>
        ))}
      </div>
      <div role="search" class="max-w-md">
        <ListSearch id="opportunity-queue-search" label="Search by title, organizer or place" list={list} />
      </div>
      <ListMessages list={list} loadErrorTitle="The queue did not load" rowErrorTitle="The review was not saved" />
      <div role="tabpanel" aria-label="Opportunities">
        <ul class="space-y-3">
          {rows.map((row) => (
            <li key={row.id} class="rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
              <div class="flex flex-wrap items-start justify-between gap-3">
                <div>
                  <p class="text-sm text-slate-700">
                    {row.type} · {row.startDate} to {row.endDate}
                    {row.location ? ` · ${row.location}` : ""}
                  </p>
                  <h2 class="font-semibold text-slate-900">
                    <a href={`/opportunities/${row.id}`} class="hover:underline">{row.title}</a>
                  </h2>
                  <p class="text-sm text-slate-700">
                    By {row.postedBy ? `${row.postedBy.name} (${row.postedBy.role})` : FORMER_MEMBER}
                    {row.organizer ? ` for ${row.organizer}` : ""}
                  </p>
                  {row.moderation.reasons.length > 0 && (
                    <p class="mt-1 text-sm font-medium text-amber-900">
                      {row.moderation.status === "held" ? "Held: " : "Moderation: "}
                      {row.moderation.reasons.join("; ")}
                    </p>
                  )}
                </div>
                <div class="flex gap-2">
                  {stateOf(row) !== "approved" && (
                    <button
                      type="button"
                      disabled={busyId === row.id}
                      onClick={() => review(row, "approve")}
                      class="rounded-md bg-indigo-700 px-3 py-1.5 text-sm font-medium text-white hover:bg-indigo-800 disabled:opacity-60"
                    >
                      Approve<span class="sr-only">{` ${row.title}`}</span>
                    </button>
                  )}
                  {stateOf(row) !== "rejected" && (
                    <button
                      type="button"
                      disabled={busyId === row.id}
                      onClick={() => review(row, "reject")}
                      class={SECONDARY_BUTTON}
                    >
                      Reject<span class="sr-only">{` ${row.title}`}</span>
                    </button>
                  )}
                </div>
              </div>
            </li>
          ))}
        </ul>
      </div>
      {queue && rows.length === 0 && (
        <p class="rounded-lg border border-dashed border-slate-300 bg-white p-8 text-center text-slate-700">
          {query ? "No opportunities match this search." : "Nothing here."}
        </p>
      )}
      {queue && (
        <Pagination
          position={pagePosition(offset, rows.length, queue.pagination.total)}
          prev={offset > 0
            ? {
              href: "#",
              onClick: (e) => {
                e.preventDefault();
                setOffset(Math.max(0, offset - PAGE_SIZE));
              },
            }
            : null}
          next={offset + PAGE_SIZE < queue.pagination.total
            ? {
              href: "#",
              onClick: (e) => {
                e.preventDefault();
                setOffset(offset + PAGE_SIZE);
              },
            }
            : null}
        />
      )}
    </div>
  );
}
