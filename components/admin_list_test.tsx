import { renderToString } from "preact-render-to-string";
import { assert, assertEquals } from "@/tests/helpers/assert.ts";
import { AdminTable, type AdminTableProps } from "./AdminList.tsx";
import { TextContext } from "@/lib/i18n/context.ts";
import { translatorFor } from "@/lib/i18n/catalogue.ts";

type ListState = AdminTableProps["list"];

/** A list state as `useAdminList` gives it, with `changes` applied. */
function listOf(changes: Partial<ListState>): ListState {
  return {
    search: "",
    setSearch: () => {},
    loading: false,
    announcement: "",
    loadError: "",
    rowError: "",
    reload: () => {},
    offset: 0,
    setOffset: () => {},
    rows: [],
    ...changes,
  };
}

function table(list: ListState): string {
  return renderToString(
    <TextContext.Provider value={translatorFor("en")}>
      <AdminTable
        list={list}
        loadingText="Loading coupons…"
        loadErrorTitle="We could not load the coupons"
        retry
        label="Coupons"
        caption="Coupons, newest first"
        columns={[{ label: "Code" }]}
        empty="No coupons match."
      >
        {(list.rows ?? []).map((row) => (
          <tr key={row.id}>
            <td>{row.id}</td>
          </tr>
        ))}
      </AdminTable>
    </TextContext.Provider>,
  );
}

Deno.test("an admin table shows its empty row only when a finished load found no rows", () => {
  assert(table(listOf({})).includes("No coupons match."));
  assert(!table(listOf({ rows: [{ id: "WELCOME20" }] })).includes("No coupons match."));
  assert(!table(listOf({ loading: true })).includes("No coupons match."));
  assert(!table(listOf({ loadError: "Network error" })).includes("No coupons match."));
});

Deno.test("an admin table announces a load above itself and is busy while it runs", () => {
  const loading = table(listOf({ loading: true, rows: [{ id: "WELCOME20" }] }));
  assert(loading.indexOf('role="status"') < loading.indexOf('role="region"'));
  assert(loading.includes("Loading coupons…"));
  assert(loading.includes('aria-busy="true"'));
  assert(!table(listOf({})).includes("aria-busy"));
});

Deno.test("an admin table shows the load error with Try again", () => {
  const failed = table(listOf({ loadError: "Network error" }));
  assert(failed.includes("We could not load the coupons"));
  assertEquals(failed.match(/Try again/g)?.length, 1);
});
