/**
 * The admin review queue of opportunities (`GET /api/admin/opportunities`): tabs per review state
 * (awaiting review, published, rejected, all) with their counts, a search by title, organizer or
 * place, pages of 20, each row's description and link (folded), why moderation holds a row (approving clears it), and
 * approve/reject per row without a reload (`PATCH /api/admin/opportunities/{id}` with the row's `updatedAt`: a row
 * changed since is refused and the rows are shown again as they are now; docs/decisions.md, Trust, "Decide what you
 * read"); the outcome is announced to screen readers. Reject opens a reason field: the submitter reads the reason
 * and may edit and submit again (docs/decisions.md, Opportunities, "Reject with a reason, resubmit"); a rejected row
 * shows its reason, a resubmitted one the reason it answers.
 *
 * Without JavaScript (docs/decisions.md, Islands, "Forms work without JavaScript") the page renders the queue its query
 * asks for (`routes/admin/opportunities.tsx`): the search is a `GET` form (its "Search" keeping the tab), the tabs
 * its submit buttons, Previous and Next links; a row's Approve posts a plain form to the page, and its Reject opens
 * the page with `?reject={id}`, where that row's reason form is a plain form posting to the page. Each keeps the
 * view's `status`, `search` and `offset`.
 */
import { useState } from "preact/hooks";
import { useHydrated } from "@/lib/browser/use_hydrated.ts";
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

/** A tab of the queue: a review state, or every state. */
export type QueueStatus = OpportunityStatus | "all";
/** A page of the queue with the count of each tab (`GET /api/admin/opportunities`). */
export type Queue = OpportunityPage & { counts: StatusCounts };

/** The tabs, in order. */
export const QUEUE_TABS: QueueStatus[] = ["pending", "approved", "rejected", "all"];
/** Rows per page (the page's too). */
export const QUEUE_PAGE_SIZE = 20;
const PAGE_SIZE = QUEUE_PAGE_SIZE;
const ACTION = "/admin/opportunities";

/** The fields of the page's view (tab, search, page) that its plain forms carry, each when not the default. */
function viewOf(status: QueueStatus, search: string, offset: number): [string, string][] {
  const all: [string, string][] = [["status", status === "pending" ? "" : status], ["search", search], [
    "offset",
    offset ? `${offset}` : "",
  ]];
  return all.filter(([, value]) => value);
}

/** The view's fields as hidden inputs. */
function ViewFields({ view }: { view: [string, string][] }) {
  return <>{view.map(([name, value]) => <input key={name} type="hidden" name={name} value={value} />)}</>;
}

/** The review state of a row, as the server's `statusOf`: one held by moderation awaits review. */
function stateOf(row: OpportunityView): OpportunityStatus {
  if (!row.isActive) return "rejected";
  return row.isVerified && row.moderation.status === "clear" ? "approved" : "pending";
}

/** Props of `AdminOpportunitiesQueue`. */
export interface QueueProps {
  /** The messages (`ADMIN_OPPORTUNITIES_TEXT`). */
  text: IslandText;
  /** The page the server read (its rows are in the page's HTML), of tab `status` and search `search` ("": none). */
  initial: Queue;
  status: QueueStatus;
  search: string;
  /** The row whose reject form opens with the page, and the reason it holds (a refused one's as sent). */
  rejecting: { id: string; reason: string } | null;
}

export default function AdminOpportunitiesQueue({ text, ...props }: QueueProps) {
  return (
    <IslandTextProvider text={text}>
      <QueueList {...props} />
    </IslandTextProvider>
  );
}

function QueueList({ initial, status: initialStatus, search, rejecting: initialRejecting }: Omit<QueueProps, "text">) {
  const t = useT();
  const hydrated = useHydrated();
  const [status, setStatus] = useState<QueueStatus>(initialStatus);
  const [busyId, setBusyId] = useState("");
  /** The row whose reject form is open, and the reason typed there. */
  const [rejecting, setRejecting] = useState(initialRejecting);
  const list = useAdminList<OpportunityView, Queue>({
    path: ({ query, offset }) => {
      const params = new URLSearchParams({ status, limit: String(PAGE_SIZE), offset: String(offset) });
      if (query) params.set("search", query);
      return `/api/admin/opportunities?${params}`;
    },
    rowsOf: (data) => data.opportunities,
    filters: [status],
    initial: initial.opportunities,
    start: { query: search, offset: initial.pagination.offset },
  });
  const { query, offset, setOffset } = list;
  const queue = list.data ?? initial;
  const view = viewOf(status, query, offset);
  /** The page's address for this view at `at`. */
  const href = (at: number) => `${ACTION}?${new URLSearchParams(viewOf(status, query, at))}`;
  const toPage = (at: number) => ({
    href: href(at),
    onClick: (e: MouseEvent) => {
      e.preventDefault();
      setOffset(at);
    },
  });

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
      <form
        id="opportunity-filters"
        method="get"
        action={ACTION}
        onSubmit={(e) => e.preventDefault()}
        role="search"
        class="flex max-w-md items-end gap-3"
      >
        <div class="flex-1">
          <ListSearch id="search" label={t("admin.opportunities.search")} list={list} />
        </div>
        {!hydrated && (
          <button type="submit" name="status" value={status} class={SECONDARY_BUTTON}>
            {t("admin.opportunities.searchSubmit")}
          </button>
        )}
      </form>
      <div role="tablist" aria-label={t("admin.opportunities.states")} class="flex flex-wrap gap-2">
        {QUEUE_TABS.map((value) => (
          <button
            key={value}
            type="submit"
            form="opportunity-filters"
            name="status"
            value={value}
            role="tab"
            aria-selected={status === value}
            onClick={(e) => {
              e.preventDefault();
              setStatus(value);
            }}
            class={`rounded-full px-4 py-1.5 text-sm font-medium ring-1 ring-inset ${
              status === value ? "bg-indigo-700 text-white ring-indigo-700" : "bg-white text-slate-800 ring-slate-300"
            }`}
          >
            {t.dynamic(`admin.opportunities.tab.${value}`)}{" "}
            <span class="tabular-nums">({t.number(queue.counts[value])})</span>
          </button>
        ))}
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
                <form method="post" action={ACTION} class="flex gap-2">
                  <input type="hidden" name="id" value={row.id} />
                  <input type="hidden" name="updatedAt" value={row.updatedAt} />
                  <ViewFields view={view} />
                  {stateOf(row) !== "approved" && (
                    <button
                      type="submit"
                      name="action"
                      value="approve"
                      disabled={busyId === row.id}
                      onClick={(e) => {
                        e.preventDefault();
                        review(row, "approve");
                      }}
                      class="rounded-md bg-indigo-700 px-3 py-1.5 text-sm font-medium text-white hover:bg-indigo-800 disabled:opacity-60"
                    >
                      {t.rich("admin.opportunities.approve", {
                        title: () => <span class="sr-only">{` ${row.title}`}</span>,
                      })}
                    </button>
                  )}
                  {stateOf(row) !== "rejected" && rejecting?.id !== row.id && (
                    <button
                      type="submit"
                      formMethod="get"
                      formAction={`${ACTION}#reason-${row.id}`}
                      name="reject"
                      value={row.id}
                      disabled={busyId === row.id}
                      onClick={(e) => {
                        e.preventDefault();
                        setRejecting({ id: row.id, reason: "" });
                      }}
                      class={SECONDARY_BUTTON}
                    >
                      {t.rich("admin.opportunities.reject", {
                        title: () => <span class="sr-only">{` ${row.title}`}</span>,
                      })}
                    </button>
                  )}
                </form>
              </div>
              {rejecting?.id === row.id && (
                <form
                  method="post"
                  action={ACTION}
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
                  <input type="hidden" name="id" value={row.id} />
                  <input type="hidden" name="updatedAt" value={row.updatedAt} />
                  <input type="hidden" name="action" value="reject" />
                  <ViewFields view={view} />
                  <textarea
                    id={`reason-${row.id}`}
                    name="reason"
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
                        !hydrated
                          ? "admin.opportunities.rejectSubmit"
                          : rejecting.reason.trim()
                          ? "admin.opportunities.rejectWith"
                          : "admin.opportunities.rejectWithout",
                        { title: () => <span class="sr-only">{`: ${row.title}`}</span> },
                      )}
                    </button>
                    <a
                      href={href(offset)}
                      class={SECONDARY_BUTTON}
                      onClick={(e) => {
                        e.preventDefault();
                        setRejecting(null);
                      }}
                    >
                      {t("common.cancel")}
                    </a>
                  </div>
                </form>
              )}
            </li>
          ))}
        </ul>
      </div>
      {rows.length === 0 && !list.loading && (
        <p class="rounded-lg border border-dashed border-slate-300 bg-white p-8 text-center text-slate-700">
          {t(query ? "admin.opportunities.noMatch" : "admin.opportunities.none")}
        </p>
      )}
      <Pagination
        position={pagePosition(t, offset, rows.length, queue.pagination.total)}
        prev={offset > 0 ? toPage(Math.max(0, offset - PAGE_SIZE)) : null}
        next={queue.pagination.hasMore ? toPage(offset + PAGE_SIZE) : null}
      />
    </div>
  );
}
