/**
 * The admin user table (docs/api.md, Admin; docs/decisions.md, Admin lists): search
 * by name or e-mail (debounced), a role filter, pages of 20 with previous/next and "x–y of
 * total" (past the count's limit of 1,000, a line says more match), and a role change per row: a plain form to the page
 * (its select and a "Change role" button) until hydration, then a confirmation dialog on choosing that calls
 * `PATCH /api/admin/users/{id}`. The admin's own row cannot be changed. A refused role is shown
 * at the row's role control; other refusals in the dialog. A suspended row's role control does not offer "admin", and
 * says why under it (the server's refusal, "lift the suspension first"). Loading and errors are announced; a
 * stale answer never overwrites a newer one. Each row shows a "Suspended" badge with the date and reason, or not,
 * and its plain form (docs/decisions.md, Admin, "Suspension"): "Suspend" with a reason, "Also hide their open
 * listings" (ticked) and "Also remove their comments" (not ticked), or "Lift suspension", which
 * post to the page without JavaScript and call `POST`/`DELETE /api/admin/users/{id}/suspension` with it; leaving with a
 * reason typed, or a box changed, and not sent asks first (docs/decisions.md, Islands, "Leaving a typed form"). The page
 * renders the page its query asks for (`initial`, of `search` and `role`; `suspended`: the suspended accounts only, a
 * link of the page); without JavaScript the search and role filter are a `GET` form to the page and Previous and Next
 * links to it. A suspended row whose comments are being removed says how many are left ("Removing 120 comments…"), then
 * how many were removed.
 */
import type { ComponentChildren } from "preact";
import { useState } from "preact/hooks";
import { failureMessage, fetchJson, refusalPrefixes } from "@/lib/browser/fetch_json.ts";
import { ADMIN_LIST_TEXT, useAdminList } from "@/lib/browser/use_admin_list.ts";
import { ConfirmDialog } from "@/components/ConfirmDialog.tsx";
import { AdminTable, ListSearch } from "@/components/AdminList.tsx";
import { ListPages } from "@/components/ListPages.tsx";
import { Cell } from "@/components/StackedTable.tsx";
import { FieldError, Notice, TextAreaField } from "@/components/forms.tsx";
import { invalidProps } from "@/lib/browser/field_props.ts";
import { useHydrated } from "@/lib/browser/use_hydrated.ts";
import { INPUT, ROW_INPUT, SECONDARY_BUTTON } from "@/lib/browser/styles.ts";
import { type Role, ROLES } from "@/lib/users/roles.ts";
import type { AdminUserPage, AdminUserRow, RoleChanged } from "@/lib/users/admin.ts";
import type { CommentRemoval } from "@/lib/moderation/comment_purges.ts";
import type { SuspensionChanged } from "@/lib/users/suspension.ts";
import { useT } from "@/lib/i18n/context.ts";
import { IslandTextProvider } from "@/lib/i18n/island_text.ts";
import { fieldText } from "@/lib/i18n/field_text.ts";
import type { IslandText } from "@/lib/i18n/translator.ts";

/** The messages this island uses (its `text`). */
export const ADMIN_USERS_TEXT = [
  "admin.users.",
  "admin.roles.",
  ...ADMIN_LIST_TEXT,
  ...refusalPrefixes(
    "lastAdmin",
    "userNotFound",
    "ownRole",
    "ownSuspension",
    "suspendAdmin",
    "alreadySuspended",
    "notSuspended",
    "promoteSuspended",
  ),
] as const;

/**
 * A refusal of a row's suspension or lift: its user id and sentence, and when the page refused a plain form, its boxes as
 * they were sent (absent: as the form starts).
 */
export interface SuspensionRefusal {
  userId: string;
  message: string;
  hideListings?: boolean;
  removeComments?: boolean;
}

/** Rows per page. */
const PAGE_SIZE = 20;

/**
 * Props: the signed-in admin (whose own row cannot be changed), the page as the server rendered it with the search and
 * role filter it answers ("": none), whether it lists suspended accounts only, a role change the page refused (its
 * row's user id and sentence), a suspension or lift it refused (`SuspensionRefusal`), and the messages
 * (`ADMIN_USERS_TEXT`).
 */
export interface AdminUsersTableProps {
  currentUserId: string;
  initial: AdminUserPage;
  search: string;
  role: Role | "";
  suspended: boolean;
  refusedRole?: { userId: string; message: string };
  refusedSuspension?: SuspensionRefusal;
  text: IslandText;
}

export default function AdminUsersTable({ text, ...props }: AdminUsersTableProps) {
  return (
    <IslandTextProvider text={text}>
      <UsersTable {...props} />
    </IslandTextProvider>
  );
}

function UsersTable(
  { currentUserId, initial, search, suspended, refusedRole, refusedSuspension, ...props }: Omit<
    AdminUsersTableProps,
    "text"
  >,
) {
  const t = useT();
  /** A role's name; a role the list does not know (a tampered page's) as it came. */
  const roleName = (role: Role) => t.has(`admin.roles.${role}`) ? t.dynamic(`admin.roles.${role}`) : role;
  const [role, setRole] = useState(props.role);
  const hydrated = useHydrated();
  const { offset } = initial.pagination;
  const list = useAdminList<AdminUserRow, AdminUserPage>({
    path: ({ query, offset }) => {
      const params = new URLSearchParams({ limit: String(PAGE_SIZE), offset: String(offset) });
      if (query) params.set("search", query);
      if (role) params.set("role", role);
      if (suspended) params.set("suspended", "true");
      return `/api/admin/users?${params}`;
    },
    rowsOf: (data) => data.users,
    filters: [role],
    initial: initial.users,
    start: { query: search, offset },
  });
  /** The address of the page the server rendered, at `at` (its links before hydration; where its row forms post). */
  const href = (at: number) => {
    // Empty values and the first page's offset are left out (as `listAddress` does), so a link names no default.
    const params = { search, role: props.role, suspended: suspended ? "1" : "", offset: at ? `${at}` : "" };
    return `/admin/users?${new URLSearchParams(Object.entries(params).filter(([, value]) => value))}`;
  };
  const page = list.data ?? initial;
  const here = href(offset);
  /** The refusal of a suspension form, shown under that row's form (`SuspensionRefusal`). */
  const [suspensionError, setSuspensionError] = useState<SuspensionRefusal | null | undefined>(refusedSuspension);

  const changeSuspension = async (event: Event, user: AdminUserRow) => {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    const fields = new FormData(form);
    const reason = String(fields.get("reason") ?? "").trim();
    const lifting = user.suspension !== null;
    if (!lifting && reason === "") {
      setSuspensionError({ userId: user.id, message: t("admin.users.reasonProblem") });
      return;
    }
    setSuspensionError(null);
    const result = await fetchJson<
      { user: SuspensionChanged; hiddenListings?: number; finishing?: boolean; commentRemoval?: CommentRemoval | null }
    >(
      `/api/admin/users/${encodeURIComponent(user.id)}/suspension`,
      lifting ? { method: "DELETE" } : {
        method: "POST",
        body: { reason, hideListings: fields.has("hideListings"), removeComments: fields.has("removeComments") },
      },
    );
    if (!result.ok) {
      setSuspensionError({ userId: user.id, message: failureMessage(t, result) });
      return;
    }
    const commentRemoval = result.data.commentRemoval ?? null;
    list.replaceRow({ id: user.id, suspension: result.data.user.suspension, commentRemoval });
    const { hiddenListings, finishing } = result.data;
    // Kept busy, the hide's count is not known yet: its job finishes it. Without the hide, nothing was to be hidden.
    const hidden = finishing
      ? t("admin.users.finishing")
      : fields.has("hideListings")
      ? t("admin.users.listingsHidden", { count: hiddenListings ?? 0 })
      : "";
    const done = [t("admin.users.suspendedDone"), hidden, commentRemoval ? t("admin.users.commentsNotice") : ""];
    list.announce(lifting ? t("admin.users.liftedDone") : done.filter(Boolean).join(" "));
  };
  const [pending, setPending] = useState<{ user: AdminUserRow; role: Role } | null>(null);
  const [saving, setSaving] = useState(false);
  const [changeError, setChangeError] = useState("");
  /** The refusal of a role, shown at that user's role control: user id and sentence. */
  const [roleError, setRoleError] = useState<{ userId: string; message: string } | null>(refusedRole ?? null);
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
    const result = await fetchJson<{ user: RoleChanged; closedListings: number; finishing?: boolean }>(
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
    const closed = result.data.closedListings;
    const listings = `${closed > 0 ? ` ${t("admin.users.listingsClosed", { count: closed })}` : ""}${
      result.data.finishing ? ` ${t("admin.users.closingLater")}` : ""
    }`;
    list.announce(`${t("admin.users.changed", { name: pending.user.name, role: changed.role })}${listings}`);
    setPending(null);
  };

  const users = list.rows ?? [];
  const total = page.pagination.total;
  const filtered = list.query !== "" || role !== "" || suspended;

  return (
    <div class="space-y-4">
      <form
        method="get"
        action="/admin/users"
        onSubmit={(e) => e.preventDefault()}
        class="flex flex-col gap-3 sm:flex-row sm:items-end"
        role="search"
      >
        <div class="flex-1">
          <ListSearch id="search" label={t("admin.users.search")} list={list} maxLength={100} />
        </div>
        <div>
          <label for="role-filter" class="block text-sm font-medium text-slate-800">{t("admin.users.role")}</label>
          <select
            id="role-filter"
            name="role"
            value={role}
            onChange={(e) => setRole(e.currentTarget.value as Role | "")}
            class={INPUT}
          >
            <option value="">{t("admin.users.allRoles")}</option>
            {ROLES.map((r) => <option key={r} value={r}>{roleName(r)}</option>)}
          </select>
        </div>
        {suspended && <input type="hidden" name="suspended" value="1" />}
        {!hydrated && <button type="submit" class={SECONDARY_BUTTON}>{t("admin.users.searchSubmit")}</button>}
      </form>
      <nav aria-label={t("admin.users.accounts")} class="flex flex-wrap gap-2 text-sm">
        <a href="/admin/users" aria-current={suspended ? undefined : "page"} class={SECONDARY_BUTTON}>
          {t("admin.users.allAccounts")}
        </a>
        <a href="/admin/users?suspended=1" aria-current={suspended ? "page" : undefined} class={SECONDARY_BUTTON}>
          {t("admin.users.suspendedOnly")}
        </a>
      </nav>

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
            <th scope="row" class="px-4 py-3 font-medium text-slate-900">
              {u.name}
              {u.suspension && (
                <span class="ml-2 inline-block rounded bg-red-100 px-2 py-0.5 text-xs font-semibold text-red-900">
                  {t("admin.users.suspended")}
                </span>
              )}
            </th>
            <Cell label={t("admin.users.email")}>{u.email}</Cell>
            <Cell label={t("admin.users.verified")}>{t(u.emailVerified ? "admin.users.yes" : "admin.users.no")}</Cell>
            <Cell label={t("admin.users.joined")} class="whitespace-nowrap">{t.date(u.createdAt)}</Cell>
            <Cell label={t("admin.users.role")}>
              {u.id === currentUserId ? <span>{t("admin.users.you", { role: roleName(u.role) })}</span> : (
                <form
                  method="post"
                  action={here}
                  onSubmit={(e) => e.preventDefault()}
                >
                  <input type="hidden" name="userId" value={u.id} />
                  <input type="hidden" name="action" value="role" />
                  <select
                    key={`${u.id}-${revision}`}
                    name="role"
                    id={`role-${u.id}`}
                    aria-label={t("admin.users.roleOf", { name: u.name })}
                    value={u.role}
                    disabled={saving}
                    onChange={(e) => setPending({ user: u, role: e.currentTarget.value as Role })}
                    class={ROW_INPUT}
                    {...invalidProps(
                      `role-${u.id}`,
                      roleError?.userId === u.id && roleError.message,
                      !promotable(u),
                    )}
                  >
                    {ROLES.filter((r) => r !== "admin" || promotable(u)).map((r) => (
                      <option key={r} value={r}>{roleName(r)}</option>
                    ))}
                  </select>
                  {!hydrated && (
                    <button type="submit" class={`ml-2 ${SECONDARY_BUTTON}`}>
                      {t("admin.users.changeRole")}
                      <span class="sr-only">{` ${u.name}`}</span>
                    </button>
                  )}
                  {!promotable(u) && (
                    <p id={`role-${u.id}-hint`} class="mt-1 max-w-xs text-xs text-slate-700">
                      {t("common.refusal.promoteSuspended")}
                    </p>
                  )}
                  <FieldError id={`role-${u.id}`} error={roleError?.userId === u.id && roleError.message} />
                </form>
              )}
              <SuspensionControls
                user={u}
                own={u.id === currentUserId}
                here={here}
                refusal={suspensionError?.userId === u.id ? suspensionError : null}
                onSubmit={(event) => changeSuspension(event, u)}
              />
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
        hasMore={page.pagination.hasMore}
        hrefOf={hydrated ? undefined : href}
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
        {pending?.role === "user" && pending.user.role !== "user" && ` ${t("admin.users.closesListings")}`}
      </ConfirmDialog>
    </div>
  );
}

/**
 * Whether the role control offers `user` the admin role: not while they are suspended (the server refuses it,
 * docs/decisions.md, Admin, "Suspension"), unless they are an admin already (suspended before that rule), whose role
 * stays shown as it is.
 */
function promotable(user: AdminUserRow): boolean {
  return user.suspension === null || user.role === "admin";
}

/**
 * Props of a row's suspension part: its user, whether it is the admin's own row, the page's address (`here`, where
 * its forms post: a refused one renders that page again, a done one goes back to it), and a refusal of them.
 */
interface SuspensionControlsProps {
  user: AdminUserRow;
  own: boolean;
  here: string;
  refusal: SuspensionRefusal | null;
  onSubmit: (event: Event) => void;
}

/**
 * A row's suspension, under its role: the suspension's date and reason, how far the removal of their comments is, and
 * the "Lift suspension" form, or the "Suspend"
 * form with its reason behind a disclosure (never on the admin's own row or an admin's: nothing); plain forms that post
 * to the page, sent by `onSubmit` when JavaScript runs. The "Suspended" badge is beside the name.
 */
function SuspensionControls({ user, own, here, refusal, onSubmit }: SuspensionControlsProps) {
  const t = useT();
  const fields = (action: "suspend" | "lift") => (
    <>
      <input type="hidden" name="userId" value={user.id} />
      <input type="hidden" name="action" value={action} />
    </>
  );
  const problem = refusal && <p class="mt-1 text-sm font-medium text-red-800" role="alert">{refusal.message}</p>;
  const removal = user.commentRemoval;
  if (user.suspension) {
    return (
      <div class="mt-2 space-y-2">
        <p class="max-w-xs text-sm text-slate-700">
          {t("admin.users.suspendedSince", { date: t.date(user.suspension.at), reason: user.suspension.reason })}
        </p>
        {removal && (
          <p class="max-w-xs text-sm text-slate-700">
            {removal.done
              ? t("admin.users.commentsRemoved", { count: removal.removed })
              : t("admin.users.commentsRemoving", { count: Math.max(0, removal.total - removal.removed) })}
          </p>
        )}
        <form method="post" action={here} onSubmit={onSubmit}>
          {fields("lift")}
          <button type="submit" class={SECONDARY_BUTTON}>
            {t("admin.users.lift")}
            <span class="sr-only">{` ${user.name}`}</span>
          </button>
        </form>
        {problem}
      </div>
    );
  }
  if (own || user.role === "admin") return null;
  return (
    <SuspendForm
      user={user}
      here={here}
      refusal={refusal}
      onSubmit={onSubmit}
      fields={fields("suspend")}
      problem={problem}
    />
  );
}

/**
 * A row's "Suspend" form behind its disclosure: the reason and the two boxes, marked `data-unsaved` while a reason is
 * typed or a box differs from how it was drawn, so leaving then asks first (docs/decisions.md, Islands, "Leaving a
 * typed form"); drawn again after a lift, it starts untouched. `fields` are its hidden inputs, `problem` its refusal.
 */
function SuspendForm({ user, here, refusal, onSubmit, fields, problem }: Omit<SuspensionControlsProps, "own"> & {
  fields: ComponentChildren;
  problem: ComponentChildren;
}) {
  const t = useT();
  const hideDrawn = refusal?.hideListings ?? true;
  const removeDrawn = refusal?.removeComments ?? false;
  const [unsent, setUnsent] = useState(false);
  const onInput = (event: Event) => {
    const form = event.currentTarget as HTMLFormElement;
    const box = (name: string) => (form.elements.namedItem(name) as HTMLInputElement).checked;
    const reason = (form.elements.namedItem("reason") as HTMLTextAreaElement).value;
    setUnsent(reason !== "" || box("hideListings") !== hideDrawn || box("removeComments") !== removeDrawn);
  };
  return (
    <details class="mt-2 max-w-xs" open={!!refusal}>
      <summary class="cursor-pointer text-sm font-medium text-red-800 underline">
        {t("admin.users.suspend")}
        <span class="sr-only">{` ${user.name}`}</span>
      </summary>
      <form
        method="post"
        action={here}
        noValidate
        onSubmit={onSubmit}
        onInput={onInput}
        data-unsaved={unsent || undefined}
        class="mt-2 space-y-2"
      >
        {fields}
        <TextAreaField
          id={`reason-${user.id}`}
          name="reason"
          label={t("admin.users.reason")}
          hint={t("admin.users.reasonHint")}
          required
          maxLength={500 /* SUSPENSION_REASON_MAX, lib/users/suspension.ts */}
          rows={3}
        />
        <label class="flex items-start gap-2 text-sm text-slate-800">
          <input
            type="checkbox"
            name="hideListings"
            value="1"
            checked={hideDrawn}
            class="mt-0.5 h-4 w-4"
          />
          {t("admin.users.hideListings")}
        </label>
        <div>
          <label class="flex items-start gap-2 text-sm text-slate-800">
            <input
              type="checkbox"
              name="removeComments"
              value="1"
              checked={removeDrawn}
              aria-describedby={`comments-${user.id}-hint`}
              class="mt-0.5 h-4 w-4"
            />
            {t("admin.users.removeComments")}
          </label>
          <p id={`comments-${user.id}-hint`} class="ml-6 text-xs text-slate-700">
            {t("admin.users.removeCommentsHint")}
          </p>
        </div>
        <button
          type="submit"
          class="rounded-md bg-red-700 px-3 py-1.5 text-sm font-medium text-white hover:bg-red-800"
        >
          {t("admin.users.suspendSubmit", { name: user.name })}
        </button>
        {problem}
      </form>
    </details>
  );
}
