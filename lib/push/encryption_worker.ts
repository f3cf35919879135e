/**
 * The push encryption worker (docs/decisions.md, Push, "Fan-out"): a Web Worker that encrypts push messages
 * (`encryptPayload`) off the thread that answers requests. `EncryptionWorker` of `web_push.ts` starts it. Its protocol:
 * it takes `EncryptRequest` `{id, plaintext, keys}` and answers `EncryptReply`, `{id, body}` (the body to post) or
 * `{id, error}` (why the keys or the payload could not be encrypted), one answer for each request.
 */
import { encryptPayload, type PushTarget } from "./web_push.ts";

/** A message to encrypt: `plaintext` (the JSON payload's bytes) for the subscription keys `keys`. */
export interface EncryptRequest {
  id: number;
  plaintext: Uint8Array;
  keys: PushTarget["keys"];
}

/** The worker's answer to the request `id`. */
export type EncryptReply = { id: number; body: Uint8Array } | { id: number; error: string };

/** The worker's side of `postMessage`: `Deno.window`'s typings describe a window's. */
const worker = self as unknown as {
  onmessage: ((event: MessageEvent<EncryptRequest>) => void) | null;
  postMessage(message: EncryptReply, transfer?: Transferable[]): void;
};

worker.onmessage = async ({ data: { id, plaintext, keys } }) => {
  try {
    const body = await encryptPayload(plaintext, keys);
    worker.postMessage({ id, body }, [body.buffer]);
  } catch (error) {
    worker.postMessage({ id, error: error instanceof Error ? error.message : String(error) });
  }
};
