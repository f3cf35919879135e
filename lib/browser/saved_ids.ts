/**
 * Browser-safe: which listings the signed-in person saved (and when they applied here to the internships the page
 * shows), shared by every save button of a page. The ids are read from `GET /api/me/saved/ids` (public lists stay the
 * same for everyone; docs/decisions.md, Student space) into one signal, which each save or removal updates, so two
 * buttons of one listing agree: the buttons drawn in one turn of the page share one read, which asks about their
 * internships only; buttons drawn later (a filtered list's new cards) read again for theirs.
 */
import { signal } from "@preact/signals";
import { fetchJson } from "@/lib/browser/fetch_json.ts";
import type { SavedKind } from "@/lib/saved/schema.ts";

/** A saved listing as `kind:id`, e.g. `internships:3f…`. */
export type SavedKey = `${SavedKind}:${string}`;

/** The saved listings of the person, or null until read (or when reading failed). */
export const savedKeys = signal<ReadonlySet<SavedKey> | null>(null);

/** When the person applied here to each internship asked about that they applied to (`{internshipId: ISO}`). */
export const appliedOn = signal<Readonly<Record<string, string>>>({});

/** The most internship ids one read asks about (the server's `SavedIdsQuerySchema` takes a list page's 100). */
const ASKED_AT_ONCE = 100;

/** Internship ids asked about (or waiting for the next read), so that each is asked about once. */
const asked = new Set<string>();
let waiting: string[] = [];
/** The read that gathers this turn's buttons, until it is sent. */
let next: Promise<void> | null = null;
let readOnce = false;
/** Saves and removals done on this page, applied over the ids read (which may have been answered before them). */
const changes = new Map<SavedKey, boolean>();

/** `keys` with this page's changes applied. */
function withChanges(keys: Iterable<SavedKey>): Set<SavedKey> {
  const found = new Set(keys);
  for (const [key, saved] of changes) saved ? found.add(key) : found.delete(key);
  return found;
}

/** Reads the saved ids, and when the person applied to `internshipIds` (`ASKED_AT_ONCE` a request). */
async function read(internshipIds: string[]): Promise<void> {
  const parts: string[][] = [];
  for (let i = 0; i < internshipIds.length; i += ASKED_AT_ONCE) parts.push(internshipIds.slice(i, i + ASKED_AT_ONCE));
  await Promise.all((parts.length ? parts : [[]]).map(async (part) => {
    const query = part.length ? `?${new URLSearchParams({ internships: part.join(",") })}` : "";
    const res = await fetchJson<Record<SavedKind, string[]> & { applied: Record<string, string> }>(
      `/api/me/saved/ids${query}`,
    );
    if (!res.ok) return;
    appliedOn.value = { ...appliedOn.value, ...res.data.applied };
    savedKeys.value = withChanges([
      ...res.data.internships.map((id): SavedKey => `internships:${id}`),
      ...res.data.opportunities.map((id): SavedKey => `opportunities:${id}`),
    ]);
  }));
}

/**
 * Reads the saved ids once per page, and when the person applied to internship `internshipId` (the button's, if an
 * internship's): calls in the same turn share one read; a later call reads again only for an internship not yet asked
 * about.
 */
export function loadSavedKeys(internshipId?: string): Promise<void> {
  if (internshipId !== undefined && !asked.has(internshipId)) {
    asked.add(internshipId);
    waiting.push(internshipId);
  } else if (readOnce || next) return next ?? Promise.resolve();
  next ??= new Promise((resolve) => setTimeout(resolve)).then(() => {
    const ids = waiting;
    waiting = [];
    next = null;
    readOnce = true;
    return read(ids);
  });
  return next;
}

/** Marks `key` saved or not (once the ids are read, at once in the shared set). */
export function markSaved(key: SavedKey, saved: boolean): void {
  changes.set(key, saved);
  if (savedKeys.value !== null) savedKeys.value = withChanges(savedKeys.value);
}

/** The query parameter that carries a save a guest asked for across signing in. */
export const SAVE_PARAM = "save";
