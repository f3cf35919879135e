/**
 * User summaries (`{id, name, image, role}`) kept in memory for read models that show a record's
 * user beside it (internships, and likewise opportunities or feed posts): read through
 * `getUserSummaries`, reused for `ttlMs`, then read again so renames and role changes show up, and a user whose record
 * is gone (an account being deleted, before its records are forgotten) is no longer shown (docs/decisions.md, Data
 * rights, "While a deletion runs").
 */
import { getUserSummaries, type UserSummary } from "./users.ts";

/** Summaries of the users one read model shows. */
export class UserSummaryCache {
  /** Grows whenever a summary changes: what was derived from the summaries stays valid until then. */
  version = 0;
  private readonly known = new Map<string, UserSummary>();
  private refreshedAt = 0;
  private refreshing: Promise<void> | null = null;

  constructor(private readonly kv: Deno.Kv, private readonly ttlMs = 5000) {}

  /** The summaries of `ids` (those that exist), reading the ones not known yet; the map may hold others. */
  async of(ids: Iterable<string>): Promise<ReadonlyMap<string, UserSummary>> {
    const missing = [...new Set(ids)].filter((id) => !this.known.has(id));
    if (missing.length > 0) await this.read(missing);
    return this.known;
  }

  /** Remembers the summary of a user known to the caller (e.g. the one who just wrote). */
  remember(user: UserSummary): void {
    const known = this.known.get(user.id);
    if (known?.name === user.name && known.image === user.image && known.role === user.role) return;
    this.known.set(user.id, { id: user.id, name: user.name, image: user.image, role: user.role });
    this.version++;
  }

  /** Whether `ttlMs` has passed since the summaries were last read again. */
  get refreshDue(): boolean {
    return Date.now() - this.refreshedAt >= this.ttlMs;
  }

  /** Reads the summaries of `ids()` again when `ttlMs` has passed since the last time. */
  refresh(ids: () => Iterable<string>): Promise<void> {
    if (!this.refreshDue) return Promise.resolve();
    this.refreshing ??= this.read(ids()).then(() => {
      this.refreshedAt = Date.now();
    }).finally(() => {
      this.refreshing = null;
    });
    return this.refreshing;
  }

  /** Reads `ids` again: remembers those found and forgets those whose record is gone. */
  private async read(ids: Iterable<string>): Promise<void> {
    const wanted = [...ids];
    const found = await getUserSummaries(this.kv, wanted);
    for (const summary of found.values()) this.remember(summary);
    for (const id of wanted) if (!found.has(id) && this.known.delete(id)) this.version++;
  }
}
