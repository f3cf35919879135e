/**
 * The admin toolkits table (docs/api.md, Admin, states "Toolkit"; docs/decisions.md, Toolkits and payments):
 * search by title (debounced), the active and Sale-badge switches per row
 * (`PUT /api/admin/toolkits/{id}`), and delete after a confirmation dialog (its lessons and
 * progress go; purchases stay). Loading, changes and errors are announced.
 */
import { useEffect, useRef, useState } from "preact/hooks";
import { fetchJson } from "@/lib/browser/fetch_json.ts";
import { useDebouncedValue } from "@/lib/browser/use_debounced_value.ts";
import { ConfirmDialog } from "@/components/ConfirmDialog.tsx";
import { Notice } from "@/components/forms.tsx";
import { formatRupees } from "@/lib/money.ts";
import { RowDeleteButton, Switch } from "@/components/RowControls.tsx";

interface Row {
  id: string;
  title: string;
  price: number;
  lessonCount: number;
  isActive: boolean;
  showSaleBadge: boolean | null;
  category: string | null;
}

const SEARCH_DELAY_MS = 300;

export default function AdminToolkitsTable() {
  const [search, setSearch] = useState("");
  const query = useDebouncedValue(search, SEARCH_DELAY_MS);
  const [rows, setRows] = useState<Row[] | null>(null);
  const [loadError, setLoadError] = useState("");
  const [announcement, setAnnouncement] = useState("");
  const [rowError, setRowError] = useState("");
  const [deleting, setDeleting] = useState<Row | null>(null);
  const [busy, setBusy] = useState(false);
  const latest = useRef(0);

  useEffect(() => {
    const request = ++latest.current;
    const params = query ? `?${new URLSearchParams({ search: query })}` : "";
    fetchJson<{ toolkits: Row[] }>(`/api/admin/toolkits${params}`).then((result) => {
      if (request !== latest.current) return;
      if (result.ok) {
        setRows(result.data.toolkits);
        setLoadError("");
      } else setLoadError(result.error);
    });
  }, [query]);

  const toggle = async (row: Row, field: "isActive" | "showSaleBadge", value: boolean) => {
    setRowError("");
    const result = await fetchJson<Row>(`/api/admin/toolkits/${row.id}`, { method: "PUT", body: { [field]: value } });
    if (!result.ok) {
      setRowError(`${row.title}: ${result.error}`);
      return;
    }
    setRows((current) => current && current.map((r) => r.id === row.id ? { ...r, ...result.data } : r));
    const what = field === "isActive"
      ? (value ? "is now active" : "is now inactive")
      : (value ? "shows the Sale badge" : "hides the Sale badge");
    setAnnouncement(`${row.title} ${what}.`);
  };

  const remove = async () => {
    if (!deleting) return;
    setBusy(true);
    const result = await fetchJson(`/api/admin/toolkits/${deleting.id}`, { method: "DELETE" });
    setBusy(false);
    if (!result.ok) {
      setRowError(result.error);
      setDeleting(null);
      return;
    }
    setRows((current) => current && current.filter((r) => r.id !== deleting.id));
    setAnnouncement(`${deleting.title} was deleted.`);
    setDeleting(null);
  };

  return (
    <div class="space-y-4">
      <div role="search">
        <label for="toolkit-search" class="block text-sm font-medium text-slate-800">Search by title</label>
        <input
          id="toolkit-search"
          type="search"
          value={search}
          maxLength={100}
          onInput={(e) => setSearch(e.currentTarget.value)}
          class="mt-1 block w-full max-w-md rounded-md border border-slate-400 bg-white px-3 py-2 text-slate-900 shadow-sm focus:border-indigo-600 focus:outline-none focus:ring-2 focus:ring-indigo-600/40"
        />
      </div>
      <p role="status" class="min-h-5 text-sm text-slate-700">{rows === null ? "Loading toolkits…" : announcement}</p>
      {loadError && <Notice kind="error" title="We could not load the toolkits">{loadError}</Notice>}
      {rowError && <Notice kind="error" title="The change was not saved">{rowError}</Notice>}
      <div
        class="relative overflow-x-auto rounded-lg border border-slate-200 bg-white shadow-sm"
        role="region"
        aria-label="Toolkits"
        tabIndex={0}
      >
        <table class="min-w-full divide-y divide-slate-200 text-left text-sm">
          <caption class="sr-only">Toolkits, newest first</caption>
          <thead class="bg-slate-100 text-slate-800">
            <tr>
              <th scope="col" class="px-4 py-3 font-semibold">Title</th>
              <th scope="col" class="px-4 py-3 font-semibold">Price</th>
              <th scope="col" class="hidden px-4 py-3 font-semibold sm:table-cell">Lessons</th>
              <th scope="col" class="px-4 py-3 font-semibold">Active</th>
              <th scope="col" class="px-4 py-3 font-semibold">Sale badge</th>
              <th scope="col" class="px-4 py-3 font-semibold">
                <span class="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody class="divide-y divide-slate-200 text-slate-800">
            {(rows ?? []).map((row) => (
              <tr key={row.id}>
                <th scope="row" class="px-4 py-3 font-medium">
                  <a href={`/admin/toolkits/${row.id}`} class="text-indigo-700 underline">{row.title}</a>
                  {row.category && <span class="block font-normal text-slate-700">{row.category}</span>}
                </th>
                <td class="px-4 py-3 whitespace-nowrap">{formatRupees(row.price)}</td>
                <td class="hidden px-4 py-3 sm:table-cell">{row.lessonCount}</td>
                <td class="px-4 py-3">
                  <Switch
                    label={`Active: ${row.title}`}
                    checked={row.isActive}
                    onChange={(on) => toggle(row, "isActive", on)}
                  />
                </td>
                <td class="px-4 py-3">
                  <Switch
                    label={`Sale badge: ${row.title}`}
                    checked={row.showSaleBadge === true}
                    onChange={(on) => toggle(row, "showSaleBadge", on)}
                  />
                </td>
                <td class="px-4 py-3 text-right">
                  <RowDeleteButton name={row.title} onClick={() => setDeleting(row)} />
                </td>
              </tr>
            ))}
            {rows !== null && rows.length === 0 && (
              <tr>
                <td colSpan={6} class="px-4 py-8 text-center text-slate-700">
                  {query ? "No toolkits match this search." : "There are no toolkits yet."}
                </td>
              </tr>
            )}
          </tbody>
        </table>
      </div>
      <ConfirmDialog
        open={deleting !== null}
        title="Delete this toolkit?"
        confirmLabel="Yes, delete"
        busyLabel="Deleting…"
        busy={busy}
        tone="danger"
        onConfirm={remove}
        onCancel={() => setDeleting(null)}
      >
        “{deleting?.title}” and all its lessons and learners' progress will be removed for good. Purchase records stay
        as payment history.
      </ConfirmDialog>
    </div>
  );
}
