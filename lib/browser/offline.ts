/**
 * Browser-safe: asking the service worker about what is kept offline (docs/decisions.md, Installable and offline,
 * "Keep offline"). Resolves to null where there is no service worker, or none controls the page yet and none becomes
 * ready within `waitMs`.
 */
import type { KeepReply, OfflineContents, OfflineRequest } from "@/lib/offline/messages.ts";

/** Whether this browser has service workers (the offline controls show only then). */
export function offlineSupported(): boolean {
  return typeof navigator !== "undefined" && "serviceWorker" in navigator && "caches" in globalThis;
}

/** Sends `request` to the active service worker and resolves to its answer, or null (see the module docstring). */
export async function askServiceWorker(
  request: { type: "contents" },
  waitMs?: number,
): Promise<OfflineContents | null>;
export async function askServiceWorker(
  request: Exclude<OfflineRequest, { type: "contents" }>,
  waitMs?: number,
): Promise<KeepReply | null>;
export async function askServiceWorker(
  request: OfflineRequest,
  waitMs = 10_000,
): Promise<KeepReply | OfflineContents | null> {
  if (!offlineSupported()) return null;
  const timeout = new Promise<null>((resolve) => setTimeout(() => resolve(null), waitMs));
  const registration = await Promise.race([navigator.serviceWorker.ready, timeout]);
  const worker = registration?.active;
  if (!worker) return null;
  const { port1, port2 } = new MessageChannel();
  const answer = new Promise<KeepReply | OfflineContents>((resolve) => {
    port1.onmessage = (event) => resolve(event.data);
  });
  worker.postMessage(request, [port2]);
  // Keeping a whole toolkit fetches every lesson: no timeout on the answer itself.
  return await answer;
}
