/**
 * The parts every admin list island draws the same way, over `useAdminList`'s state
 * (`lib/browser/use_admin_list.ts`): the search box, the status line that announces loading and
 * outcomes to screen readers, the load and row error notices, and the table under them, its rows stacked on a phone
 * (`components/StackedTable.tsx`), busy while a load runs, with its empty row. A list with pages adds `ListPages`
 * (`components/ListPages.tsx`, a module of its own, so a list without pages does not bundle it).
 */
import type { ComponentChildren } from "preact";
import { Notice, TextField } from "@/components/forms.tsx";
import { STACKED_TABLE } from "@/lib/browser/styles.ts";
import type { AdminList } from "@/lib/browser/use_admin_list.ts";
import { useT } from "@/lib/i18n/context.ts";

/** What the list parts (and `ListPages`, `components/ListPages.tsx`) read of `useAdminList`'s state. */
export type ListState = Pick<
  AdminList<{ id: string }, unknown>,
  | "search"
  | "setSearch"
  | "loading"
  | "announcement"
  | "loadError"
  | "rowError"
  | "reload"
  | "offset"
  | "setOffset"
  | "rows"
>;

/** The search box of an admin list, bound to the list's search text. */
export function ListSearch(
  { list, ...field }: { id: string; label: string; list: ListState; maxLength?: number },
) {
  return (
    <TextField
      {...field}
      type="search"
      value={list.search}
      onInput={(e) => list.setSearch(e.currentTarget.value)}
    />
  );
}

/** Props of `ListMessages`. */
export interface ListMessagesProps {
  list: ListState;
  /** The status line while a load runs (e.g. "Loading coupons…"); the last announcement stays without it. */
  loadingText?: string;
  loadErrorTitle: string;
  /** The title of a row action's error. */
  rowErrorTitle?: string;
  /** Whether the load error offers "Try again". */
  retry?: boolean;
}

/** The status line (announced to screen readers) and the load and row error notices of an admin list. */
export function ListMessages({ list, loadingText, loadErrorTitle, rowErrorTitle, retry = false }: ListMessagesProps) {
  const t = useT();
  return (
    <>
      <p role="status" class="min-h-5 text-sm text-slate-700">
        {list.loading && loadingText ? loadingText : list.announcement}
      </p>
      {list.loadError && (
        <Notice kind="error" title={loadErrorTitle}>
          {list.loadError}
          {retry && (
            <>
              {" "}
              <button type="button" class="font-medium underline" onClick={list.reload}>
                {t("common.tryAgain")}
              </button>
            </>
          )}
        </Notice>
      )}
      {list.rowError && <Notice kind="error" title={rowErrorTitle}>{list.rowError}</Notice>}
    </>
  );
}

/** A column heading; `hidden` keeps the heading for screen readers only (e.g. "Actions"). */
export interface Column {
  label: string;
  hidden?: boolean;
}

/** Props of `AdminTable`: the list's messages (`ListMessages`), and the table's. */
export interface AdminTableProps extends ListMessagesProps {
  /** The region's name, e.g. "Coupons". */
  label: string;
  /** The table's caption for screen readers, e.g. "Coupons, newest first". */
  caption: string;
  columns: Column[];
  /** The text of the row shown in place of rows when a finished load found none, e.g. "No coupons match." */
  empty: string;
  /** The rows. */
  children: ComponentChildren;
}

/**
 * An admin list's messages, then its table: a focusable region that scrolls sideways if a wide screen is still too
 * narrow, a caption, headings and rows (stacked below `md`), dimmed and marked busy while a load runs, and the `empty`
 * row when a load found no rows.
 */
export function AdminTable({ label, caption, columns, empty, children, ...messages }: AdminTableProps) {
  const { list } = messages;
  const busy = list.loading;
  const none = !busy && !list.loadError && (list.rows?.length ?? 0) === 0;
  return (
    <>
      <ListMessages {...messages} />
      <div
        class="relative overflow-x-auto rounded-lg border border-slate-200 bg-white shadow-sm"
        role="region"
        aria-label={label}
        aria-busy={busy ? "true" : undefined}
        tabIndex={0}
      >
        <table class={`min-w-full divide-y divide-slate-200 text-left text-sm ${STACKED_TABLE}`}>
          <caption class="sr-only">{caption}</caption>
          <thead class="bg-slate-100 text-slate-800">
            <tr>
              {columns.map((c) => (
                <th key={c.label} scope="col" class="px-4 py-3 font-semibold">
                  {c.hidden ? <span class="sr-only">{c.label}</span> : c.label}
                </th>
              ))}
            </tr>
          </thead>
          <tbody class={`divide-y divide-slate-200 text-slate-800 ${busy ? "opacity-60" : ""}`}>
            {children}
            {none && (
              <tr>
                <td colSpan={columns.length} class="px-4 py-8 text-center text-slate-700">{empty}</td>
              </tr>
            )}
          </tbody>
        </table>
      </div>
    </>
  );
}
