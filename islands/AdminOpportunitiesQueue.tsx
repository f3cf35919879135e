/**
 * The admin review queue of opportunities (`GET /api/admin/opportunities`): tabs per review state
 * (awaiting review, published, rejected, all) with their counts, a search by title, organizer or
 * place, pages of 20, each row's description and link (folded), why moderation holds a row (approving clears it), and
 * approve/reject per row without a reload (`PATCH /api/admin/opportunities/{id}` with the row's `updatedAt`: a row
 * changed since is refused and the rows are shown again as they are now; docs/decisions.md, Trust, "Decide what you
 * read"); the outcome is announced to screen readers. Reject opens a reason field: the submitter reads the reason
 * and may edit and submit again (docs/decisions.md, Opportunities, "Reject with a reason, resubmit"); a rejected row
 * shows its reason, a resubmitted one the reason it answers.
 */
import { useState } from "preact/hooks";
import { fetchJson, refusalPrefixes } from "@/lib/browser/fetch_json.ts";
import { ADMIN_LIST_TEXT, useAdminList } from "@/lib/browser/use_admin_list.ts";
import { ListMessages, ListSearch } from "@/components/AdminList.tsx";
import { INPUT, SECONDARY_BUTTON } from "@/lib/browser/styles.ts";
import { Pagination } from "@/components/Pagination.tsx";
import { pagePosition } from "@/lib/browser/pagination.ts";
import type { OpportunityPage, StatusCounts } from "@/lib/opportunities/opportunities.ts";
import type { OpportunityStatus, OpportunityView } from "@/lib/opportunities/schema.ts";
import { MODERATION_REASON_TEXT, moderationReasons } from "@/lib/browser/moderation_format.ts";
import { useT } from "@/lib/i18n/context.ts";
import { IslandTextProvider } from "@/lib/i18n/island_text.ts";
import type { IslandText } from "@/lib/i18n/translator.ts";

/** The messages this island uses (its `text`). */
export const ADMIN_OPPORTUNITIES_TEXT = [
  "admin.opportunities.",
  "admin.roles.",
  "opportunities.type.",
  "common.formerMember",
  ...MODERATION_REASON_TEXT,
  ...ADMIN_LIST_TEXT,
  ...refusalPrefixes("opportunityNotFound", "listingChanged"),
] as const;

type Status = OpportunityStatus | "all";
type Queue = OpportunityPage & { counts: StatusCounts };

const TABS: Status[] = ["pending", "approved", "rejected", "all"];
const PAGE_SIZE = 20;

/** The review state of a row, as the server's `statusOf`: one held by moderation awaits review. */
function stateOf(row: OpportunityView): OpportunityStatus {
  if (!row.isActive) return "rejected";
  return row.isVerified && row.moderation.status === "clear" ? "approved" : "pending";
}

/** Props: the messages (`ADMIN_OPPORTUNITIES_TEXT`). */
export default function AdminOpportunitiesQueue({ text }: { text: IslandText }) {
  return (
    <IslandTextProvider text={text}>
      <Queue />
    </IslandTextProvider>
  );
}

function Queue() {
  const t = useT();
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
      fetchJson(`/api/admin/opportunities/${row.id}`, {
        method: "PATCH",
        body: { action, reason, updatedAt: row.updatedAt },
      }),
      (error) => t("common.errors.fieldLine", { label: row.title, sentence: error }),
    );
    setBusyId("");
    // Refused (the submitter may have changed it since it was shown): the refusal stays, the rows show it as it is now.
    if (done === null) return list.reload();
    setRejecting(null);
    list.announce(
      t(action === "approve" ? "admin.opportunities.approvedDone" : "admin.opportunities.rejectedDone", {
        title: row.title,
      }),
    );
    list.reload();
  };

  const rows = list.rows ?? [];
  return (
    <div class="space-y-4">
      <div role="tablist" aria-label={t("admin.opportunities.states")} class="flex flex-wrap gap-2">
        {TABS.map((value) => (
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
            {t.dynamic(`admin.opportunities.tab.${value}`)}{" "}
            <span class="tabular-nums">({queue ? t.number(queue.counts[value]) : "…"})</span>
          </button>
        ))}
      </div>
      <div role="search" class="max-w-md">
        <ListSearch id="opportunity-queue-search" label={t("admin.opportunities.search")} list={list} />
      </div>
      <ListMessages
        list={list}
        loadErrorTitle={t("admin.opportunities.loadError")}
        rowErrorTitle={t("admin.opportunities.notSaved")}
      />
      <div role="tabpanel" aria-label={t("admin.opportunities.panel")}>
        <ul class="space-y-3">
          {rows.map((row) => (
            <li key={row.id} class="rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
              <div class="flex flex-wrap items-start justify-between gap-3">
                <div>
                  <p class="text-sm text-slate-700">
                    {t.dynamic(`opportunities.type.${row.type}`)} ·{" "}
                    {t("admin.opportunities.dates", { start: t.date(row.startDate), end: t.date(row.endDate) })}
                    {row.location ? ` · ${row.location}` : ""}
                  </p>
                  <h2 class="font-semibold text-slate-900">
                    <a href={`/opportunities/${row.id}`} class="hover:underline">{row.title}</a>
                  </h2>
                  <p class="text-sm text-slate-700">
                    {t(row.organizer ? "admin.opportunities.byFor" : "admin.opportunities.by", {
                      name: row.postedBy
                        ? `${row.postedBy.name} (${t.dynamic(`admin.roles.${row.postedBy.role}`)})`
                        : t("common.formerMember"),
                      organizer: row.organizer,
                    })}
                  </p>
                  {(row.description || row.link) && (
                    <details class="mt-1 text-sm [overflow-wrap:anywhere]">
                      <summary class="cursor-pointer text-indigo-700 underline">
                        {t("admin.opportunities.readText")}
                      </summary>
                      {row.description && <p class="mt-2 whitespace-pre-line text-slate-800">{row.description}</p>}
                      {row.link && (
                        <p class="mt-1 text-slate-800">{t("admin.opportunities.linkIs", { link: row.link })}</p>
                      )}
                    </details>
                  )}
                  {row.rejection && (
                    <p class="mt-1 text-sm text-slate-800">
                      {t(
                        stateOf(row) === "rejected"
                          ? "admin.opportunities.reasonGiven"
                          : "admin.opportunities.resubmitted",
                        { reason: row.rejection.reason ?? t("admin.opportunities.noReason") },
                      )}
                    </p>
                  )}
                  {row.moderation.reasons.length > 0 && (
                    <p class="mt-1 text-sm font-medium text-amber-900">
                      {t(
                        row.moderation.status === "held"
                          ? "admin.opportunities.held"
                          : "admin.opportunities.moderation",
                        {
                          reasons: moderationReasons(t, row.moderation.reasons),
                        },
                      )}
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
                      {t.rich("admin.opportunities.approve", {
                        title: () => <span class="sr-only">{` ${row.title}`}</span>,
                      })}
                    </button>
                  )}
                  {stateOf(row) !== "rejected" && rejecting?.id !== row.id && (
                    <button
                      type="button"
                      disabled={busyId === row.id}
                      onClick={() => setRejecting({ id: row.id, reason: "" })}
                      class={SECONDARY_BUTTON}
                    >
                      {t.rich("admin.opportunities.reject", {
                        title: () => <span class="sr-only">{` ${row.title}`}</span>,
                      })}
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
                    {t.rich("admin.opportunities.reasonLabel", {
                      title: () => (
                        <span class="sr-only">{t("admin.opportunities.reasonOf", { title: row.title })}</span>
                      ),
                    })}
                  </label>
                  <p id={`reason-${row.id}-hint`} class="text-sm text-slate-700">
                    {t("admin.opportunities.reasonHint")}
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
                      {t.rich(
                        rejecting.reason.trim()
                          ? "admin.opportunities.rejectWith"
                          : "admin.opportunities.rejectWithout",
                        { title: () => <span class="sr-only">{`: ${row.title}`}</span> },
                      )}
                    </button>
                    <button type="button" class={SECONDARY_BUTTON} onClick={() => setRejecting(null)}>
                      {t("common.cancel")}
                    </button>
                  </div>
                </form>
              )}
            </li>
          ))}
        </ul>
      </div>
      {queue && rows.length === 0 && (
        <p class="rounded-lg border border-dashed border-slate-300 bg-white p-8 text-center text-slate-700">
          {t(query ? "admin.opportunities.noMatch" : "admin.opportunities.none")}
        </p>
      )}
      {queue && (
        <Pagination
          position={pagePosition(t, offset, rows.length, queue.pagination.total)}
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
