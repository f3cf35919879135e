/**
 * The admin review queue of opportunities (`GET /api/admin/opportunities`): tabs per review state
 * (awaiting review, published, rejected, all) with their counts, a search by title, organizer or
 * place, pages of 20, and approve/reject per row (`PATCH /api/admin/opportunities/{id}`) without a
 * reload; the outcome is announced to screen readers.
 */
import { useEffect, useRef, useState } from "preact/hooks";
import { fetchJson } from "@/lib/browser/fetch_json.ts";
import { Notice, SECONDARY_BUTTON, TextField } from "@/components/forms.tsx";
import { pagePosition, Pagination } from "@/components/Pagination.tsx";
import { useDebouncedValue } from "@/lib/browser/use_debounced_value.ts";
import { FORMER_MEMBER } from "@/lib/users/roles.ts";

type Status = "pending" | "approved" | "rejected" | "all";
type Counts = Record<Status, number>;

interface Row {
  id: string;
  title: string;
  type: string;
  startDate: string;
  endDate: string;
  location: string | null;
  organizer: string | null;
  isVerified: boolean;
  isActive: boolean;
  postedBy: { name: string; role: string } | null;
}

interface Queue {
  opportunities: Row[];
  pagination: { offset: number; total: number };
  counts: Counts;
}

const TABS: [Status, string][] = [["pending", "Awaiting review"], ["approved", "Published"], [
  "rejected",
  "Rejected",
], ["all", "All"]];
const PAGE_SIZE = 20;
const SEARCH_DELAY_MS = 300;

function stateOf(row: Row): Exclude<Status, "all"> {
  if (!row.isActive) return "rejected";
  return row.isVerified ? "approved" : "pending";
}

export default function AdminOpportunitiesQueue() {
  const [status, setStatus] = useState<Status>("pending");
  const [search, setSearch] = useState("");
  const query = useDebouncedValue(search, SEARCH_DELAY_MS);
  const [offset, setOffset] = useState(0);
  const [queue, setQueue] = useState<Queue | null>(null);
  const [loadError, setLoadError] = useState("");
  const [rowError, setRowError] = useState("");
  const [announcement, setAnnouncement] = useState("");
  const [busyId, setBusyId] = useState("");
  const [reload, setReload] = useState(0);
  const latest = useRef(0);

  useEffect(() => setOffset(0), [query, status]);

  useEffect(() => {
    const request = ++latest.current;
    const params = new URLSearchParams({ status, limit: String(PAGE_SIZE), offset: String(offset) });
    if (query) params.set("search", query);
    fetchJson<Queue>(`/api/admin/opportunities?${params}`).then((result) => {
      if (request !== latest.current) return;
      if (result.ok) {
        setQueue(result.data);
        setLoadError("");
      } else setLoadError(result.error);
    });
  }, [status, query, offset, reload]);

  const review = async (row: Row, action: "approve" | "reject") => {
    setBusyId(row.id);
    setRowError("");
    const result = await fetchJson(`/api/admin/opportunities/${row.id}`, { method: "PATCH", body: { action } });
    setBusyId("");
    if (!result.ok) return setRowError(`${row.title}: ${result.error}`);
    setAnnouncement(`${row.title} ${action === "approve" ? "approved and published" : "rejected"}.`);
    setReload((n) => n + 1);
  };

  const rows = queue?.opportunities ?? [];
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
      <div class="max-w-md">
        <TextField
          id="opportunity-queue-search"
          label="Search by title, organizer or place"
          type="search"
          value={search}
          onInput={(e) => setSearch(e.currentTarget.value)}
        />
      </div>
      <p role="status" class="sr-only">{announcement}</p>
      {loadError && <Notice kind="error" title="The queue did not load">{loadError}</Notice>}
      {rowError && <Notice kind="error" title="The review was not saved">{rowError}</Notice>}
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
