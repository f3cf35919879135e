/**
 * The admin comments table (docs/decisions.md, Comments and reactions "Moderation"): every live comment, newest first,
 * searched by content or author (loaded from `GET /api/admin/comments`), each with a link to it on its post and
 * Delete after a confirmation dialog. More rows load on request.
 */
import { useEffect, useRef, useState } from "preact/hooks";
import { ConfirmDialog } from "@/components/ConfirmDialog.tsx";
import { Notice, SECONDARY_BUTTON, useHydrated } from "@/components/forms.tsx";
import { RowDeleteButton } from "@/components/RowControls.tsx";
import { fetchJson } from "@/lib/browser/fetch_json.ts";
import { useDebouncedValue } from "@/lib/browser/use_debounced_value.ts";
import { formatDateTime } from "@/lib/dates.ts";
import type { Pagination } from "@/lib/comments/schema.ts";

/** One row of the table. */
export interface CommentRow {
  id: string;
  postId: string;
  parentId: string | null;
  content: string;
  createdAt: string;
  user: { name: string } | null;
  post: { id: string; title: string } | null;
}

const PAGE = 50;

/** The first 160 characters of a comment, on one line. */
function clip(text: string): string {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length > 160 ? `${line.slice(0, 159)}…` : line;
}

export default function AdminCommentsTable({ initial, pagination }: { initial: CommentRow[]; pagination: Pagination }) {
  const hydrated = useHydrated();
  const [rows, setRows] = useState(initial);
  const [total, setTotal] = useState(pagination.total);
  const [search, setSearch] = useState("");
  const [message, setMessage] = useState("");
  const [error, setError] = useState("");
  const [doomed, setDoomed] = useState<CommentRow | null>(null);
  const [deleting, setDeleting] = useState(false);
  const query = useDebouncedValue(search, 250);
  const first = useRef(true);
  const latest = useRef(0);

  const load = async (offset: number) => {
    const request = ++latest.current;
    const params = new URLSearchParams({ limit: String(PAGE), offset: String(offset) });
    if (query) params.set("search", query);
    const res = await fetchJson<{ comments: CommentRow[]; pagination: Pagination }>(`/api/admin/comments?${params}`);
    if (request !== latest.current) return;
    if (!res.ok) return setError(res.error);
    setRows((all) => offset === 0 ? res.data.comments : [...all, ...res.data.comments]);
    setTotal(res.data.pagination.total);
    setMessage(`${res.data.pagination.total} comments match.`);
  };

  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    load(0);
  }, [query]);

  const remove = async () => {
    if (!doomed) return;
    setDeleting(true);
    const res = await fetchJson(`/api/ungatekeep/comments/${doomed.id}`, { method: "DELETE" });
    setDeleting(false);
    setDoomed(null);
    if (!res.ok) return setError(`Not deleted: ${res.error}`);
    setRows((all) => all.filter((r) => r.id !== doomed.id));
    setTotal((n) => n - 1);
    setMessage(`The comment by ${doomed.user?.name ?? "a deleted user"} was deleted.`);
  };

  return (
    <div class="space-y-4">
      <div role="search" class="rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
        <label for="comment-search" class="block text-sm font-medium text-slate-800">Search comments and authors</label>
        <input
          id="comment-search"
          type="search"
          value={search}
          disabled={!hydrated}
          onInput={(e) => setSearch(e.currentTarget.value)}
          class="mt-1 block w-full rounded-md border border-slate-400 bg-white px-3 py-2 text-slate-900 focus:border-indigo-600 focus:outline-none focus:ring-2 focus:ring-indigo-600/40"
        />
      </div>
      {error && <Notice kind="error">{error}</Notice>}
      <p role="status" aria-live="polite" class="min-h-5 text-sm text-slate-800">{message}</p>
      {rows.length === 0
        ? <p class="text-slate-700">No comments match.</p>
        : (
          <div class="relative overflow-x-auto rounded-lg border border-slate-200 bg-white shadow-sm">
            <table class="min-w-full text-left text-sm">
              <caption class="sr-only">Comments, newest first</caption>
              <thead class="bg-slate-50 text-slate-800">
                <tr>
                  <th scope="col" class="px-3 py-2">Comment</th>
                  <th scope="col" class="px-3 py-2">Author</th>
                  <th scope="col" class="px-3 py-2">Post</th>
                  <th scope="col" class="px-3 py-2">Posted</th>
                  <th scope="col" class="px-3 py-2">
                    <span class="sr-only">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {rows.map((row) => (
                  <tr key={row.id} class="border-t border-slate-200 align-top">
                    <td class="max-w-md px-3 py-2 text-slate-900 [overflow-wrap:anywhere]">
                      {row.parentId && <span class="mr-1 text-xs font-semibold text-slate-700">Reply:</span>}
                      {clip(row.content)}
                    </td>
                    <td class="px-3 py-2 text-slate-800">{row.user?.name ?? "Deleted user"}</td>
                    <td class="px-3 py-2">
                      {row.post
                        ? (
                          <a href={`/ungatekeep/${row.postId}#comment-${row.id}`} class="text-indigo-700 underline">
                            {row.post.title}
                          </a>
                        )
                        : <span class="text-slate-700">Deleted post</span>}
                    </td>
                    <td class="whitespace-nowrap px-3 py-2 text-slate-800">{formatDateTime(row.createdAt)}</td>
                    <td class="px-3 py-2">
                      <RowDeleteButton
                        name={`the comment by ${row.user?.name ?? "a deleted user"}`}
                        disabled={!hydrated}
                        onClick={() => setDoomed(row)}
                      />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      {rows.length < total && (
        <button
          type="button"
          class={SECONDARY_BUTTON}
          disabled={!hydrated}
          onClick={() => load(rows.length)}
        >
          Show more comments
        </button>
      )}
      <ConfirmDialog
        open={doomed !== null}
        title="Delete this comment?"
        confirmLabel="Yes, delete"
        busyLabel="Deleting…"
        busy={deleting}
        tone="danger"
        onConfirm={remove}
        onCancel={() => setDoomed(null)}
      >
        “{doomed ? clip(doomed.content) : ""}” will be removed; if it has replies, they stay under a deleted comment.
      </ConfirmDialog>
    </div>
  );
}
