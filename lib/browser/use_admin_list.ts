/**
 * Browser-safe: the state every admin list island shares (docs/decisions.md, Admin lists). A search
 * box debounced by `SEARCH_DELAY_MS`; the list loaded from `path(...)` again whenever the search,
 * `filters` or the page offset change, an answer that arrives after a newer request was made
 * being dropped (a stale answer never overwrites a newer one); a change of search or filters
 * going back to the first page; the load error and the error of the last row action kept apart;
 * and one announcement line for screen readers (`role="status"`).
 */
import { type Dispatch, type StateUpdater, useEffect, useRef, useState } from "preact/hooks";
import { type ApiResult, failureMessage, fetchJson } from "@/lib/browser/fetch_json.ts";
import { useT } from "@/lib/i18n/context.ts";
import { useDebouncedValue } from "@/lib/browser/use_debounced_value.ts";

/**
 * The messages every admin list island passes on to the list parts of `components/AdminList.tsx` and its dialogs (an
 * island adds its own prefix, `fields.` when it has a form, and `DELETE_DIALOG_TEXT` when it deletes rows, beside the
 * hook that does, which a list without deletes does not bundle): the list's own words, the shared buttons (a dialog's
 * Cancel), pages and request errors.
 */
export const ADMIN_LIST_TEXT = [
  "admin.list.",
  "common.cancel",
  "common.tryAgain",
  "common.pagination.",
  "common.errors.",
] as const;

/** Wait after the last keystroke before searching, in ms. */
export const SEARCH_DELAY_MS = 300;

/** What the list is asked for: the debounced, trimmed search text and the page offset (0 without pages). */
export interface ListRequest {
  query: string;
  offset: number;
}

/** Options of `useAdminList`. */
export interface AdminListOptions<Row, Data> {
  /** The API path to load (a GET answering JSON `Data`); the island's own filters are read in the closure. */
  path: (request: ListRequest) => string;
  /** The rows of an answer. */
  rowsOf: (data: Data) => Row[];
  /** The island's other filters: a change loads the first page again. Values are compared as JSON. */
  filters?: readonly unknown[];
  /** Rows rendered by the server: shown at once, and the first load is skipped. */
  initial?: Row[];
  /** What to announce when an answer arrives (e.g. "12 posts shown."); nothing when absent. */
  loaded?: (data: Data) => string;
  /** The search and page offset `initial` answers (a page opened with them in its query); none and 0 when absent. */
  start?: ListRequest;
}

/** The list's state and its actions. */
export interface AdminList<Row extends { id: string }, Data> {
  search: string;
  setSearch: (text: string) => void;
  /** The search as last sent: trimmed and debounced. */
  query: string;
  offset: number;
  setOffset: (offset: number) => void;
  /** The rows shown; null until the first answer. */
  rows: Row[] | null;
  /** The last answer (for counts and totals); null until the first one. */
  data: Data | null;
  /** True while a load is under way. */
  loading: boolean;
  loadError: string;
  /** The error of the last row action or form, already worded for the person. */
  rowError: string;
  setRowError: (text: string) => void;
  announcement: string;
  announce: (text: string) => void;
  /** Loads the current page again. */
  reload: () => void;
  setRows: Dispatch<StateUpdater<Row[] | null>>;
  /** Puts `row` in place of the row with its id (fields missing from `row` are kept). */
  replaceRow: (row: Partial<Row> & { id: string }) => void;
  /** Takes the row with this id out of the list. */
  dropRow: (id: string) => void;
  /**
   * Runs a row action: clears the row error, awaits `call`, and returns its data, or null after
   * setting the row error to `failure(error)` (the error itself when absent), `error` the refusal in the island's
   * language (`failureMessage`).
   */
  run: <T>(call: Promise<ApiResult<T>>, failure?: (error: string) => string) => Promise<T | null>;
}

export function useAdminList<Row extends { id: string }, Data>(
  options: AdminListOptions<Row, Data>,
): AdminList<Row, Data> {
  const { path, rowsOf, filters = [], initial, loaded, start } = options;
  const t = useT();
  const [search, setSearch] = useState(start?.query ?? "");
  const query = useDebouncedValue(search, SEARCH_DELAY_MS);
  const [offset, setOffset] = useState(start?.offset ?? 0);
  const [rows, setRows] = useState<Row[] | null>(initial ?? null);
  const [data, setData] = useState<Data | null>(null);
  const [loading, setLoading] = useState(!initial);
  const [loadError, setLoadError] = useState("");
  const [rowError, setRowError] = useState("");
  const [announcement, announce] = useState("");
  const [reloads, setReloads] = useState(0);
  const latest = useRef(0);
  const skipFirst = useRef(!!initial);
  const filterKey = JSON.stringify([query, ...filters]);
  const lastFilterKey = useRef(filterKey);

  useEffect(() => {
    const request = ++latest.current;
    if (lastFilterKey.current !== filterKey) {
      lastFilterKey.current = filterKey;
      if (offset !== 0) return setOffset(0);
    }
    if (skipFirst.current) {
      skipFirst.current = false;
      return;
    }
    setLoading(true);
    fetchJson<Data>(path({ query, offset })).then((result) => {
      if (request !== latest.current) return;
      setLoading(false);
      setLoadError(result.ok ? "" : failureMessage(t, result));
      if (!result.ok) return;
      setData(result.data);
      setRows(rowsOf(result.data));
      if (loaded) announce(loaded(result.data));
    });
  }, [filterKey, offset, reloads]);

  const run = async <T>(call: Promise<ApiResult<T>>, failure = (error: string) => error) => {
    setRowError("");
    const result = await call;
    if (result.ok) return result.data;
    setRowError(failure(failureMessage(t, result)));
    return null;
  };

  return {
    search,
    setSearch,
    query,
    offset,
    setOffset,
    rows,
    data,
    loading,
    loadError,
    rowError,
    setRowError,
    announcement,
    announce,
    reload: () => setReloads((n) => n + 1),
    setRows,
    replaceRow: (row) => setRows((all) => all && all.map((r) => r.id === row.id ? { ...r, ...row } : r)),
    dropRow: (id) => setRows((all) => all && all.filter((r) => r.id !== id)),
    run,
  };
}
