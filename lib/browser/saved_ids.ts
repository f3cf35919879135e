/**
 * Browser-safe: which listings the signed-in person saved (and when they applied here to internships), shared by
 * every save button of a page. The ids are read
 * once per page from `GET /api/me/saved/ids` (public lists stay the same for everyone;
 * docs/decisions.md, Student space) into one signal, which each save or removal updates, so two buttons of one
 * listing agree.
 */
import { signal } from "@preact/signals";
import { fetchJson } from "@/lib/browser/fetch_json.ts";
import type { SavedKind } from "@/lib/saved/schema.ts";

/** A saved listing as `kind:id`, e.g. `internships:3f…`. */
export type SavedKey = `${SavedKind}:${string}`;

/** The saved listings of the person, or null until read (or when reading failed). */
export const savedKeys = signal<ReadonlySet<SavedKey> | null>(null);

/** When the person applied here to each internship they applied to (`{internshipId: ISO}`), read with the ids. */
export const appliedOn = signal<Readonly<Record<string, string>>>({});

let loading: Promise<void> | null = null;
/** Saves and removals done on this page, applied over the ids read (which may have been answered before them). */
const changes = new Map<SavedKey, boolean>();

/** `keys` with this page's changes applied. */
function withChanges(keys: Iterable<SavedKey>): Set<SavedKey> {
  const next = new Set(keys);
  for (const [key, saved] of changes) saved ? next.add(key) : next.delete(key);
  return next;
}

/** Reads the saved ids once per page (later calls share the first read). */
export function loadSavedKeys(): Promise<void> {
  loading ??= fetchJson<Record<SavedKind, string[]> & { applied: Record<string, string> }>("/api/me/saved/ids").then(
    (res) => {
      if (!res.ok) return;
      appliedOn.value = res.data.applied;
      savedKeys.value = withChanges([
        ...res.data.internships.map((id): SavedKey => `internships:${id}`),
        ...res.data.opportunities.map((id): SavedKey => `opportunities:${id}`),
      ]);
    },
  );
  return loading;
}

/** Marks `key` saved or not (once the ids are read, at once in the shared set). */
export function markSaved(key: SavedKey, saved: boolean): void {
  changes.set(key, saved);
  if (savedKeys.value !== null) savedKeys.value = withChanges(savedKeys.value);
}

/** The query parameter that carries a save a guest asked for across signing in. */
export const SAVE_PARAM = "save";
