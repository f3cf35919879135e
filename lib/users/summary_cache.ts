/**
 * User summaries (`{id, name, image, role}`) kept in memory for read models that show a record's
 * user beside it (internships, and likewise opportunities or feed posts): read through
 * `getUserSummaries`, then kept until the users' change marker (`usersChanged`) moves: every `ttlMs` at most, a check
 * reads that one key, and only when it moved are the summaries read again, so renames and role changes show up, and
 * a user whose record is gone (an account being deleted, before its records are forgotten) is no longer shown
 * (docs/decisions.md, Data rights, "While a deletion runs"; docs/decisions.md, Guest pages).
 */
import { getUserSummaries, usersChanged, type UserSummary } from "./users.ts";

/** Summaries of the users one read model shows. */
export class UserSummaryCache {
  /** Grows whenever a summary changes: what was derived from the summaries stays valid until then. */
  version = 0;
  private readonly known = new Map<string, UserSummary>();
  /**
   * The change marker as read before every summary in `known` was read (so each is at least that new), once read:
   * the first read of summaries waits for it.
   */
  private marker: Promise<bigint> | null = null;
  private checkedAt = 0;
  private checking: Promise<void> | null = null;

  constructor(private readonly kv: Deno.Kv, private readonly ttlMs = 5000) {}

  /** The summaries of `ids` (those that exist), reading the ones not known yet; the map may hold others. */
  async of(ids: Iterable<string>): Promise<ReadonlyMap<string, UserSummary>> {
    const missing = [...new Set(ids)].filter((id) => !this.known.has(id));
    if (missing.length > 0) {
      await this.baseline();
      await this.read(missing);
    }
    return this.known;
  }

  /**
   * Remembers the summary of a user known to the caller (e.g. the one who just wrote). Before the marker was first
   * read this does nothing (the summary might predate it): the first `of` reads the user.
   */
  remember(user: UserSummary): void {
    if (this.marker === null) return;
    const known = this.known.get(user.id);
    if (known?.name === user.name && known.image === user.image && known.role === user.role) return;
    this.known.set(user.id, { id: user.id, name: user.name, image: user.image, role: user.role });
    this.version++;
  }

  /**
   * Checks, when `ttlMs` has passed since the last check, whether the change marker moved, and if so reads the known
   * summaries again (the check in progress, if any, otherwise). A caller answering a request does not await it: it
   * shows the summaries known, and the next request shows what the check found. The promise rejects with a failed
   * read; the next check, `ttlMs` later, tries again.
   */
  refresh(): Promise<void> {
    if (this.marker === null || Date.now() - this.checkedAt < this.ttlMs) return this.checking ?? Promise.resolve();
    this.checkedAt = Date.now();
    this.checking ??= this.check().finally(() => {
      this.checking = null;
    });
    return this.checking;
  }

  /** Reads the marker before the first summaries are read. */
  private baseline(): Promise<bigint> {
    if (!this.marker) {
      this.checkedAt = Date.now();
      this.marker = usersChanged(this.kv);
      this.marker.catch(() => this.marker = null);
    }
    return this.marker;
  }

  /** Reads the known summaries again when the marker moved since they were read. */
  private async check(): Promise<void> {
    const [marker, known] = await Promise.all([usersChanged(this.kv), this.marker!]);
    if (marker === known) return;
    await this.read(this.known.keys());
    this.marker = Promise.resolve(marker);
  }

  /** Reads `ids` again: remembers those found and forgets those whose record is gone. */
  private async read(ids: Iterable<string>): Promise<void> {
    const wanted = [...ids];
    const found = await getUserSummaries(this.kv, wanted);
    for (const summary of found.values()) this.remember(summary);
    for (const id of wanted) if (!found.has(id) && this.known.delete(id)) this.version++;
  }
}
