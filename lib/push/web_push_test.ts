import { assert, assertEquals, assertRejects } from "@/tests/helpers/assert.ts";
import {
  decryptPayload,
  ENCRYPTIONS_AT_ONCE,
  EncryptionWorker,
  encryptPayload,
  fromBase64Url,
  generateVapidKeys,
  importP256,
  MAX_PAYLOAD_BYTES,
  PushSender,
  toBase64Url,
} from "./web_push.ts";

/** The worked example of RFC 8291 §5 (its keys are published test keys). */
const RFC = {
  plaintext: "When I grow up, I want to be a watermelon",
  authSecret: "BTBZMqHH6r4Tts7J_aSIgg",
  uaPublic: "BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4",
  uaPrivate: "q1dXpw3UpT5VOmu_cf_v6ih07Aems3njxI-JWgLcM94",
  asPublic: "BP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A8",
  asPrivate: "yfWPiYE-n46HLnH0KqZOF1fJJU3MYrct3AELtAQ-oRw",
  salt: "DGv6ra1nlYgDCS1FRnbzlw",
  body: "DGv6ra1nlYgDCS1FRnbzlwAAEABBBP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27ml" +
    "mlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A_yl95bQpu6cVPT" +
    "pK4Mqgkf1CXztLVBSt2Ks3oZwbuwXPXLWyouBWLVWGNWQexSgSxsj_Qulcy4a-fN",
};

/** An ECDH key pair from the raw keys of the RFC. */
async function ecdhPair(publicKey: string, privateKey: string): Promise<CryptoKeyPair> {
  const raw = fromBase64Url(publicKey);
  const jwk = {
    kty: "EC",
    crv: "P-256",
    x: toBase64Url(raw.slice(1, 33)),
    y: toBase64Url(raw.slice(33)),
    d: privateKey,
  };
  const algorithm = { name: "ECDH", namedCurve: "P-256" };
  return {
    publicKey: await crypto.subtle.importKey("raw", raw, algorithm, true, []),
    privateKey: await crypto.subtle.importKey("jwk", jwk, algorithm, false, ["deriveBits"]),
  };
}

const keys = { p256dh: RFC.uaPublic, auth: RFC.authSecret };

Deno.test("encryptPayload reproduces the example of RFC 8291 byte for byte", async () => {
  const body = await encryptPayload(new TextEncoder().encode(RFC.plaintext), keys, {
    salt: fromBase64Url(RFC.salt),
    sender: await ecdhPair(RFC.asPublic, RFC.asPrivate),
  });
  assertEquals(toBase64Url(body), RFC.body);
});

Deno.test("decryptPayload reads the RFC's message with the user agent's private key, and its own", async () => {
  const { privateKey: uaPrivate } = await ecdhPair(RFC.uaPublic, RFC.uaPrivate);
  const plain = await decryptPayload(fromBase64Url(RFC.body), { uaPrivate, keys });
  assertEquals(new TextDecoder().decode(plain), RFC.plaintext);
  const text = "नमस्ते — ₹8,000 a month";
  const mine = await encryptPayload(new TextEncoder().encode(text), keys);
  assertEquals(new TextDecoder().decode(await decryptPayload(mine, { uaPrivate, keys })), text);
  assert(toBase64Url(mine) !== toBase64Url(await encryptPayload(new TextEncoder().encode(text), keys)), "fresh keys");
});

Deno.test("encryptPayload refuses a payload over the push services' limit and malformed keys", async () => {
  await assertRejects(() => encryptPayload(new Uint8Array(MAX_PAYLOAD_BYTES + 1), keys), /too large/);
  await encryptPayload(new Uint8Array(MAX_PAYLOAD_BYTES), keys);
  await assertRejects(() => encryptPayload(new Uint8Array(1), { ...keys, auth: "AAAA" }), /16 bytes/);
  await assertRejects(() => encryptPayload(new Uint8Array(1), { ...keys, p256dh: toBase64Url(new Uint8Array(65)) }));
});

Deno.test("the VAPID header is an ES256 JWT for the push service's origin that the public key verifies", async () => {
  const vapid = { ...await generateVapidKeys(), subject: "mailto:push@example.com" };
  const sender = new PushSender(vapid);
  const now = 1_800_000_000;
  const header = await sender.authorization("https://fcm.googleapis.com/fcm/send/abc", now);
  const [, token, key] = /^vapid t=([^,]+), k=(.+)$/.exec(header)!;
  assertEquals(key, vapid.publicKey);
  const [head, claims, signature] = token.split(".");
  const decode = (part: string) => JSON.parse(new TextDecoder().decode(fromBase64Url(part)));
  assertEquals(decode(head), { typ: "JWT", alg: "ES256" });
  assertEquals(decode(claims), {
    aud: "https://fcm.googleapis.com",
    exp: now + 12 * 3600,
    sub: "mailto:push@example.com",
  });
  const verified = await crypto.subtle.verify(
    { name: "ECDSA", hash: "SHA-256" },
    await importP256(fromBase64Url(vapid.publicKey), "ECDSA"),
    fromBase64Url(signature),
    new TextEncoder().encode(`${head}.${claims}`),
  );
  assert(verified, "the signature verifies");
  assertEquals(await sender.authorization("https://fcm.googleapis.com/other", now + 60), header, "reused");
  assert(await sender.authorization("https://fcm.googleapis.com/x", now + 11.5 * 3600) !== header, "renewed");
  assert(await sender.authorization("https://web.push.apple.com/x", now) !== header, "one per origin");
});

/**
 * Replaces `Worker` while `run` runs with one that counts the messages it holds (posted, not yet answered) and hands
 * each worker started to `started`.
 */
async function withCountedWorkers(
  run: (count: { holding: number; most: number }) => Promise<void>,
  started: (worker: Worker) => void = () => {},
): Promise<void> {
  const count = { holding: 0, most: 0 };
  const Original = globalThis.Worker;
  globalThis.Worker = function (specifier: string | URL, options?: WorkerOptions) {
    const worker = new Original(specifier, options);
    const post = worker.postMessage.bind(worker);
    worker.postMessage = (message: unknown) => {
      count.most = Math.max(count.most, ++count.holding);
      post(message);
    };
    // Registered before the sender's own handler, so it runs first.
    worker.addEventListener("message", () => count.holding--);
    started(worker);
    return worker;
  } as unknown as typeof Worker;
  try {
    await run(count);
  } finally {
    globalThis.Worker = Original;
  }
}

Deno.test("a sender encrypts on its worker, ENCRYPTIONS_AT_ONCE messages at a time; the posts overlap", async () => {
  const vapid = { ...await generateVapidKeys(), subject: "mailto:push@example.com" };
  const ua = await ecdhPair(RFC.uaPublic, RFC.uaPrivate);
  let posting = 0;
  let mostPosting = 0;
  // Posts wait until more of them are under way than encryptions may run (however slowly a loaded machine starts the
  // worker and encrypts); a sender that posts inside its encryption limit never gets there, stops waiting 30 s after
  // its first post and fails below.
  let overlapping!: () => void;
  const overlap = new Promise<void>((resolve) => overlapping = resolve);
  let giveUp: ReturnType<typeof setTimeout> | undefined;
  const bodies: Uint8Array<ArrayBuffer>[] = [];
  const sender = new PushSender(vapid, async (_input, init) => {
    giveUp ??= setTimeout(overlapping, 30_000);
    bodies.push(init!.body as Uint8Array<ArrayBuffer>);
    mostPosting = Math.max(mostPosting, ++posting);
    if (posting > ENCRYPTIONS_AT_ONCE) overlapping();
    await overlap;
    posting--;
    return new Response(null, { status: 201 });
  });
  let workers = 0;
  try {
    await withCountedWorkers(async (count) => {
      const sent = await Promise.all(
        Array.from(
          { length: 10 },
          (_, i) => sender.send({ endpoint: "https://push.example.com/x", keys }, { title: `Hi ${i}` }),
        ),
      );
      assertEquals(sent.map((res) => res.status), Array(10).fill(201));
      assertEquals(count.most, ENCRYPTIONS_AT_ONCE);
    }, () => workers++);
  } finally {
    clearTimeout(giveUp);
    sender.close();
  }
  assertEquals(workers, 1);
  assert(mostPosting > ENCRYPTIONS_AT_ONCE, `the posts overlap (${mostPosting} at most)`);
  const titles = await Promise.all(bodies.map(async (body) => {
    const plain = await decryptPayload(body, { uaPrivate: ua.privateKey, keys });
    return JSON.parse(new TextDecoder().decode(plain)).title;
  }));
  assertEquals(titles.toSorted(), Array.from({ length: 10 }, (_, i) => `Hi ${i}`).toSorted());
});

Deno.test("the encryption worker answers a malformed key with its error, and a failed worker is replaced", async () => {
  const encryption = new EncryptionWorker();
  const started: Worker[] = [];
  try {
    await withCountedWorkers(async (count) => {
      const bad = { ...keys, auth: "AAAA" };
      await assertRejects(() => encryption.encrypt(new Uint8Array(1), bad), Error, "16 bytes");
      // A failure of the worker itself rejects what it held, and the next message starts a new worker.
      const held = encryption.encrypt(new Uint8Array(1), keys);
      while (count.holding === 0) await new Promise((resolve) => setTimeout(resolve, 1));
      started[0].dispatchEvent(new ErrorEvent("error", { message: "out of memory", cancelable: true }));
      await assertRejects(() => held, Error, "out of memory");
      assertEquals((await encryption.encrypt(new Uint8Array(1), keys)).length, 21 + 65 + 1 + 1 + 16);
    }, (worker) => started.push(worker));
  } finally {
    encryption.close();
  }
  assertEquals(started.length, 2);
});
