/** Opening the Deno KV store (`KV_PATH`; docs/decisions.md, Running). */
import { dirname } from "node:path";

/** How long (ms) a commit refused with "database is locked" keeps being tried before the error is thrown. */
export const BUSY_COMMIT_BUDGET_MS = 30_000;

/** The longest pause (ms) between two tries of a refused commit. */
const BUSY_PAUSE_MAX_MS = 250;

let busyRetryInstalled = false;

/**
 * Makes every `AtomicOperation.commit()` retry, after a short random pause, when SQLite refuses
 * it with `TypeError: database is locked`. Deno KV's SQLite backend retries a busy transaction
 * itself, except inside its batched atomic writes: when another connection to the same file
 * (a second process, or the cleanup task every connection runs) commits between the write's
 * read and its first write, the write fails at once with SQLITE_BUSY_SNAPSHOT. Nothing of it was
 * written, so trying it again is safe; its checks are evaluated afresh. The pauses grow with a
 * random spread up to {@link BUSY_PAUSE_MAX_MS}, so a machine under heavy load (where the other
 * connection holds the file longer) still gets through; after {@link BUSY_COMMIT_BUDGET_MS} of
 * refusals the last error is thrown. Installed once per process.
 */
function retryBusyCommits(kv: Deno.Kv): void {
  if (busyRetryInstalled) return;
  busyRetryInstalled = true;
  const prototype = Object.getPrototypeOf(kv.atomic()) as Deno.AtomicOperation;
  const commit = prototype.commit;
  prototype.commit = async function (this: Deno.AtomicOperation) {
    const giveUpAt = Date.now() + BUSY_COMMIT_BUDGET_MS;
    for (let attempt = 1;; attempt++) {
      try {
        return await commit.call(this);
      } catch (error) {
        const busy = error instanceof TypeError && error.message === "database is locked";
        if (!busy || Date.now() >= giveUpAt) throw error;
        const pause = Math.min(BUSY_PAUSE_MAX_MS, 5 * attempt) * Math.random();
        await new Promise((resolve) => setTimeout(resolve, pause));
      }
    }
  };
}

/**
 * Opens KV at `path`: a file (its folder is created), `:memory:`, a KV Connect URL, or
 * undefined for the platform's KV on Deno Deploy. For a file, commits refused because another
 * connection holds the file are retried (see {@link retryBusyCommits}), so several processes can
 * share one file.
 */
export async function openKv(path: string | undefined): Promise<Deno.Kv> {
  const file = path && path !== ":memory:" && !/^https?:\/\//.test(path);
  if (file) await Deno.mkdir(dirname(path), { recursive: true });
  const kv = await Deno.openKv(path);
  if (file) retryBusyCommits(kv);
  return kv;
}
