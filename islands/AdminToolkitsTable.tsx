/**
 * The admin toolkits table (docs/api.md, Toolkits, "Toolkit states"; docs/decisions.md, Toolkits and payments):
 * search by title (debounced), the active and Sale-badge switches per row (`PUT /api/admin/toolkits/{id}`), and
 * delete after a confirmation dialog (its lessons and progress go; purchases stay). Loading, changes and errors
 * are announced. The page renders the rows first; until hydrated a row's switches are a plain form with a Save button
 * (carrying the values they were drawn with, so it saves only what was changed) and its Delete a link to the page's confirmation (`routes/admin/toolkits/index.tsx`).
 */
import { fetchJson, refusalPrefixes } from "@/lib/browser/fetch_json.ts";
import { ADMIN_LIST_TEXT, useAdminList } from "@/lib/browser/use_admin_list.ts";
import { DELETE_DIALOG_TEXT, useConfirmDelete } from "@/lib/browser/use_confirm_delete.ts";
import { listAddress } from "@/lib/browser/list_address.ts";
import { ConfirmDialog } from "@/components/ConfirmDialog.tsx";
import { AdminTable, ListSearch } from "@/components/AdminList.tsx";
import { Cell } from "@/components/StackedTable.tsx";
import { RowDeleteButton, Switch } from "@/components/RowControls.tsx";
import { RowDeleteLink } from "@/components/RowDeleteLink.tsx";
import { useHydrated } from "@/lib/browser/use_hydrated.ts";
import { SECONDARY_BUTTON } from "@/lib/browser/styles.ts";
import type { Toolkit } from "@/lib/toolkits/schema.ts";
import { useT } from "@/lib/i18n/context.ts";
import { IslandTextProvider } from "@/lib/i18n/island_text.ts";
import type { IslandText } from "@/lib/i18n/translator.ts";

/** The messages this island uses (its `text`). */
export const ADMIN_TOOLKITS_TEXT = [
  "admin.toolkits.",
  ...ADMIN_LIST_TEXT,
  ...DELETE_DIALOG_TEXT,
  ...refusalPrefixes("toolkitNotFound", "originalPriceBelowPrice"),
] as const;

/**
 * Props: the toolkits as the server read them, the search they answer ("": none; before hydration the search is a
 * `GET` form to the page), and the messages (`ADMIN_TOOLKITS_TEXT`).
 */
export default function AdminToolkitsTable(
  { text, initial, search }: { initial: Toolkit[]; search: string; text: IslandText },
) {
  return (
    <IslandTextProvider text={text}>
      <ToolkitsTable initial={initial} search={search} />
    </IslandTextProvider>
  );
}

function ToolkitsTable({ initial, search }: { initial: Toolkit[]; search: string }) {
  const t = useT();
  const hydrated = useHydrated();
  const list = useAdminList<Toolkit, { toolkits: Toolkit[] }>({
    path: ({ query }) => `/api/admin/toolkits${query ? `?${new URLSearchParams({ search: query })}` : ""}`,
    rowsOf: (data) => data.toolkits,
    initial,
    start: { query: search, offset: 0 },
  });
  const remove = useConfirmDelete<Toolkit>({
    path: (toolkit) => `/api/admin/toolkits/${toolkit.id}`,
    deleted: (toolkit) => {
      list.dropRow(toolkit.id);
      list.announce(t("admin.toolkits.deleted", { title: toolkit.title }));
    },
    failed: (_, error) => list.setRowError(error),
  });

  const toggle = async (row: Toolkit, field: "isActive" | "showSaleBadge", value: boolean) => {
    const saved = await list.run(
      fetchJson<Toolkit>(`/api/admin/toolkits/${row.id}`, { method: "PUT", body: { [field]: value } }),
      (error) => t("common.errors.fieldLine", { label: row.title, sentence: error }),
    );
    if (!saved) return;
    list.replaceRow(saved);
    const what = field === "isActive"
      ? (value ? "admin.toolkits.nowActive" : "admin.toolkits.nowInactive")
      : (value ? "admin.toolkits.showsSale" : "admin.toolkits.hidesSale");
    list.announce(t(what, { title: row.title }));
  };

  return (
    <div class="space-y-4">
      <form
        method="get"
        action="/admin/toolkits"
        onSubmit={(e) => e.preventDefault()}
        role="search"
        class="flex max-w-md items-end gap-3"
      >
        <div class="flex-1">
          <ListSearch id="search" label={t("admin.toolkits.search")} list={list} maxLength={100} />
        </div>
        {!hydrated && <button type="submit" class={SECONDARY_BUTTON}>{t("admin.toolkits.searchSubmit")}</button>}
      </form>
      <AdminTable
        list={list}
        loadingText={t("admin.toolkits.loading")}
        loadErrorTitle={t("admin.toolkits.loadError")}
        rowErrorTitle={t("admin.list.changeNotSaved")}
        label={t("admin.toolkits.label")}
        caption={t("admin.toolkits.caption")}
        columns={[
          { label: t("admin.toolkits.title") },
          { label: t("admin.toolkits.price") },
          { label: t("admin.toolkits.lessons") },
          { label: t("admin.list.active") },
          { label: t("admin.toolkits.saleBadge") },
          { label: t("admin.list.actions"), hidden: true },
        ]}
        empty={t(list.query ? "admin.toolkits.noMatch" : "admin.toolkits.none")}
      >
        {(list.rows ?? []).map((row) => (
          <tr key={row.id}>
            <th scope="row" class="px-4 py-3 font-medium">
              <a href={`/admin/toolkits/${row.id}`} class="text-indigo-700 underline">{row.title}</a>
              {row.category && <span class="block font-normal text-slate-700">{row.category}</span>}
            </th>
            <Cell label={t("admin.toolkits.price")} class="whitespace-nowrap">{t.rupees(row.price)}</Cell>
            <Cell label={t("admin.toolkits.lessons")}>{t.number(row.lessonCount)}</Cell>
            <Cell label={t("admin.list.active")}>
              <Switch
                label={t("admin.list.activeSwitch", { name: row.title })}
                checked={row.isActive}
                onChange={(on) => toggle(row, "isActive", on)}
                name="isActive"
                form={`toolkit-${row.id}`}
              />
            </Cell>
            <Cell label={t("admin.toolkits.saleBadge")}>
              <Switch
                label={t("admin.toolkits.saleBadgeSwitch", { title: row.title })}
                checked={row.showSaleBadge === true}
                onChange={(on) => toggle(row, "showSaleBadge", on)}
                name="showSaleBadge"
                form={`toolkit-${row.id}`}
              />
            </Cell>
            <Cell class="lg:text-right">
              <form
                id={`toolkit-${row.id}`}
                method="post"
                action={listAddress("/admin/toolkits", { search })}
                onSubmit={(e) => e.preventDefault()}
                class="flex flex-wrap gap-2 lg:justify-end"
              >
                <input type="hidden" name="intent" value="update" />
                <input type="hidden" name="id" value={row.id} />
                <input type="hidden" name="was_isActive" value={String(row.isActive)} />
                <input type="hidden" name="was_showSaleBadge" value={String(row.showSaleBadge === true)} />
                {hydrated ? <RowDeleteButton name={row.title} onClick={() => remove.ask(row)} /> : (
                  <>
                    <button type="submit" class={SECONDARY_BUTTON}>
                      {t.rich("admin.toolkits.saveNamed", {
                        name: () => <span class="sr-only">{` ${row.title} `}</span>,
                      })}
                    </button>
                    <RowDeleteLink
                      name={row.title}
                      href={`${listAddress("/admin/toolkits", { search }, { delete: row.id })}#delete-toolkit`}
                    />
                  </>
                )}
              </form>
            </Cell>
          </tr>
        ))}
      </AdminTable>
      <ConfirmDialog {...remove.dialog} title={t("admin.toolkits.deleteTitle")}>
        {t("admin.toolkits.deleteText", { title: remove.target?.title ?? "" })}
      </ConfirmDialog>
    </div>
  );
}
