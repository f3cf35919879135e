/**
 * The admin user table (docs/api.md, Admin; docs/decisions.md, Admin lists): search
 * by name or e-mail (debounced), a role filter, pages of 20 with previous/next and "x–y of
 * total", and a role change per row through a confirmation dialog that calls
 * `PATCH /api/admin/users/{id}`. The admin's own row cannot be changed. A refused role is shown
 * at the row's role control; other refusals in the dialog. Loading and errors are announced; a
 * stale answer never overwrites a newer one.
 */
import { useState } from "preact/hooks";
import { formatDate } from "@/lib/dates.ts";
import { fetchJson } from "@/lib/browser/fetch_json.ts";
import { useAdminList } from "@/lib/browser/use_admin_list.ts";
import { ConfirmDialog } from "@/components/ConfirmDialog.tsx";
import { AdminTable, ListPages, ListSearch } from "@/components/AdminList.tsx";
import { Cell } from "@/components/StackedTable.tsx";
import { FieldError, Notice } from "@/components/forms.tsx";
import { invalidProps } from "@/lib/browser/field_props.ts";
import { INPUT, ROW_INPUT } from "@/lib/browser/styles.ts";
import { type Role, ROLES } from "@/lib/users/roles.ts";
import type { AdminUserPage, AdminUserRow, RoleChanged } from "@/lib/users/admin.ts";

/** Rows per page. */
const PAGE_SIZE = 20;

export default function AdminUsersTable({ currentUserId }: { currentUserId: string }) {
  const [role, setRole] = useState<Role | "">("");
  const list = useAdminList<AdminUserRow, AdminUserPage>({
    path: ({ query, offset }) => {
      const params = new URLSearchParams({ limit: String(PAGE_SIZE), offset: String(offset) });
      if (query) params.set("search", query);
      if (role) params.set("role", role);
      return `/api/admin/users?${params}`;
    },
    rowsOf: (data) => data.users,
    filters: [role],
  });
  const { data: page } = list;
  const [pending, setPending] = useState<{ user: AdminUserRow; role: Role } | null>(null);
  const [saving, setSaving] = useState(false);
  const [changeError, setChangeError] = useState("");
  /** The refusal of a role, shown at that user's role control: user id and sentence. */
  const [roleError, setRoleError] = useState<{ userId: string; message: string } | null>(null);
  const [revision, setRevision] = useState(0);

  const cancel = () => {
    setPending(null);
    setChangeError("");
    setRevision((r) => r + 1);
  };

  const confirm = async () => {
    if (!pending) return;
    setSaving(true);
    setChangeError("");
    const result = await fetchJson<{ user: RoleChanged }>(
      `/api/admin/users/${encodeURIComponent(pending.user.id)}`,
      { method: "PATCH", body: { role: pending.role } },
    );
    setSaving(false);
    const refused = result.ok ? undefined : result.fields.find(({ field }) => field === "role");
    if (refused) {
      cancel();
      setRoleError({ userId: pending.user.id, message: refused.message });
      return;
    }
    if (!result.ok) {
      setChangeError(result.error);
      return;
    }
    setRoleError(null);
    const changed = result.data.user;
    list.replaceRow({ id: changed.id, role: changed.role });
    list.announce(`${pending.user.name} is now ${changed.role === "admin" ? "an" : "a"} ${changed.role}.`);
    setPending(null);
  };

  const users = list.rows ?? [];
  const total = page?.pagination.total ?? 0;
  const filtered = list.query !== "" || role !== "";

  return (
    <div class="space-y-4">
      <div class="flex flex-col gap-3 sm:flex-row sm:items-end" role="search">
        <div class="flex-1">
          <ListSearch id="user-search" label="Search by name or e-mail" list={list} maxLength={100} />
        </div>
        <div>
          <label for="role-filter" class="block text-sm font-medium text-slate-800">Role</label>
          <select
            id="role-filter"
            value={role}
            onChange={(e) => setRole(e.currentTarget.value as Role | "")}
            class={INPUT}
          >
            <option value="">All roles</option>
            {ROLES.map((r) => <option key={r} value={r}>{r}</option>)}
          </select>
        </div>
      </div>

      <AdminTable
        list={list}
        loadingText="Loading users…"
        loadErrorTitle="We could not load the users"
        retry
        label="Users"
        caption="Users, newest first"
        columns={[
          { label: "Name" },
          { label: "E-mail" },
          { label: "Verified" },
          { label: "Joined" },
          { label: "Role" },
        ]}
        empty={filtered ? "No users match this search." : "There are no users yet."}
      >
        {users.map((u) => (
          <tr key={u.id}>
            <th scope="row" class="px-4 py-3 font-medium text-slate-900">{u.name}</th>
            <Cell label="E-mail">{u.email}</Cell>
            <Cell label="Verified">{u.emailVerified ? "Yes" : "No"}</Cell>
            <Cell label="Joined" class="whitespace-nowrap">{formatDate(u.createdAt)}</Cell>
            <Cell label="Role">
              {u.id === currentUserId ? <span>{u.role} (you)</span> : (
                <>
                  <select
                    key={`${u.id}-${revision}`}
                    id={`role-${u.id}`}
                    aria-label={`Role of ${u.name}`}
                    value={u.role}
                    disabled={saving}
                    onChange={(e) => setPending({ user: u, role: e.currentTarget.value as Role })}
                    class={ROW_INPUT}
                    {...invalidProps(`role-${u.id}`, roleError?.userId === u.id && roleError.message)}
                  >
                    {ROLES.map((r) => <option key={r} value={r}>{r}</option>)}
                  </select>
                  <FieldError id={`role-${u.id}`} error={roleError?.userId === u.id && roleError.message} />
                </>
              )}
            </Cell>
          </tr>
        ))}
      </AdminTable>

      <ListPages
        label="Pages of users"
        list={list}
        pageSize={PAGE_SIZE}
        shown={users.length}
        total={total}
        hasMore={page?.pagination.hasMore ?? false}
      />

      <ConfirmDialog
        open={pending !== null}
        title="Change role?"
        confirmLabel={pending ? `Make ${pending.role}` : ""}
        busyLabel="Changing…"
        busy={saving}
        notice={changeError && <Notice kind="error" title="The role was not changed">{changeError}</Notice>}
        onConfirm={confirm}
        onCancel={cancel}
      >
        {pending && (
          <>
            Change the role of <strong>{pending.user.name}</strong> ({pending.user.email}) from{" "}
            <strong>{pending.user.role}</strong> to{" "}
            <strong>{pending.role}</strong>? It applies from their next page load.
          </>
        )}
      </ConfirmDialog>
    </div>
  );
}
