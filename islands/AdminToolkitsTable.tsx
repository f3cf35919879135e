/**
 * The admin toolkits table (docs/api.md, Toolkits, "Toolkit states"; docs/decisions.md, Toolkits and payments):
 * search by title (debounced), the active and Sale-badge switches per row (`PUT /api/admin/toolkits/{id}`), and
 * delete after a confirmation dialog (its lessons and progress go; purchases stay). Loading, changes and errors
 * are announced.
 */
import { fetchJson } from "@/lib/browser/fetch_json.ts";
import { useAdminList } from "@/lib/browser/use_admin_list.ts";
import { useConfirmDelete } from "@/lib/browser/use_confirm_delete.ts";
import { ConfirmDialog } from "@/components/ConfirmDialog.tsx";
import { AdminTable, ListSearch } from "@/components/AdminList.tsx";
import { Cell } from "@/components/StackedTable.tsx";
import { formatRupees } from "@/lib/money.ts";
import { RowDeleteButton, Switch } from "@/components/RowControls.tsx";
import type { Toolkit } from "@/lib/toolkits/schema.ts";

export default function AdminToolkitsTable() {
  const list = useAdminList<Toolkit, { toolkits: Toolkit[] }>({
    path: ({ query }) => `/api/admin/toolkits${query ? `?${new URLSearchParams({ search: query })}` : ""}`,
    rowsOf: (data) => data.toolkits,
  });
  const remove = useConfirmDelete<Toolkit>({
    path: (toolkit) => `/api/admin/toolkits/${toolkit.id}`,
    deleted: (toolkit) => {
      list.dropRow(toolkit.id);
      list.announce(`${toolkit.title} was deleted.`);
    },
    failed: (_, error) => list.setRowError(error),
  });

  const toggle = async (row: Toolkit, field: "isActive" | "showSaleBadge", value: boolean) => {
    const saved = await list.run(
      fetchJson<Toolkit>(`/api/admin/toolkits/${row.id}`, { method: "PUT", body: { [field]: value } }),
      (error) => `${row.title}: ${error}`,
    );
    if (!saved) return;
    list.replaceRow(saved);
    const what = field === "isActive"
      ? (value ? "is now active" : "is now inactive")
      : (value ? "shows the Sale badge" : "hides the Sale badge");
    list.announce(`${row.title} ${what}.`);
  };

  return (
    <div class="space-y-4">
      <div role="search" class="max-w-md">
        <ListSearch id="toolkit-search" label="Search by title" list={list} maxLength={100} />
      </div>
      <AdminTable
        list={list}
        loadingText="Loading toolkits…"
        loadErrorTitle="We could not load the toolkits"
        rowErrorTitle="The change was not saved"
        label="Toolkits"
        caption="Toolkits, newest first"
        columns={[
          { label: "Title" },
          { label: "Price" },
          { label: "Lessons" },
          { label: "Active" },
          { label: "Sale badge" },
          { label: "Actions", hidden: true },
        ]}
        empty={list.query ? "No toolkits match this search." : "There are no toolkits yet."}
      >
        {(list.rows ?? []).map((row) => (
          <tr key={row.id}>
            <th scope="row" class="px-4 py-3 font-medium">
              <a href={`/admin/toolkits/${row.id}`} class="text-indigo-700 underline">{row.title}</a>
              {row.category && <span class="block font-normal text-slate-700">{row.category}</span>}
            </th>
            <Cell label="Price" class="whitespace-nowrap">{formatRupees(row.price)}</Cell>
            <Cell label="Lessons">{row.lessonCount}</Cell>
            <Cell label="Active">
              <Switch
                label={`Active: ${row.title}`}
                checked={row.isActive}
                onChange={(on) => toggle(row, "isActive", on)}
              />
            </Cell>
            <Cell label="Sale badge">
              <Switch
                label={`Sale badge: ${row.title}`}
                checked={row.showSaleBadge === true}
                onChange={(on) => toggle(row, "showSaleBadge", on)}
              />
            </Cell>
            <Cell class="lg:text-right">
              <RowDeleteButton name={row.title} onClick={() => remove.ask(row)} />
            </Cell>
          </tr>
        ))}
      </AdminTable>
      <ConfirmDialog {...remove.dialog} title="Delete this toolkit?">
        “{remove.target?.title}” and all its lessons and learners' progress will be removed for good. Purchase records
        stay as payment history.
      </ConfirmDialog>
    </div>
  );
}
