/**
 * The admin review queue of opportunities (`GET /api/admin/opportunities`): tabs per review state
 * (awaiting review, published, rejected, all) with their counts, a search by title, organizer or
 * place, pages of 20, why moderation holds a row (approving clears it), and approve/reject per row
 * (`PATCH /api/admin/opportunities/{id}`) without a reload; the outcome is announced to screen readers. Reject opens
 * a reason field: the submitter reads the reason and may edit and submit again (docs/decisions.md, Opportunities,
 * "Reject with a reason, resubmit"); a rejected row shows its reason, a resubmitted one the reason it answers.
 */
import { useState } from "preact/hooks";
import { fetchJson } from "@/lib/browser/fetch_json.ts";
import { useAdminList } from "@/lib/browser/use_admin_list.ts";
import { ListMessages, ListSearch } from "@/components/AdminList.tsx";
import { INPUT, SECONDARY_BUTTON } from "@/lib/browser/styles.ts";
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
  /** The row whose reject form is open, and the reason typed there. */
  const [rejecting, setRejecting] = useState<{ id: string; reason: string } | null>(null);
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

  const review = async (row: OpportunityView, action: "approve" | "reject", reason?: string) => {
    setBusyId(row.id);
    const done = await list.run(
      fetchJson(`/api/admin/opportunities/${row.id}`, { method: "PATCH", body: { action, reason } }),
      (error) => `${row.title}: ${error}`,
    );
    setBusyId("");
    if (done === null) return;
    setRejecting(null);
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
                  {row.rejection && (
                    <p class="mt-1 text-sm text-slate-800">
                      {stateOf(row) === "rejected" ? "Reason given: " : "Resubmitted after rejection: "}
                      {row.rejection.reason ?? "no reason given"}
                    </p>
                  )}
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
                  {stateOf(row) !== "rejected" && rejecting?.id !== row.id && (
                    <button
                      type="button"
                      disabled={busyId === row.id}
                      onClick={() => setRejecting({ id: row.id, reason: "" })}
                      class={SECONDARY_BUTTON}
                    >
                      Reject<span class="sr-only">{` ${row.title}`}</span>
                    </button>
                  )}
                </div>
              </div>
              {rejecting?.id === row.id && (
                <form
                  class="mt-3 space-y-2"
                  onSubmit={(e) => {
                    e.preventDefault();
                    review(row, "reject", rejecting.reason);
                  }}
                >
                  <label for={`reason-${row.id}`} class="block text-sm font-medium text-slate-800">
                    Reason for the submitter<span class="sr-only">{` of ${row.title}`}</span>
                  </label>
                  <p id={`reason-${row.id}-hint`} class="text-sm text-slate-700">
                    They read it with the notification and can edit the submission and send it again.
                  </p>
                  <textarea
                    id={`reason-${row.id}`}
                    rows={3}
                    maxLength={1000}
                    value={rejecting.reason}
                    aria-describedby={`reason-${row.id}-hint`}
                    onInput={(e) => setRejecting({ id: row.id, reason: e.currentTarget.value })}
                    class={INPUT}
                  />
                  <div class="flex flex-wrap gap-2">
                    <button
                      type="submit"
                      disabled={busyId === row.id}
                      class="rounded-md bg-red-700 px-3 py-1.5 text-sm font-medium text-white hover:bg-red-800 disabled:opacity-60"
                    >
                      {rejecting.reason.trim() ? "Reject with this reason" : "Reject without a reason"}
                      <span class="sr-only">{`: ${row.title}`}</span>
                    </button>
                    <button type="button" class={SECONDARY_BUTTON} onClick={() => setRejecting(null)}>Cancel</button>
                  </div>
                </form>
              )}
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
          position={pagePosition(null, offset, rows.length, queue.pagination.total)}
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
