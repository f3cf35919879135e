/**
 * The application tracker (`/me/tracker`; docs/decisions.md, Student space): the person's saved internships and
 * opportunities grouped by status (saved → applied → interviewing → offer / rejected), each with its last day and a
 * "closes in N days" warning, a status select and a note that are saved in place (`PUT /api/me/saved/{kind}/{id}`),
 * and a remove button (`DELETE`). Outcomes are announced in a live region. Without JavaScript each item is a plain form
 * posting to `/me/tracker` ("Save" sends the status and the note, "Remove" removes it; docs/decisions.md, Islands,
 * "Forms work without JavaScript").
 */
import { useState } from "preact/hooks";
import { fetchJson } from "@/lib/browser/fetch_json.ts";
import { formatDate } from "@/lib/dates.ts";
import { STATUS_LABELS, trackerRow } from "@/lib/browser/tracker.ts";
import { ROW_INPUT, SECONDARY_BUTTON } from "@/lib/browser/styles.ts";
import { useHydrated } from "@/lib/browser/use_hydrated.ts";
import type { SavedItem, SavedStatus } from "@/lib/saved/schema.ts";

/** Props: the saved items, newest change first, as `GET /api/me/saved` answers them. */
export interface SavedTrackerProps {
  items: SavedItem[];
}

const STATUSES = Object.keys(STATUS_LABELS) as SavedStatus[];
const NOTE_MAX = 500;
const KIND_LABELS = { internships: "Internship", opportunities: "Opportunity" } as const;

function Row(
  { item, onChange, onRemove, hydrated }: {
    item: SavedItem;
    onChange: (item: SavedItem, change: { status?: SavedStatus; note?: string }) => Promise<boolean>;
    onRemove: (item: SavedItem) => void;
    hydrated: boolean;
  },
) {
  const row = trackerRow(item);
  const [note, setNote] = useState(item.note);
  const [busy, setBusy] = useState(false);
  const base = `tracker-${item.kind}-${item.id}`;
  const save = async (change: { status?: SavedStatus; note?: string }) => {
    setBusy(true);
    await onChange(item, change);
    setBusy(false);
  };
  return (
    <li
      id={base}
      class="scroll-mt-20 rounded-lg border border-slate-200 bg-white p-4 shadow-sm [overflow-wrap:anywhere]"
    >
      <form
        method="post"
        action="/me/tracker"
        onSubmit={(e) => {
          e.preventDefault();
          const intent = (e.submitter as HTMLButtonElement | null)?.value;
          if (intent === "remove") onRemove(item);
          else save({ note });
        }}
      >
        <input type="hidden" name="kind" value={item.kind} />
        <input type="hidden" name="id" value={item.id} />
        <div class="flex flex-wrap items-start justify-between gap-3">
          <div>
            <p class="text-xs font-medium uppercase tracking-wide text-slate-600">{KIND_LABELS[item.kind]}</p>
            <h3 id={`${base}-title`} class="font-semibold text-slate-900">
              {row.href ? <a href={row.href} class="hover:text-indigo-700 hover:underline">{row.title}</a> : row.title}
            </h3>
            {row.organization && <p class="text-sm text-slate-700">{row.organization}</p>}
            {row.lastDay && (
              <p class="mt-1 text-sm text-slate-700">
                Last day <time datetime={row.lastDay}>{formatDate(row.lastDay)}</time>{" "}
                <span
                  class={row.warn ? "font-semibold text-amber-900" : row.closing === "Closed" ? "text-red-700" : ""}
                >
                  ({row.warn ? `⚠ ${row.closing}` : row.closing})
                </span>
              </p>
            )}
          </div>
          <div class="flex flex-wrap items-end gap-2">
            <div>
              <label for={`${base}-status`} class="block text-xs font-medium text-slate-800">Status</label>
              <select
                id={`${base}-status`}
                name="status"
                value={item.status}
                disabled={busy}
                onChange={(e) => save({ status: e.currentTarget.value as SavedStatus })}
                class={`mt-1 ${ROW_INPUT}`}
              >
                {STATUSES.map((status) => <option key={status} value={status}>{STATUS_LABELS[status]}</option>)}
              </select>
            </div>
            <button type="submit" name="intent" value="remove" disabled={busy} class={SECONDARY_BUTTON}>
              Remove<span class="sr-only">{` ${row.title}`}</span>
            </button>
          </div>
        </div>
        <div class="mt-3 flex flex-wrap items-end gap-2">
          <div class="min-w-0 flex-1">
            <label for={`${base}-note`} class="block text-xs font-medium text-slate-800">Note</label>
            <textarea
              id={`${base}-note`}
              name="note"
              rows={2}
              maxLength={NOTE_MAX}
              value={note}
              onInput={(e) => setNote(e.currentTarget.value)}
              class={`mt-1 block w-full ${ROW_INPUT}`}
            />
          </div>
          <button
            type="submit"
            name="intent"
            value="update"
            disabled={busy || (hydrated && note === item.note)}
            class={SECONDARY_BUTTON}
          >
            {hydrated ? "Save note" : "Save"}
            <span class="sr-only">{` for ${row.title}`}</span>
          </button>
        </div>
      </form>
    </li>
  );
}

export default function SavedTracker({ items: initial }: SavedTrackerProps) {
  const hydrated = useHydrated();
  const [items, setItems] = useState(initial);
  const [message, setMessage] = useState("");

  const onChange = async (item: SavedItem, change: { status?: SavedStatus; note?: string }) => {
    const res = await fetchJson<{ item: SavedItem }>(`/api/me/saved/${item.kind}/${item.id}`, {
      method: "PUT",
      body: change,
    });
    if (!res.ok) {
      setMessage(`Could not save: ${res.error}`);
      return false;
    }
    const next = res.data.item;
    setItems((all) => [next, ...all.filter((other) => other.kind !== next.kind || other.id !== next.id)]);
    const title = trackerRow(next).title;
    setMessage(change.status ? `Moved “${title}” to ${STATUS_LABELS[next.status]}.` : `Saved the note for “${title}”.`);
    return true;
  };

  const onRemove = async (item: SavedItem) => {
    const res = await fetchJson(`/api/me/saved/${item.kind}/${item.id}`, { method: "DELETE" });
    if (!res.ok) {
      setMessage(`Could not remove: ${res.error}`);
      return;
    }
    setItems((all) => all.filter((other) => other.kind !== item.kind || other.id !== item.id));
    setMessage(`Removed “${trackerRow(item).title}”.`);
  };

  return (
    <div>
      <p role="status" class="min-h-6 text-sm text-slate-800">{message}</p>
      {items.length === 0
        ? (
          <div class="mt-4 rounded-lg border border-dashed border-slate-300 bg-white p-8 text-center">
            <p class="font-medium text-slate-900">Nothing saved yet.</p>
            <p class="mt-1 text-slate-700">
              Use “Save” on an <a href="/internships" class="text-indigo-700 underline">internship</a> or an{" "}
              <a href="/opportunities" class="text-indigo-700 underline">opportunity</a> to track it here.
            </p>
          </div>
        )
        : (
          <div class="mt-2 grid gap-6 lg:grid-cols-2">
            {STATUSES.map((status) => {
              const group = items.filter((item) => item.status === status);
              return (
                <section key={status} aria-labelledby={`tracker-${status}`}>
                  <h2 id={`tracker-${status}`} class="text-lg font-semibold text-slate-900">
                    {STATUS_LABELS[status]} <span class="font-normal text-slate-700">({group.length})</span>
                  </h2>
                  {group.length > 0
                    ? (
                      <ul class="mt-2 space-y-3">
                        {group.map((item) => (
                          <Row
                            key={`${item.kind}:${item.id}`}
                            item={item}
                            onChange={onChange}
                            onRemove={onRemove}
                            hydrated={hydrated}
                          />
                        ))}
                      </ul>
                    )
                    : <p class="mt-2 text-sm text-slate-700">None.</p>}
                </section>
              );
            })}
          </div>
        )}
    </div>
  );
}
