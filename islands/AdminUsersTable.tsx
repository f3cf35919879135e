/**
 * The admin user table (docs/api.md, Admin; docs/decisions.md, Admin lists): search
 * by name or e-mail (debounced), a role filter, pages of 20 with previous/next and "x–y of
 * total" (past the count's limit of 1,000, a line says more match), and a role change per row through a confirmation dialog that calls
 * `PATCH /api/admin/users/{id}`. The admin's own row cannot be changed. A refused role is shown
 * at the row's role control; other refusals in the dialog. Loading and errors are announced; a
 * stale answer never overwrites a newer one.
 */
import { useState } from "preact/hooks";
import { failureMessage, fetchJson, refusalPrefixes } from "@/lib/browser/fetch_json.ts";
import { ADMIN_LIST_TEXT, useAdminList } from "@/lib/browser/use_admin_list.ts";
import { ConfirmDialog } from "@/components/ConfirmDialog.tsx";
import { AdminTable, ListPages, ListSearch } from "@/components/AdminList.tsx";
import { Cell } from "@/components/StackedTable.tsx";
import { FieldError, Notice } from "@/components/forms.tsx";
import { invalidProps } from "@/lib/browser/field_props.ts";
import { INPUT, ROW_INPUT } from "@/lib/browser/styles.ts";
import { type Role, ROLES } from "@/lib/users/roles.ts";
import type { AdminUserPage, AdminUserRow, RoleChanged } from "@/lib/users/admin.ts";
import { useT } from "@/lib/i18n/context.ts";
import { IslandTextProvider } from "@/lib/i18n/island_text.ts";
import { fieldText } from "@/lib/i18n/field_text.ts";
import type { IslandText } from "@/lib/i18n/translator.ts";

/** The messages this island uses (its `text`). */
export const ADMIN_USERS_TEXT = [
  "admin.users.",
  "admin.roles.",
  ...ADMIN_LIST_TEXT,
  ...refusalPrefixes("lastAdmin", "userNotFound", "ownRole"),
] as const;

/** Rows per page. */
const PAGE_SIZE = 20;

/** Props: the signed-in admin (whose own row cannot be changed) and the messages (`ADMIN_USERS_TEXT`). */
export interface AdminUsersTableProps {
  currentUserId: string;
  text: IslandText;
}

export default function AdminUsersTable({ text, currentUserId }: AdminUsersTableProps) {
  return (
    <IslandTextProvider text={text}>
      <UsersTable currentUserId={currentUserId} />
    </IslandTextProvider>
  );
}

function UsersTable({ currentUserId }: { currentUserId: string }) {
  const t = useT();
  /** A role's name; a role the list does not know (a tampered page's) as it came. */
  const roleName = (role: Role) => t.has(`admin.roles.${role}`) ? t.dynamic(`admin.roles.${role}`) : role;
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
      setRoleError({ userId: pending.user.id, message: fieldText(t, refused) });
      return;
    }
    if (!result.ok) {
      setChangeError(failureMessage(t, result));
      return;
    }
    setRoleError(null);
    const changed = result.data.user;
    list.replaceRow({ id: changed.id, role: changed.role });
    list.announce(t("admin.users.changed", { name: pending.user.name, role: changed.role }));
    setPending(null);
  };

  const users = list.rows ?? [];
  const total = page?.pagination.total ?? 0;
  const filtered = list.query !== "" || role !== "";

  return (
    <div class="space-y-4">
      <div class="flex flex-col gap-3 sm:flex-row sm:items-end" role="search">
        <div class="flex-1">
          <ListSearch id="user-search" label={t("admin.users.search")} list={list} maxLength={100} />
        </div>
        <div>
          <label for="role-filter" class="block text-sm font-medium text-slate-800">{t("admin.users.role")}</label>
          <select
            id="role-filter"
            value={role}
            onChange={(e) => setRole(e.currentTarget.value as Role | "")}
            class={INPUT}
          >
            <option value="">{t("admin.users.allRoles")}</option>
            {ROLES.map((r) => <option key={r} value={r}>{roleName(r)}</option>)}
          </select>
        </div>
      </div>

      <AdminTable
        list={list}
        loadingText={t("admin.users.loading")}
        loadErrorTitle={t("admin.users.loadError")}
        retry
        label={t("admin.users.label")}
        caption={t("admin.users.caption")}
        columns={[
          { label: t("admin.users.name") },
          { label: t("admin.users.email") },
          { label: t("admin.users.verified") },
          { label: t("admin.users.joined") },
          { label: t("admin.users.role") },
        ]}
        empty={t(filtered ? "admin.users.noMatch" : "admin.users.none")}
      >
        {users.map((u) => (
          <tr key={u.id}>
            <th scope="row" class="px-4 py-3 font-medium text-slate-900">{u.name}</th>
            <Cell label={t("admin.users.email")}>{u.email}</Cell>
            <Cell label={t("admin.users.verified")}>{t(u.emailVerified ? "admin.users.yes" : "admin.users.no")}</Cell>
            <Cell label={t("admin.users.joined")} class="whitespace-nowrap">{t.date(u.createdAt)}</Cell>
            <Cell label={t("admin.users.role")}>
              {u.id === currentUserId ? <span>{t("admin.users.you", { role: roleName(u.role) })}</span> : (
                <>
                  <select
                    key={`${u.id}-${revision}`}
                    id={`role-${u.id}`}
                    aria-label={t("admin.users.roleOf", { name: u.name })}
                    value={u.role}
                    disabled={saving}
                    onChange={(e) => setPending({ user: u, role: e.currentTarget.value as Role })}
                    class={ROW_INPUT}
                    {...invalidProps(`role-${u.id}`, roleError?.userId === u.id && roleError.message)}
                  >
                    {ROLES.map((r) => <option key={r} value={r}>{roleName(r)}</option>)}
                  </select>
                  <FieldError id={`role-${u.id}`} error={roleError?.userId === u.id && roleError.message} />
                </>
              )}
            </Cell>
          </tr>
        ))}
      </AdminTable>

      <ListPages
        label={t("admin.users.pages")}
        list={list}
        pageSize={PAGE_SIZE}
        shown={users.length}
        total={total}
        hasMore={page?.pagination.hasMore ?? false}
      />
      {page?.more && <p class="text-sm text-slate-700">{t("admin.users.more", { count: total })}</p>}

      <ConfirmDialog
        open={pending !== null}
        title={t("admin.users.changeTitle")}
        confirmLabel={pending ? t("admin.users.make", { role: roleName(pending.role) }) : ""}
        busyLabel={t("admin.users.changing")}
        busy={saving}
        notice={changeError && <Notice kind="error" title={t("admin.users.notChanged")}>{changeError}</Notice>}
        onConfirm={confirm}
        onCancel={cancel}
      >
        {pending && t.rich("admin.users.changeText", {
          b: (chunks) => <strong>{chunks}</strong>,
          name: pending.user.name,
          email: pending.user.email,
          from: roleName(pending.user.role),
          to: roleName(pending.role),
        })}
      </ConfirmDialog>
    </div>
  );
}
