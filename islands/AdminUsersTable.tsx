/**
 * The admin user table (docs/api.md, Admin; docs/decisions.md, Admin lists): search
 * by name or e-mail (debounced), a role filter, pages of 20 with previous/next and "x–y of
 * total", and a role change per row through a confirmation dialog that calls
 * `PATCH /api/admin/users/{id}`. The admin's own row cannot be changed. Loading and errors are
 * announced; a stale answer never overwrites a newer one.
 */
import { useEffect, useRef, useState } from "preact/hooks";
import { formatDate } from "@/lib/dates.ts";
import { fetchJson } from "@/lib/browser/fetch_json.ts";
import { ConfirmDialog } from "@/components/ConfirmDialog.tsx";
import { Notice, SECONDARY_BUTTON } from "@/components/forms.tsx";
import { type Role, ROLES } from "@/lib/users/roles.ts";

/** Rows per page. */
export const PAGE_SIZE = 20;
/** Wait after the last keystroke before searching, in ms. */
const SEARCH_DELAY_MS = 300;

interface Row {
  id: string;
  name: string;
  email: string;
  role: Role;
  emailVerified: boolean;
  createdAt: string;
}

interface Page {
  users: Row[];
  pagination: { limit: number; offset: number; total: number; hasMore: boolean };
}

export default function AdminUsersTable({ currentUserId }: { currentUserId: string }) {
  const [search, setSearch] = useState("");
  const [query, setQuery] = useState("");
  const [role, setRole] = useState<Role | "">("");
  const [offset, setOffset] = useState(0);
  const [page, setPage] = useState<Page | null>(null);
  const [loading, setLoading] = useState(true);
  const [loadError, setLoadError] = useState("");
  const [reload, setReload] = useState(0);
  const [pending, setPending] = useState<{ user: Row; role: Role } | null>(null);
  const [saving, setSaving] = useState(false);
  const [changeError, setChangeError] = useState("");
  const [announcement, setAnnouncement] = useState("");
  const [revision, setRevision] = useState(0);
  const latest = useRef(0);

  useEffect(() => {
    const next = search.trim();
    if (next === query) return;
    const timer = setTimeout(() => {
      setQuery(next);
      setOffset(0);
    }, SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [search]);

  useEffect(() => {
    const request = ++latest.current;
    const params = new URLSearchParams({ limit: String(PAGE_SIZE), offset: String(offset) });
    if (query) params.set("search", query);
    if (role) params.set("role", role);
    setLoading(true);
    fetchJson<Page>(`/api/admin/users?${params}`).then((result) => {
      if (request !== latest.current) return;
      setLoading(false);
      if (result.ok) {
        setPage(result.data);
        setLoadError("");
      } else setLoadError(result.error);
    });
  }, [query, role, offset, reload]);

  const cancel = () => {
    setPending(null);
    setChangeError("");
    setRevision((r) => r + 1);
  };

  const confirm = async () => {
    if (!pending) return;
    setSaving(true);
    setChangeError("");
    const result = await fetchJson<{ user: { id: string; role: Role } }>(
      `/api/admin/users/${encodeURIComponent(pending.user.id)}`,
      { method: "PATCH", body: { role: pending.role } },
    );
    setSaving(false);
    if (!result.ok) {
      setChangeError(result.error);
      return;
    }
    const changed = result.data.user;
    setPage((current) =>
      current && {
        ...current,
        users: current.users.map((u) => u.id === changed.id ? { ...u, role: changed.role } : u),
      }
    );
    setAnnouncement(`${pending.user.name} is now ${changed.role === "admin" ? "an" : "a"} ${changed.role}.`);
    setPending(null);
  };

  const users = page?.users ?? [];
  const total = page?.pagination.total ?? 0;
  const from = users.length > 0 ? offset + 1 : 0;
  const to = offset + users.length;
  const filtered = query !== "" || role !== "";

  return (
    <div class="space-y-4">
      <div class="flex flex-col gap-3 sm:flex-row sm:items-end" role="search">
        <div class="flex-1">
          <label for="user-search" class="block text-sm font-medium text-slate-800">Search by name or e-mail</label>
          <input
            id="user-search"
            type="search"
            value={search}
            onInput={(e) => setSearch(e.currentTarget.value)}
            maxLength={100}
            class="mt-1 block w-full rounded-md border border-slate-400 bg-white px-3 py-2 text-slate-900 shadow-sm focus:border-indigo-600 focus:outline-none focus:ring-2 focus:ring-indigo-600/40"
          />
        </div>
        <div>
          <label for="role-filter" class="block text-sm font-medium text-slate-800">Role</label>
          <select
            id="role-filter"
            value={role}
            onChange={(e) => {
              setRole(e.currentTarget.value as Role | "");
              setOffset(0);
            }}
            class="mt-1 block w-full rounded-md border border-slate-400 bg-white px-3 py-2 text-slate-900 shadow-sm focus:border-indigo-600 focus:outline-none focus:ring-2 focus:ring-indigo-600/40"
          >
            <option value="">All roles</option>
            {ROLES.map((r) => <option key={r} value={r}>{r}</option>)}
          </select>
        </div>
      </div>

      <p role="status" class="min-h-5 text-sm text-slate-700">
        {loading ? "Loading users…" : announcement}
      </p>
      {loadError && (
        <Notice kind="error" title="We could not load the users">
          {loadError}{" "}
          <button type="button" class="font-medium underline" onClick={() => setReload((n) => n + 1)}>
            Try again
          </button>
        </Notice>
      )}

      <div
        class="relative overflow-x-auto rounded-lg border border-slate-200 bg-white shadow-sm"
        role="region"
        aria-label="Users"
        aria-busy={loading ? "true" : undefined}
        tabIndex={0}
      >
        <table class="min-w-full divide-y divide-slate-200 text-left text-sm">
          <caption class="sr-only">Users, newest first</caption>
          <thead class="bg-slate-100 text-slate-800">
            <tr>
              <th scope="col" class="px-4 py-3 font-semibold">Name</th>
              <th scope="col" class="hidden px-4 py-3 font-semibold md:table-cell">E-mail</th>
              <th scope="col" class="hidden px-4 py-3 font-semibold sm:table-cell">Verified</th>
              <th scope="col" class="hidden px-4 py-3 font-semibold sm:table-cell">Joined</th>
              <th scope="col" class="px-4 py-3 font-semibold">Role</th>
            </tr>
          </thead>
          <tbody class={`divide-y divide-slate-200 text-slate-800 ${loading ? "opacity-60" : ""}`}>
            {users.map((u) => (
              <tr key={u.id}>
                <th scope="row" class="px-4 py-3 font-medium text-slate-900">
                  {u.name}
                  <span class="block font-normal break-all text-slate-700 md:hidden">{u.email}</span>
                </th>
                <td class="hidden px-4 py-3 md:table-cell">{u.email}</td>
                <td class="hidden px-4 py-3 sm:table-cell">{u.emailVerified ? "Yes" : "No"}</td>
                <td class="hidden px-4 py-3 whitespace-nowrap sm:table-cell">{formatDate(u.createdAt)}</td>
                <td class="px-4 py-3">
                  {u.id === currentUserId ? <span>{u.role} (you)</span> : (
                    <select
                      key={`${u.id}-${revision}`}
                      aria-label={`Role of ${u.name}`}
                      value={u.role}
                      disabled={saving}
                      onChange={(e) => setPending({ user: u, role: e.currentTarget.value as Role })}
                      class="rounded-md border border-slate-400 bg-white px-2 py-1 text-slate-900 focus:border-indigo-600 focus:outline-none focus:ring-2 focus:ring-indigo-600/40"
                    >
                      {ROLES.map((r) => <option key={r} value={r}>{r}</option>)}
                    </select>
                  )}
                </td>
              </tr>
            ))}
            {!loading && !loadError && users.length === 0 && (
              <tr>
                <td colSpan={5} class="px-4 py-8 text-center text-slate-700">
                  {filtered ? "No users match this search." : "There are no users yet."}
                </td>
              </tr>
            )}
          </tbody>
        </table>
      </div>

      <nav aria-label="Pages of users" class="flex items-center justify-between gap-4">
        <p class="text-sm text-slate-700">{total > 0 ? `${from}–${to} of ${total}` : ""}</p>
        <div class="flex gap-2">
          <button
            type="button"
            class={SECONDARY_BUTTON}
            disabled={loading || offset === 0}
            onClick={() => setOffset(Math.max(0, offset - PAGE_SIZE))}
          >
            Previous
          </button>
          <button
            type="button"
            class={SECONDARY_BUTTON}
            disabled={loading || !page?.pagination.hasMore}
            onClick={() => setOffset(offset + PAGE_SIZE)}
          >
            Next
          </button>
        </div>
      </nav>

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
