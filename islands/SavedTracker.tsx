/**
 * The application tracker (`/me/tracker`; docs/decisions.md, Student space): the person's saved internships and
 * opportunities grouped by status (saved → applied → interviewing → offer / rejected), each group's count and first
 * items with a "Show N more" link (a plain link to the page showing more of that group, so it works without
 * JavaScript; docs/decisions.md, Student space, "The tracker"), each item with its last day and a
 * "closes in N days" warning, a status select and a note that are saved in place (`PUT /api/me/saved/{kind}/{id}`),
 * and a remove button (`DELETE`). The live region says a change is being saved while its call is out (a slow
 * connection shows it for seconds), then its outcome. Without JavaScript each item is a plain form
 * posting to `/me/tracker` ("Save" sends the status and the note, "Remove" removes it; docs/decisions.md, Islands,
 * "Forms work without JavaScript"), and the line above the board says so until the island hydrates. Leaving the page
 * with a note typed and not saved (the connection failed) asks first (`data-unsaved`, docs/decisions.md, Islands,
 * "Leaving a typed form").
 */
import { useState } from "preact/hooks";
import type { ComponentChildren } from "preact";
import { failureMessage, fetchJson, refusalPrefixes } from "@/lib/browser/fetch_json.ts";
import { STATUS_KEYS, trackerItemOf, trackerRow } from "@/lib/browser/tracker.ts";
import { deadlineStatus } from "@/lib/browser/internship_format.ts";
import { ROW_INPUT, SECONDARY_BUTTON } from "@/lib/browser/styles.ts";
import { useHydrated } from "@/lib/browser/use_hydrated.ts";
import type { SavedItem, SavedStatus, TrackerItem } from "@/lib/saved/schema.ts";
import { type IslandText, type Translate, translatorOf } from "@/lib/i18n/translator.ts";

/** The messages this island uses (its `text`). */
export const SAVED_TRACKER_TEXT = [
  "me.tracker.",
  "internships.deadline.",
  "common.errors.",
  ...refusalPrefixes("internshipNotFound", "opportunityNotFound", "tooManySaved"),
] as const;

/**
 * Props: the items shown (the first ones of each status, newest change first), how many items each status has in all,
 * for each status with more than shown the link that shows more of it and how many, and the island's messages.
 */
export interface SavedTrackerProps {
  items: TrackerItem[];
  totals: Record<SavedStatus, number>;
  more: Partial<Record<SavedStatus, { href: string; count: number }>>;
  text: IslandText;
}

const STATUSES = Object.keys(STATUS_KEYS) as SavedStatus[];
const NOTE_MAX = 500;

/** Screen-reader-only words inside a message (`<sr>…</sr>`). */
const sr = (chunks: ComponentChildren[]) => <span class="sr-only">{chunks}</span>;

/** The title of a saved item's listing, or words for one that was removed. */
function titleOf(t: Translate, item: TrackerItem): string {
  return trackerRow(item).title ?? t("me.tracker.removedListing");
}

function Row(
  { t, item, onChange, onRemove, hydrated }: {
    t: Translate;
    item: TrackerItem;
    onChange: (item: TrackerItem, change: { status?: SavedStatus; note?: string }) => Promise<boolean>;
    onRemove: (item: TrackerItem) => void;
    hydrated: boolean;
  },
) {
  const row = trackerRow(item);
  const title = titleOf(t, item);
  const closing = row.days === null ? null : deadlineStatus(t, row.days);
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
        data-unsaved={note.trim() !== item.note || undefined}
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
            <p class="text-xs font-medium uppercase tracking-wide text-slate-600">
              {t.dynamic(`me.tracker.kind.${item.kind}`)}
            </p>
            <h3 id={`${base}-title`} class="font-semibold text-slate-900">
              {row.href ? <a href={row.href} class="hover:text-indigo-700 hover:underline">{title}</a> : title}
            </h3>
            {row.organization && <p class="text-sm text-slate-700">{row.organization}</p>}
            {row.lastDay && (
              <p class="mt-1 text-sm text-slate-700">
                {t.rich("me.tracker.lastDay", { date: <time datetime={row.lastDay}>{t.date(row.lastDay)}</time> })}{" "}
                <span
                  class={row.warn
                    ? "font-semibold text-amber-900"
                    : row.days !== null && row.days < 0
                    ? "text-red-700"
                    : ""}
                >
                  ({row.warn ? `⚠ ${closing}` : closing})
                </span>
              </p>
            )}
          </div>
          <div class="flex flex-wrap items-end gap-2">
            <div>
              <label for={`${base}-status`} class="block text-xs font-medium text-slate-800">
                {t("me.tracker.statusLabel")}
              </label>
              <select
                id={`${base}-status`}
                name="status"
                value={item.status}
                disabled={busy}
                onChange={(e) => save({ status: e.currentTarget.value as SavedStatus })}
                class={`mt-1 ${ROW_INPUT}`}
              >
                {STATUSES.map((status) => <option key={status} value={status}>{t(STATUS_KEYS[status])}</option>)}
              </select>
            </div>
            <button type="submit" name="intent" value="remove" disabled={busy} class={SECONDARY_BUTTON}>
              {t.rich("me.tracker.remove", { title, sr })}
            </button>
          </div>
        </div>
        <div class="mt-3 flex flex-wrap items-end gap-2">
          <div class="min-w-0 flex-1">
            <label for={`${base}-note`} class="block text-xs font-medium text-slate-800">{t("me.tracker.note")}</label>
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
            {t.rich(hydrated ? "me.tracker.saveNote" : "me.tracker.save", { title, sr })}
          </button>
        </div>
      </form>
    </li>
  );
}

export default function SavedTracker({ items: initial, totals: initialTotals, more, text }: SavedTrackerProps) {
  const t = translatorOf(text);
  const hydrated = useHydrated();
  const [items, setItems] = useState(initial);
  const [totals, setTotals] = useState(initialTotals);
  const [message, setMessage] = useState("");
  const count = (status: SavedStatus, by: number) => setTotals((all) => ({ ...all, [status]: all[status] + by }));

  const onChange = async (item: TrackerItem, change: { status?: SavedStatus; note?: string }) => {
    setMessage(t("me.tracker.saving", { title: titleOf(t, item) }));
    const res = await fetchJson<{ item: SavedItem }>(`/api/me/saved/${item.kind}/${item.id}`, {
      method: "PUT",
      body: change,
    });
    if (!res.ok) {
      setMessage(t("me.tracker.notSaved", { error: failureMessage(t, res) }));
      return false;
    }
    const next = trackerItemOf(res.data.item);
    if (next.status !== item.status) {
      count(item.status, -1);
      count(next.status, 1);
    }
    setItems((all) => [next, ...all.filter((other) => other.kind !== next.kind || other.id !== next.id)]);
    const title = titleOf(t, next);
    setMessage(
      change.status
        ? t("me.tracker.moved", { title, status: t(STATUS_KEYS[next.status]) })
        : t("me.tracker.noteSaved", { title }),
    );
    return true;
  };

  const onRemove = async (item: TrackerItem) => {
    setMessage(t("me.tracker.removing", { title: titleOf(t, item) }));
    const res = await fetchJson(`/api/me/saved/${item.kind}/${item.id}`, { method: "DELETE" });
    if (!res.ok) {
      setMessage(t("me.tracker.notRemoved", { error: failureMessage(t, res) }));
      return;
    }
    count(item.status, -1);
    setItems((all) => all.filter((other) => other.kind !== item.kind || other.id !== item.id));
    setMessage(t("me.tracker.removed", { title: titleOf(t, item) }));
  };

  const empty = STATUSES.every((status) => totals[status] === 0);
  return (
    <div>
      {!empty && (
        <p class="text-sm text-slate-700">{t(hydrated ? "me.tracker.savedLead" : "me.tracker.savedLeadPlain")}</p>
      )}
      {/* Empty, the list keeps no line for a message under its heading: only a removal can bring one. */}
      <p role="status" class={`text-sm text-slate-800 ${empty ? "" : "min-h-6"}`}>{message}</p>
      {empty
        ? (
          <div class="mt-2 rounded-lg border border-dashed border-slate-300 bg-white p-8 text-center">
            <p class="font-medium text-slate-900">{t("me.tracker.empty")}</p>
            <p class="mt-1 text-slate-700">
              {t.rich("me.tracker.emptyHint", {
                internship: (chunks) => <a href="/internships" class="text-indigo-700 underline">{chunks}</a>,
                opportunity: (chunks) => <a href="/opportunities" class="text-indigo-700 underline">{chunks}</a>,
              })}
            </p>
          </div>
        )
        : (
          <div class="mt-2 grid gap-6 lg:grid-cols-2">
            {STATUSES.map((status) => {
              const group = items.filter((item) => item.status === status);
              const rest = more[status];
              return (
                <section key={status} aria-labelledby={`tracker-${status}`}>
                  <h2 id={`tracker-${status}`} class="text-lg font-semibold text-slate-900">
                    {t(STATUS_KEYS[status])} <span class="font-normal text-slate-700">({totals[status]})</span>
                  </h2>
                  {group.length > 0
                    ? (
                      <ul class="mt-2 space-y-3">
                        {group.map((item) => (
                          <Row
                            key={`${item.kind}:${item.id}`}
                            t={t}
                            item={item}
                            onChange={onChange}
                            onRemove={onRemove}
                            hydrated={hydrated}
                          />
                        ))}
                      </ul>
                    )
                    : !rest && <p class="mt-2 text-sm text-slate-700">{t("me.tracker.none")}</p>}
                  {rest && (
                    <a href={rest.href} class="mt-3 inline-block text-sm font-medium text-indigo-700 underline">
                      {t.rich("me.tracker.showMore", { count: rest.count, status: t(STATUS_KEYS[status]), sr })}
                    </a>
                  )}
                </section>
              );
            })}
          </div>
        )}
    </div>
  );
}
