/**
 * A fake push service for tests and benchmarks (RFC 8030): it hands out subscriptions as a browser's push service
 * would (a fresh P-256 key pair and auth secret per subscription, an endpoint on this server), and takes each message
 * posted to an endpoint only when it is what a real service demands: a VAPID `Authorization` (RFC 8292) whose ES256
 * JWT verifies with the key `k`, names this service's origin as `aud`, expires within 24 hours and has a `mailto:` or
 * `https:` `sub`, with `k` the application server key the subscription was made for; `TTL`; and an `aes128gcm` body
 * (RFC 8291) that decrypts with the subscription's private key. A taken message is kept decrypted and parsed (201).
 * A refused one answers 400 or 403 and is kept in `refused`. `gone(endpoint)` makes an endpoint answer 410, `down`
 * makes every post answer 503. `GET /stats` answers `{taken, refused, posts}` (for a benchmark in another process).
 * Point the app at it with `createTestApp({ env: fake.env })`.
 */
import { decryptPayload, fromBase64Url, generateVapidKeys, importP256, toBase64Url } from "@/lib/push/web_push.ts";

/** A subscription as a browser hands it to the app: `PushSubscription.toJSON()`. */
export interface FakeSubscription {
  endpoint: string;
  expirationTime: null;
  keys: { p256dh: string; auth: string };
}

/** A message the service took. */
export interface ReceivedPush {
  endpoint: string;
  /** The decrypted body, parsed as JSON. */
  payload: { title: string; body: string; url: string; tag?: string };
  ttl: number;
  urgency: string | null;
  topic: string | null;
}

/** A running fake push service. */
export interface FakePushService extends AsyncDisposable {
  /** `http://127.0.0.1:<port>`. */
  origin: string;
  /** The app's environment for this service: its VAPID keys and `PUSH_HOSTS` naming it. */
  env: Record<string, string>;
  /** A new subscription, as a browser subscribing with this service's application server key gets one. */
  subscribe(): Promise<FakeSubscription>;
  /** The messages taken, in order. */
  messages: ReceivedPush[];
  /** The messages refused, with the status answered and why. */
  refused: { endpoint: string; status: number; reason: string }[];
  /** How many posts arrived, taken or not. */
  posts: number;
  /** From now on `endpoint` answers 410 Gone, as for a browser that unsubscribed. */
  gone(endpoint: string): void;
  /** While true every post answers 503. */
  down: boolean;
  /** Resolves once `count` messages were taken (waits up to `timeoutMs`). @throws Error on timeout. */
  waitFor(count: number, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

interface Holder {
  uaPrivate: CryptoKey;
  keys: FakeSubscription["keys"];
  gone: boolean;
}

/** Starts the service on a free port of 127.0.0.1. */
export async function startFakePushService(): Promise<FakePushService> {
  const vapid = await generateVapidKeys();
  const serverKey = await importP256(fromBase64Url(vapid.publicKey), "ECDSA");
  const holders = new Map<string, Holder>();
  const messages: ReceivedPush[] = [];
  const refused: FakePushService["refused"] = [];
  const waiters = new Set<() => void>();
  let origin = "";

  /** Why the VAPID header fails, or null when it holds. */
  async function vapidProblem(header: string | null): Promise<string | null> {
    const match = header && /^vapid t=([\w-]+\.[\w-]+\.[\w-]+), k=([\w-]+)$/.exec(header);
    if (!match) return "no vapid authorization";
    const [, token, key] = match;
    if (key !== vapid.publicKey) return "k is not the subscription's application server key";
    const [head, claims, signature] = token.split(".");
    const ok = await crypto.subtle.verify(
      { name: "ECDSA", hash: "SHA-256" },
      serverKey,
      fromBase64Url(signature),
      new TextEncoder().encode(`${head}.${claims}`),
    );
    if (!ok) return "bad signature";
    const header_ = JSON.parse(new TextDecoder().decode(fromBase64Url(head)));
    const jwt = JSON.parse(new TextDecoder().decode(fromBase64Url(claims)));
    const now = Date.now() / 1000;
    if (header_.alg !== "ES256") return "alg is not ES256";
    if (jwt.aud !== origin) return `aud ${jwt.aud} is not ${origin}`;
    if (!(jwt.exp > now && jwt.exp <= now + 24 * 3600)) return "exp not within 24 hours";
    if (!/^(mailto:|https:)/.test(jwt.sub ?? "")) return "sub is not mailto: or https:";
    return null;
  }

  const fake: FakePushService = {
    origin: "",
    env: {},
    messages,
    refused,
    posts: 0,
    down: false,
    async subscribe() {
      const pair = await crypto.subtle.generateKey({ name: "ECDH", namedCurve: "P-256" }, true, ["deriveBits"]);
      const keys = {
        p256dh: toBase64Url(new Uint8Array(await crypto.subtle.exportKey("raw", pair.publicKey))),
        auth: toBase64Url(crypto.getRandomValues(new Uint8Array(16))),
      };
      const id = crypto.randomUUID();
      holders.set(id, { uaPrivate: pair.privateKey, keys, gone: false });
      return { endpoint: `${origin}/push/${id}`, expirationTime: null, keys };
    },
    gone(endpoint) {
      const holder = holders.get(endpoint.slice(endpoint.lastIndexOf("/") + 1));
      if (holder) holder.gone = true;
    },
    waitFor(count, timeoutMs = 10_000) {
      if (messages.length >= count) return Promise.resolve();
      return new Promise((resolve, reject) => {
        const check = () => {
          if (messages.length < count) return;
          waiters.delete(check);
          clearTimeout(timer);
          resolve();
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`waited for ${count} push messages, got ${messages.length}`));
        }, timeoutMs);
        waiters.add(check);
      });
    },
    close: () => server.shutdown(),
    [Symbol.asyncDispose]: () => server.shutdown(),
  };

  const refuse = (endpoint: string, status: number, reason: string) => {
    refused.push({ endpoint, status, reason });
    return new Response(reason, { status });
  };

  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (req) => {
    const url = new URL(req.url);
    const id = /^\/push\/([\w-]+)$/.exec(url.pathname)?.[1];
    const endpoint = `${origin}${url.pathname}`;
    if (req.method === "GET" && url.pathname === "/stats") {
      return Response.json({ taken: messages.length, refused: refused.length, posts: fake.posts });
    }
    if (req.method !== "POST" || !id) return new Response("Not found", { status: 404 });
    fake.posts++;
    const body = new Uint8Array(await req.arrayBuffer());
    if (fake.down) return new Response("Service unavailable", { status: 503 });
    const holder = holders.get(id);
    if (!holder) return new Response("No such subscription", { status: 404 });
    if (holder.gone) return new Response("Gone", { status: 410 });
    const problem = await vapidProblem(req.headers.get("authorization"));
    if (problem) return refuse(endpoint, 403, problem);
    const ttl = Number(req.headers.get("ttl"));
    if (!req.headers.has("ttl") || !Number.isInteger(ttl) || ttl < 0) return refuse(endpoint, 400, "no TTL");
    if (req.headers.get("content-encoding") !== "aes128gcm") return refuse(endpoint, 400, "not aes128gcm");
    if (body.length > 4096) return refuse(endpoint, 413, "payload too large");
    let payload;
    try {
      const plain = await decryptPayload(body, { uaPrivate: holder.uaPrivate, keys: holder.keys });
      payload = JSON.parse(new TextDecoder().decode(plain));
    } catch (error) {
      return refuse(endpoint, 400, `does not decrypt: ${error}`);
    }
    messages.push({
      endpoint,
      payload,
      ttl,
      urgency: req.headers.get("urgency"),
      topic: req.headers.get("topic"),
    });
    for (const waiter of [...waiters]) waiter();
    return new Response(null, { status: 201, headers: { location: `${origin}/message/${messages.length}` } });
  });
  const { port } = server.addr as Deno.NetAddr;
  origin = `http://127.0.0.1:${port}`;
  fake.origin = origin;
  fake.env = {
    VAPID_PUBLIC_KEY: vapid.publicKey,
    VAPID_PRIVATE_KEY: vapid.privateKey,
    VAPID_SUBJECT: "mailto:push@example.com",
    PUSH_HOSTS: `127.0.0.1:${port}`,
  };
  return fake;
}
