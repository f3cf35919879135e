/**
 * Work a request starts and does not wait for (docs/decisions.md, Background work): the first delivery try of a mail
 * it queued, the lookup behind a forgotten-password answer. The promises are kept until they settle, so a graceful
 * shutdown (and a test) can wait for them before closing KV. A failure is logged, never thrown.
 */
import type { Logger } from "@/lib/log.ts";

/** The work in flight of one process. */
export class BackgroundWork {
  #pending = new Set<Promise<void>>();

  /** Starts `work` now without the caller awaiting it; a failure is logged as `label` with `log`. */
  start(log: Logger, label: string, work: () => Promise<void>): void {
    const promise = work()
      .catch((error) => log.error(label, { error: String(error) }))
      .finally(() => this.#pending.delete(promise));
    this.#pending.add(promise);
  }

  /** Resolves once every work started, including work started meanwhile, has settled. */
  async settled(): Promise<void> {
    while (this.#pending.size > 0) await Promise.all(this.#pending);
  }
}
