/**
 * Web Push with Web Crypto (docs/decisions.md, Push, "Web Push"): the message encryption of RFC 8291 (`aes128gcm`,
 * RFC 8188, one record) and the VAPID authorization of RFC 8292 (an ES256 JWT for the push service's origin), and one
 * POST of RFC 8030 to a subscription's endpoint. Keys travel as base64url without padding: a subscription's `p256dh`
 * (its 65-byte P-256 public key) and `auth` (16 bytes); the VAPID public key (65 bytes) and private key (32 bytes).
 */
import pLimit from "p-limit";
import type { EncryptReply, EncryptRequest } from "./encryption_worker.ts";

/** A subscription as the browser hands it over: where to post, and its keys. */
export interface PushTarget {
  endpoint: string;
  keys: { p256dh: string; auth: string };
}

/** The application server's VAPID keys (base64url) and its contact (`mailto:` or `https:`). */
export interface VapidKeys {
  publicKey: string;
  privateKey: string;
  subject: string;
}

/** The largest payload sent, in bytes: a push service takes 4,096 bytes of body, of which 103 are the encoding's. */
export const MAX_PAYLOAD_BYTES = 3993;

/** How long a push service keeps a message for a phone that is off (s): a day. */
export const PUSH_TTL_S = 24 * 60 * 60;

const encoder = new TextEncoder();

/** `bytes` as base64url without padding. */
export function toBase64Url(bytes: Uint8Array): string {
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

/** The bytes of base64url `text` (padding optional). @throws Error for text that is not base64url. */
export function fromBase64Url(text: string): Uint8Array<ArrayBuffer> {
  if (!/^[A-Za-z0-9_-]*={0,2}$/.test(text)) throw new Error("not base64url");
  const binary = atob(text.replaceAll("-", "+").replaceAll("_", "/").replace(/=+$/, ""));
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}

function concat(...parts: Uint8Array[]): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(parts.reduce((n, part) => n + part.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

async function hkdf(salt: Uint8Array<ArrayBuffer>, ikm: Uint8Array<ArrayBuffer>, info: Uint8Array, bytes: number) {
  const key = await crypto.subtle.importKey("raw", ikm, "HKDF", false, ["deriveBits"]);
  const bits = await crypto.subtle.deriveBits(
    { name: "HKDF", hash: "SHA-256", salt, info: info as Uint8Array<ArrayBuffer> },
    key,
    bytes * 8,
  );
  return new Uint8Array(bits);
}

/** The content key and nonce of RFC 8291 §3.4 for one message. */
async function messageKeys(
  { secret, authSecret, uaPublic, asPublic, salt }: {
    secret: Uint8Array<ArrayBuffer>;
    authSecret: Uint8Array<ArrayBuffer>;
    uaPublic: Uint8Array;
    asPublic: Uint8Array;
    salt: Uint8Array<ArrayBuffer>;
  },
): Promise<{ key: CryptoKey; nonce: Uint8Array<ArrayBuffer> }> {
  const ikm = await hkdf(authSecret, secret, concat(encoder.encode("WebPush: info\0"), uaPublic, asPublic), 32);
  const cek = await hkdf(salt, ikm, encoder.encode("Content-Encoding: aes128gcm\0"), 16);
  const nonce = await hkdf(salt, ikm, encoder.encode("Content-Encoding: nonce\0"), 12);
  return { key: await crypto.subtle.importKey("raw", cek, "AES-GCM", false, ["encrypt", "decrypt"]), nonce };
}

/** A P-256 public key (65 bytes, uncompressed) for ECDH. @throws when the bytes are not a point on the curve. */
export async function importP256(raw: Uint8Array<ArrayBuffer>, usage: "ECDH" | "ECDSA"): Promise<CryptoKey> {
  if (raw.length !== 65 || raw[0] !== 4) throw new Error("not an uncompressed P-256 public key");
  return await crypto.subtle.importKey(
    "raw",
    raw,
    { name: usage, namedCurve: "P-256" },
    true,
    usage === "ECDSA" ? ["verify"] : [],
  );
}

/**
 * Encrypts `plaintext` for the subscription keys `keys` as RFC 8291 says: an ephemeral ECDH key pair and a random
 * salt (both can be given, for the RFC's test vector), one `aes128gcm` record with the `0x02` delimiter. Returns the
 * body to post: salt, record size, the sender's public key, then the ciphertext.
 * @throws Error when the keys are malformed or `plaintext` is over `MAX_PAYLOAD_BYTES`.
 */
export async function encryptPayload(
  plaintext: Uint8Array,
  keys: PushTarget["keys"],
  fixed: { salt?: Uint8Array<ArrayBuffer>; sender?: CryptoKeyPair } = {},
): Promise<Uint8Array<ArrayBuffer>> {
  if (plaintext.length > MAX_PAYLOAD_BYTES) throw new Error(`push payload of ${plaintext.length} bytes is too large`);
  const uaPublic = fromBase64Url(keys.p256dh);
  const authSecret = fromBase64Url(keys.auth);
  if (authSecret.length !== 16) throw new Error("auth secret is not 16 bytes");
  const uaKey = await importP256(uaPublic, "ECDH");
  const sender = fixed.sender ??
    await crypto.subtle.generateKey({ name: "ECDH", namedCurve: "P-256" }, true, ["deriveBits"]) as CryptoKeyPair;
  const asPublic = new Uint8Array(await crypto.subtle.exportKey("raw", sender.publicKey));
  const secret = new Uint8Array(
    await crypto.subtle.deriveBits({ name: "ECDH", public: uaKey }, sender.privateKey, 256),
  );
  const salt = fixed.salt ?? crypto.getRandomValues(new Uint8Array(16));
  const { key, nonce } = await messageKeys({ secret, authSecret, uaPublic, asPublic, salt });
  const record = concat(plaintext, new Uint8Array([2]));
  const ciphertext = new Uint8Array(await crypto.subtle.encrypt({ name: "AES-GCM", iv: nonce }, key, record));
  const header = new Uint8Array(21);
  new DataView(header.buffer).setUint32(16, 4096);
  header.set(salt);
  header[20] = asPublic.length;
  return concat(header, asPublic, ciphertext);
}

/**
 * Decrypts a message `body` with the subscription's private key `uaPrivate` and its `keys`: the other side of
 * `encryptPayload`, for a push client (the tests' fake push service).
 * @throws Error when the body is malformed or does not decrypt.
 */
export async function decryptPayload(
  body: Uint8Array<ArrayBuffer>,
  { uaPrivate, keys }: { uaPrivate: CryptoKey; keys: PushTarget["keys"] },
): Promise<Uint8Array<ArrayBuffer>> {
  const salt = body.slice(0, 16);
  const idLength = body[20];
  const asPublic = body.slice(21, 21 + idLength);
  const asKey = await importP256(asPublic, "ECDH");
  const secret = new Uint8Array(await crypto.subtle.deriveBits({ name: "ECDH", public: asKey }, uaPrivate, 256));
  const uaPublic = fromBase64Url(keys.p256dh);
  const { key, nonce } = await messageKeys({ secret, authSecret: fromBase64Url(keys.auth), uaPublic, asPublic, salt });
  const record = new Uint8Array(
    await crypto.subtle.decrypt({ name: "AES-GCM", iv: nonce }, key, body.slice(21 + idLength)),
  );
  let end = record.length - 1;
  while (end >= 0 && record[end] === 0) end--;
  if (record[end] !== 2) throw new Error("not the last record");
  return record.slice(0, end);
}

/** The VAPID private key as an ECDSA signing key (JWK from the raw private and public keys). */
async function signingKey(vapid: VapidKeys): Promise<CryptoKey> {
  const publicKey = fromBase64Url(vapid.publicKey);
  const jwk: JsonWebKey = {
    kty: "EC",
    crv: "P-256",
    x: toBase64Url(publicKey.slice(1, 33)),
    y: toBase64Url(publicKey.slice(33, 65)),
    d: vapid.privateKey.replace(/=+$/, ""),
  };
  return await crypto.subtle.importKey("jwk", jwk, { name: "ECDSA", namedCurve: "P-256" }, false, ["sign"]);
}

/** How long a VAPID token is valid (s): 12 hours, half the 24 hours push services allow at most. */
const TOKEN_LIFETIME_S = 12 * 60 * 60;

/** One POST to a push service: its status, and the start of its answer for the record. */
export interface PushResponse {
  status: number;
  body: string;
}

/**
 * How many messages one sender has its encryption worker hold at a time: one being encrypted, one waiting, so the
 * worker never idles between two and the messages queued behind them wait on this side (docs/decisions.md, Push,
 * "Fan-out").
 */
export const ENCRYPTIONS_AT_ONCE = 2;

/** How long an idle encryption worker is kept (ms) before it is stopped to free its memory. */
export const WORKER_IDLE_MS = 30_000;

/**
 * `encryptPayload` on a Web Worker (`encryption_worker.ts`), so that a fan-out's encryption never holds the thread
 * that answers requests (docs/decisions.md, Push, "Fan-out"). The worker starts with the first message and stops after
 * `WORKER_IDLE_MS` without one, or at `close`. At most `ENCRYPTIONS_AT_ONCE` messages are with it at a time; the
 * others wait here, in order. A worker that fails (an uncaught error) is stopped, every message it held is rejected,
 * and the next message starts a new one; the push outbox keeps those messages pending and tries them again.
 */
export class EncryptionWorker {
  #worker: Worker | null = null;
  #waiting = new Map<number, { resolve: (body: Uint8Array<ArrayBuffer>) => void; reject: (error: Error) => void }>();
  #nextId = 0;
  #turn = pLimit(ENCRYPTIONS_AT_ONCE);
  #idle: ReturnType<typeof setTimeout> | null = null;

  /**
   * The body to post for `plaintext` and the subscription keys `keys` (see `encryptPayload`).
   * @throws Error when the keys or the payload cannot be encrypted, or the worker failed meanwhile.
   */
  encrypt(plaintext: Uint8Array, keys: PushTarget["keys"]): Promise<Uint8Array<ArrayBuffer>> {
    return this.#turn(() =>
      new Promise<Uint8Array<ArrayBuffer>>((resolve, reject) => {
        const id = this.#nextId++;
        this.#waiting.set(id, { resolve, reject });
        if (this.#idle !== null) clearTimeout(this.#idle);
        this.#idle = null;
        const request: EncryptRequest = { id, plaintext, keys };
        this.#started().postMessage(request);
      })
    );
  }

  /** Stops the worker; a message it still held is rejected. */
  close(): void {
    this.#stop(new Error("the push encryption worker was closed"));
  }

  #started(): Worker {
    if (this.#worker) return this.#worker;
    const worker = new Worker(new URL("./encryption_worker.ts", import.meta.url), { type: "module" });
    worker.onmessage = ({ data }: MessageEvent<EncryptReply>) => {
      const waiter = this.#waiting.get(data.id);
      this.#waiting.delete(data.id);
      if ("error" in data) waiter?.reject(new Error(data.error));
      else waiter?.resolve(data.body as Uint8Array<ArrayBuffer>);
      if (this.#waiting.size === 0 && this.#turn.pendingCount === 0) this.#idleSoon();
    };
    worker.onerror = (event: ErrorEvent) => {
      event.preventDefault();
      this.#stop(new Error(`the push encryption worker failed: ${event.message}`));
    };
    this.#worker = worker;
    return worker;
  }

  #idleSoon(): void {
    const idle = setTimeout(() => this.#stop(new Error("the push encryption worker was idle")), WORKER_IDLE_MS);
    Deno.unrefTimer(idle);
    this.#idle = idle;
  }

  #stop(error: Error): void {
    if (this.#idle !== null) clearTimeout(this.#idle);
    this.#idle = null;
    this.#worker?.terminate();
    this.#worker = null;
    for (const { reject } of this.#waiting.values()) reject(error);
    this.#waiting.clear();
  }
}

/**
 * Sends encrypted push messages with VAPID. A token is signed per push service origin and reused until it has an
 * hour left, so a fan-out signs a handful of tokens, not one per message. Messages are encrypted by an
 * `EncryptionWorker`; the posts do not wait for each other.
 */
export class PushSender {
  readonly publicKey: string;
  #key: Promise<CryptoKey>;
  #encryption = new EncryptionWorker();
  #tokens = new Map<string, { header: string; expires: number }>();
  #vapid: VapidKeys;
  #fetch: typeof fetch;

  /** @throws nothing here; a bad private key fails the first `send` (`loadConfig` checks the lengths). */
  constructor(vapid: VapidKeys, fetcher: typeof fetch = fetch) {
    this.#vapid = vapid;
    this.publicKey = vapid.publicKey;
    this.#key = signingKey(vapid);
    this.#key.catch(() => {});
    this.#fetch = fetcher;
  }

  /** Stops the encryption worker (at shutdown). */
  close(): void {
    this.#encryption.close();
  }

  /** The `Authorization` header for `endpoint`'s push service at `nowS` (seconds since the epoch). */
  async authorization(endpoint: string, nowS = Math.floor(Date.now() / 1000)): Promise<string> {
    const audience = new URL(endpoint).origin;
    const cached = this.#tokens.get(audience);
    if (cached && cached.expires - nowS > 60 * 60) return cached.header;
    const expires = nowS + TOKEN_LIFETIME_S;
    const part = (value: unknown) => toBase64Url(encoder.encode(JSON.stringify(value)));
    const unsigned = `${part({ typ: "JWT", alg: "ES256" })}.${
      part({ aud: audience, exp: expires, sub: this.#vapid.subject })
    }`;
    const signature = await crypto.subtle.sign(
      { name: "ECDSA", hash: "SHA-256" },
      await this.#key,
      encoder.encode(unsigned),
    );
    const header = `vapid t=${unsigned}.${toBase64Url(new Uint8Array(signature))}, k=${this.publicKey}`;
    this.#tokens.set(audience, { header, expires });
    return header;
  }

  /**
   * Posts `payload` (JSON) to `target`, encrypted, with `TTL`, `Urgency` and, when given, `Topic` (a newer message of
   * the same topic replaces one the service still holds). Resolves to the service's status (201 on success, 404 or 410
   * for a subscription that is gone).
   * @throws Error on a network failure or a timeout of `timeoutMs`, or for keys or a payload that cannot be encrypted.
   */
  async send(
    target: PushTarget,
    payload: unknown,
    { topic, urgency = "normal", timeoutMs = 15_000 }: {
      topic?: string;
      urgency?: "normal" | "high";
      timeoutMs?: number;
    } = {},
  ): Promise<PushResponse> {
    const body = await this.#encryption.encrypt(encoder.encode(JSON.stringify(payload)), target.keys);
    const headers: Record<string, string> = {
      "content-type": "application/octet-stream",
      "content-encoding": "aes128gcm",
      ttl: String(PUSH_TTL_S),
      urgency,
      authorization: await this.authorization(target.endpoint),
    };
    if (topic) headers.topic = topic;
    const res = await this.#fetch(target.endpoint, {
      method: "POST",
      headers,
      body,
      signal: AbortSignal.timeout(timeoutMs),
    });
    return { status: res.status, body: (await res.text()).slice(0, 200) };
  }
}

/** A new VAPID key pair, base64url (what `scripts/vapid_keys.ts` prints). */
export async function generateVapidKeys(): Promise<{ publicKey: string; privateKey: string }> {
  const pair = await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, true, ["sign", "verify"]);
  const publicKey = toBase64Url(new Uint8Array(await crypto.subtle.exportKey("raw", pair.publicKey)));
  const { d } = await crypto.subtle.exportKey("jwk", pair.privateKey);
  return { publicKey, privateKey: d! };
}
