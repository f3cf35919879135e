/** Opening the Deno KV store (`KV_PATH`; docs/decisions.md, Running). */
import { dirname } from "node:path";

/** How many times a commit refused with "database is locked" is tried in all. */
export const BUSY_COMMIT_ATTEMPTS = 20;

let busyRetryInstalled = false;

/**
 * Makes every `AtomicOperation.commit()` retry, after a short random pause, when SQLite refuses
 * it with `TypeError: database is locked`. Deno KV's SQLite backend retries a busy transaction
 * itself, except inside its batched atomic writes: when another connection to the same file
 * (a second process, or the cleanup task every connection runs) commits between the write's
 * read and its first write, the write fails at once with SQLITE_BUSY_SNAPSHOT. Nothing of it was
 * written, so trying it again is safe; its checks are evaluated afresh. Gives up after
 * {@link BUSY_COMMIT_ATTEMPTS} attempts and throws the last error. Installed once per process.
 */
function retryBusyCommits(kv: Deno.Kv): void {
  if (busyRetryInstalled) return;
  busyRetryInstalled = true;
  const prototype = Object.getPrototypeOf(kv.atomic()) as Deno.AtomicOperation;
  const commit = prototype.commit;
  prototype.commit = async function (this: Deno.AtomicOperation) {
    for (let attempt = 1;; attempt++) {
      try {
        return await commit.call(this);
      } catch (error) {
        const busy = error instanceof TypeError && error.message === "database is locked";
        if (!busy || attempt >= BUSY_COMMIT_ATTEMPTS) throw error;
        await new Promise((resolve) => setTimeout(resolve, Math.random() * 5 * attempt));
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
