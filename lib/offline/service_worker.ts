/**
 * The service worker at `/sw.js` (docs/decisions.md, Installable and offline, "Service worker"), bundled alone by the
 * build with its `SERVICE_WORKER` constant (`ServiceWorkerBuild`: its version, a hash of everything it precaches; the
 * version of the build's output; the shell to precache). What it keeps, in the Cache Storage of the origin, named by
 * what each depends on (`cacheNames`):
 * - `shell-<version>`: the offline page in each language (fetched as a guest), the boot module, the
 *   offline page's island and the icons, precached when it installs;
 * - `pages-<buildVersion>`: pages visited, network first, only pages the server marked with `Offline-Scope` (no
 *   `/api/`, no admin area, no sign-in or token pages), at most `PAGES_KEPT`; and `assets-<buildVersion>`: the built
 *   modules they used, cache first (their names carry a hash);
 * - `kept`: the lessons a person chose to "Keep offline", with every built file they need, until they drop them.
 * Versioned caches a new worker does not name are deleted when it activates, so new words or a new offline page renew
 * the shell and keep the visited pages, and a new build output renews all three; `kept` stays. Pages and kept lessons belong to
 * the person whose `Offline-Scope` they were saved under: a page answered under another scope (someone else signed
 * in, or nobody) deletes them first, and a page that now answers a redirect or 401/403/404/410 leaves both. With no
 * network a visited or kept page opens with its "may be out of date" notice shown; any other page gets the offline
 * page, in the language the pages last came in (their `Content-Language`, or the `<html lang>` each page tells the
 * worker once it is active: a new worker after signing out controls no page yet), else the browser's, else English
 * (docs/decisions.md, Languages, "The offline page"). A form the browser posts itself goes to the network through it as
 * it is; one the network fails is answered 204, so its page stays, and that page is told (`sendForm`). It also shows
 * push notifications and opens their page, and sends a subscription the browser renewed to the server.
 */
import type { ServiceWorkerBuild } from "@/lib/web/build.ts";
import { formatDateTime } from "@/lib/dates.ts";
import { DEFAULT_LANG, isLang, type Lang, LANG_PARAM } from "@/lib/i18n/languages.ts";
import { cacheNames, isVersionedCache } from "./caches.ts";
import {
  FORM_UNSENT,
  isFormSender,
  type KeepReply,
  type OfflineContents,
  offlinePagePath,
  type OfflineRequest,
  type WorkerNotice,
} from "./messages.ts";

declare const SERVICE_WORKER: ServiceWorkerBuild;

interface ExtendableEvent extends Event {
  waitUntil(work: Promise<unknown>): void;
}
interface FetchEvent extends ExtendableEvent {
  request: Request;
  respondWith(answer: Response | Promise<Response>): void;
}
interface MessageEventOfWorker extends ExtendableEvent {
  data: OfflineRequest;
  ports: readonly MessagePort[];
}
interface PushEventOfWorker extends ExtendableEvent {
  data: { json(): unknown } | null;
}
/** A push subscription as the worker handles it (`PushSubscription`). */
interface PushSubscriptionOfWorker {
  endpoint: string;
  options?: { applicationServerKey: ArrayBuffer | null };
  toJSON(): unknown;
}
interface PushSubscriptionChangeEvent extends ExtendableEvent {
  oldSubscription: PushSubscriptionOfWorker | null;
  newSubscription: PushSubscriptionOfWorker | null;
}
interface NotificationClickEvent extends ExtendableEvent {
  notification: { data: unknown; close(): void };
}
interface WindowClientOfWorker {
  url: string;
  postMessage(message: WorkerNotice): void;
  focus(): Promise<unknown>;
  navigate(url: string): Promise<unknown>;
}
interface WorkerScope {
  location: Location;
  navigator: { languages: readonly string[] };
  registration: {
    showNotification(title: string, options: Record<string, unknown>): Promise<void>;
    pushManager: {
      subscribe(options: { userVisibleOnly: boolean; applicationServerKey: BufferSource }): Promise<
        PushSubscriptionOfWorker
      >;
    };
  };
  clients: {
    claim(): Promise<void>;
    matchAll(options: { type: "window" }): Promise<WindowClientOfWorker[]>;
    openWindow(url: string): Promise<unknown>;
  };
  skipWaiting(): Promise<void>;
  addEventListener(type: string, listener: (event: never) => void): void;
}

const worker = globalThis as unknown as WorkerScope;
const { precache } = SERVICE_WORKER;
const { shell: SHELL, pages: PAGES, assets: ASSETS, kept: KEPT } = cacheNames(SERVICE_WORKER);
/** Where the scope the cached pages belong to is remembered. */
const STATE = "offline-state";
const SCOPE_KEY = "/offline-state/scope";
/** Where the language the pages last came in is remembered. */
const LANG_KEY = "/offline-state/lang";
/** The person's own pages kept offline whenever they are signed in, visited or not. */
const ALWAYS_OFFLINE = ["/me/tracker"];
/** Visited pages kept, the newest. */
const PAGES_KEPT = 60;
/** How long a navigation waits for the network (ms) before a saved copy is shown instead. */
const NETWORK_WAIT_MS = 8000;
const SAVED_AT = "offline-saved-at";
const TITLE = "offline-title";
const GROUP = "offline-group";
const SCOPE = "offline-scope";

const origin = worker.location.origin;
const sameOrigin = (url: URL) => url.origin === origin;
/** The key a page is saved under: its URL without the fragment or `lang` (one copy in whichever language it came). */
const pageKey = (url: string) => {
  const parsed = new URL(url);
  parsed.hash = "";
  if (parsed.searchParams.has(LANG_PARAM)) parsed.searchParams.delete(LANG_PARAM);
  return parsed.href;
};

worker.addEventListener("install", (event: ExtendableEvent) => {
  event.waitUntil(
    caches.open(SHELL)
      .then((cache) =>
        Promise.all(precache.map(async (path) => {
          // The shell is the same for everyone: fetched without cookies, so no one's header is in it.
          const res = await fetch(path, { credentials: "omit" });
          if (!res.ok) throw new Error(`precache ${path}: ${res.status}`);
          await cache.put(path, res);
        }))
      )
      .then(() => worker.skipWaiting()),
  );
});

worker.addEventListener("activate", (event: ExtendableEvent) => {
  event.waitUntil(
    caches.keys()
      .then((names) =>
        Promise.all(
          names.filter((name) => isVersionedCache(name) && ![SHELL, PAGES, ASSETS].includes(name))
            .map((name) => caches.delete(name)),
        )
      )
      .then(() => worker.clients.claim()),
  );
});

worker.addEventListener("fetch", (event: FetchEvent) => {
  const { request } = event;
  const url = new URL(request.url);
  if (!sameOrigin(url)) return;
  if (request.method === "POST" && request.mode === "navigate") return event.respondWith(sendForm(request));
  if (request.method !== "GET" || url.pathname.startsWith("/api/")) return;
  if (request.mode === "navigate") event.respondWith(navigate(event));
  else if (url.pathname.startsWith("/_build/") || precache.includes(url.pathname)) {
    event.respondWith(cacheFirst(request));
  }
});

/**
 * A form the browser sends itself (a `POST` navigation): the network's answer as it is (a redirect included). When the
 * network fails it (a connection that reaches nothing, which `navigator.onLine` does not see, so the page's own check
 * let it go), the answer is 204: the browser stays on the page, with what was typed, instead of its error page; and the
 * page it was sent from (its `referrer`; every window when there is none) is told (`FORM_UNSENT`), so its form says
 * no answer came: a failure after the request went out (a connection dropping) may follow the server's taking it.
 */
async function sendForm(request: Request): Promise<Response> {
  try {
    return await fetch(request);
  } catch {
    const windows = await worker.clients.matchAll({ type: "window" });
    const from = windows.filter((client) => isFormSender(client.url, request.referrer));
    for (const client of from.length > 0 ? from : windows) client.postMessage(FORM_UNSENT);
    return new Response(null, { status: 204 });
  }
}

/** A built file or a file of the shell: from any cache that holds it, else from the network, kept for next time. */
async function cacheFirst(request: Request): Promise<Response> {
  const cached = await caches.match(request);
  if (cached) return cached;
  const res = await fetch(request);
  if (res.ok && new URL(request.url).pathname.startsWith("/_build/")) {
    const copy = res.clone();
    await caches.open(ASSETS).then((cache) => cache.put(request, copy));
  }
  return res;
}

/** A page: the network's answer (saved when the server allows), else the saved copy with its notice, else offline. */
async function navigate(event: FetchEvent): Promise<Response> {
  const { request } = event;
  const network = fetch(request);
  const saved = savedCopy(request.url);
  // With a saved copy, a connection slower than NETWORK_WAIT_MS gets the copy; the answer is still saved when it comes.
  const slow = saved.then((copy) =>
    copy ? new Promise<null>((resolve) => setTimeout(() => resolve(null), NETWORK_WAIT_MS)) : network
  );
  const kept = network.then((res) => {
    const lang = res.headers.get("content-language");
    return Promise.all([noteLanguage(lang), remember(request.url, res.clone())]);
  });
  event.waitUntil(kept.catch(() => {}));
  const res = await Promise.race([network, slow]).catch(() => null);
  if (res) return res;
  const copy = await saved;
  if (copy) return await withNotice(copy);
  return (await caches.match(offlinePagePath(await readerLanguage()), { cacheName: SHELL })) ?? Response.error();
}

/** The language the pages last came in, as remembered (null before any); read from `STATE` once per worker start. */
let lastLanguage: Promise<Lang | null> | null = null;

function rememberedLanguage(): Promise<Lang | null> {
  lastLanguage ??= caches.match(LANG_KEY, { cacheName: STATE })
    .then((res) => res?.text() ?? null)
    .then((value) => isLang(value) ? value : null);
  return lastLanguage;
}

/**
 * Remembers `lang`, a page's language (its `Content-Language`, or the `<html lang>` a page tells the worker, also one it
 * does not control yet), when it differs from the one remembered.
 */
async function noteLanguage(lang: string | null): Promise<void> {
  if (!isLang(lang) || (await rememberedLanguage()) === lang) return;
  lastLanguage = Promise.resolve(lang);
  await (await caches.open(STATE)).put(LANG_KEY, new Response(lang));
}

/** The language of the offline page: the pages' last, else the first of the browser's languages we write, else English. */
async function readerLanguage(): Promise<Lang> {
  const browser = worker.navigator.languages.map((tag) => tag.toLowerCase().split("-")[0]).find(isLang);
  return (await rememberedLanguage()) ?? browser ?? DEFAULT_LANG;
}

/** The saved copy of the page at `url`: visited or kept. */
async function savedCopy(url: string): Promise<Response | null> {
  const key = pageKey(url);
  return (await caches.match(key, { cacheName: PAGES })) ?? (await caches.match(key, { cacheName: KEPT })) ?? null;
}

/**
 * The copy with its "may be out of date" notice shown and the time it was saved filled in, in the page's language
 * (its `<html lang>`).
 */
async function withNotice(copy: Response): Promise<Response> {
  const savedAt = copy.headers.get(SAVED_AT);
  const html = await copy.text();
  const lang = /^<!DOCTYPE html><html lang="hi"/.test(html) ? "hi" : "en";
  const when = savedAt ? formatDateTime(savedAt, lang) : "";
  const shown = html
    .replace(/<div id="offline-notice" hidden(="")?/, '<div id="offline-notice"')
    .replace(/<time data-saved[^>]*><\/time>/, () => `<time data-saved datetime="${savedAt ?? ""}">${when}</time>`);
  return new Response(shown, { status: copy.status, headers: copy.headers });
}

/** The scope the saved pages belong to, or null before any. */
async function currentScope(): Promise<string | null> {
  const res = await caches.match(SCOPE_KEY, { cacheName: STATE });
  return res ? await res.text() : null;
}

/** Makes `scope` the one pages are kept for; another scope's pages and kept lessons are deleted first. */
async function enterScope(scope: string): Promise<void> {
  if ((await currentScope()) === scope) return;
  await Promise.all([caches.delete(PAGES), caches.delete(KEPT)]);
  await (await caches.open(STATE)).put(SCOPE_KEY, new Response(scope));
}

/** The title of a page, from its `<title>` without the site's name after its last " · " (`components/PageHead.tsx`). */
function titleOf(html: string): string {
  const raw = (/<title>([^<]*)<\/title>/.exec(html)?.[1] ?? "").replace(/ · [^·]*$/, "");
  return raw.replace(/&(amp|lt|gt|quot|#39);/g, (_, name) =>
    ({ amp: "&", lt: "<", gt: ">", quot: '"', "#39": "'" })[
      name as "amp"
    ]);
}

/** `res` with the body `html` and when it was saved, its title and group, to put in a cache. */
function toKeep(res: Response, html: string, group: string | null): Response {
  const headers = new Headers(res.headers);
  headers.set(SAVED_AT, new Date().toISOString());
  headers.set(TITLE, encodeURIComponent(titleOf(html)));
  if (group) headers.set(GROUP, group);
  return new Response(html, { status: res.status, headers });
}

/** Whether `res` is a page the server lets a phone keep, for the scope it names. */
function keepable(res: Response): string | null {
  if (!res.ok || res.redirected || res.type !== "basic") return null;
  return res.headers.get(SCOPE);
}

/**
 * Whether `res` says the page is no longer the person's to read: a redirect (a refunded lesson goes to the sales page)
 * or a refusal or absence (401, 403, 404, 410). A server error says nothing: the saved copy stays.
 */
function gone(res: Response): boolean {
  return res.type === "opaqueredirect" || res.redirected || [401, 403, 404, 410].includes(res.status);
}

/**
 * Saves the page answered at `url` when the server allows it; refreshes a kept copy; warms the person's tracker. A page
 * now `gone` leaves the saved pages and the kept lessons.
 */
async function remember(url: string, res: Response): Promise<void> {
  const scope = keepable(res);
  if (scope === null) {
    if (gone(res)) await Promise.all([PAGES, KEPT].map(async (name) => (await caches.open(name)).delete(pageKey(url))));
    return;
  }
  await enterScope(scope);
  const html = await res.text();
  const key = pageKey(url);
  const pages = await caches.open(PAGES);
  await pages.put(key, toKeep(res, html, null));
  const kept = await caches.open(KEPT);
  const keptCopy = await kept.match(key);
  if (keptCopy) {
    await kept.put(key, toKeep(res, html, keptCopy.headers.get(GROUP)));
    await keepAssets(kept, referencedAssets(html, key));
  }
  const names = await pages.keys();
  for (const old of names.slice(0, Math.max(0, names.length - PAGES_KEPT))) await pages.delete(old);
  if (scope === "guest") return;
  for (const path of ALWAYS_OFFLINE) {
    const target = new URL(path, origin).href;
    if (target === key || await pages.match(target)) continue;
    const html = await save(pages, target, scope, null);
    // With its built files: a tracker never opened on this phone would otherwise open offline without its islands.
    if (html !== null) await keepAssets(await caches.open(ASSETS), referencedAssets(html, target));
  }
}

/** Fetches the page `url` with the person's cookies and puts it in `cache` when it answers under `scope`. */
async function save(cache: Cache, url: string, scope: string, group: string | null): Promise<string | null> {
  const res = await fetch(url, { credentials: "include" }).catch(() => null);
  if (!res || keepable(res) !== scope) return null;
  const html = await res.text();
  await cache.put(url, toKeep(res, html, group));
  return html;
}

/** Built files a page or module names: its boot module, islands and the chunks they import. */
function referencedAssets(text: string, base: string): string[] {
  const found = new Set<string>();
  for (const m of text.matchAll(/\/_build\/[\w.-]+\.(?:js|css)/g)) found.add(new URL(m[0], origin).href);
  for (const m of text.matchAll(/(?:from|import)\s*["'](\.\/[\w.-]+\.js)["']/g)) found.add(new URL(m[1], base).href);
  return [...found];
}

/**
 * Puts in `kept` (the kept lessons' cache, or the assets cache for a page warmed unvisited) each of the built files
 * `assets` and, for a module, the modules it imports, unless kept already.
 */
async function keepAssets(kept: Cache, assets: string[]): Promise<void> {
  const seen = new Set<string>();
  while (assets.length > 0) {
    const asset = assets.pop()!;
    if (seen.has(asset)) continue;
    seen.add(asset);
    let res = await kept.match(asset);
    if (!res) {
      res = (await caches.match(asset)) ?? await fetch(asset).catch(() => undefined);
      if (!res?.ok) continue;
      await kept.put(asset, res.clone());
    }
    if (asset.endsWith(".js")) assets.push(...referencedAssets(await res.text(), asset));
  }
}

/** Keeps the pages `urls` (group `group`) and every built file they need in `kept`. Returns how many were kept. */
async function keep(urls: string[], group: string, scope: string): Promise<number> {
  const kept = await caches.open(KEPT);
  let count = 0;
  const assets: string[] = [];
  for (const url of urls) {
    const key = pageKey(new URL(url, origin).href);
    const html = await save(kept, key, scope, group);
    if (html === null) continue;
    count++;
    assets.push(...referencedAssets(html, key));
  }
  await keepAssets(kept, assets);
  return count;
}

/** Drops the kept pages of `group`, then every kept built file no remaining page needs. */
async function unkeep(group: string): Promise<void> {
  const kept = await caches.open(KEPT);
  const assets: Request[] = [];
  const pending: string[] = [];
  for (const request of await kept.keys()) {
    if (new URL(request.url).pathname.startsWith("/_build/")) {
      assets.push(request);
      continue;
    }
    const res = (await kept.match(request))!;
    if (res.headers.get(GROUP) === group) await kept.delete(request);
    else pending.push(...referencedAssets(await res.text(), request.url));
  }
  const needed = new Set<string>();
  while (pending.length > 0) {
    const asset = pending.pop()!;
    if (needed.has(asset)) continue;
    needed.add(asset);
    const res = await kept.match(asset);
    if (res && asset.endsWith(".js")) pending.push(...referencedAssets(await res.text(), asset));
  }
  for (const request of assets) if (!needed.has(request.url)) await kept.delete(request);
}

/** What is available offline: the visited pages and the kept ones, with their titles. */
async function contents(): Promise<OfflineContents> {
  const list = async (name: string) => {
    const cache = await caches.open(name);
    const entries = [];
    for (const request of await cache.keys()) {
      if (new URL(request.url).pathname.startsWith("/_build/")) continue;
      const res = (await cache.match(request))!;
      entries.push({
        url: new URL(request.url).pathname + new URL(request.url).search,
        title: decodeURIComponent(res.headers.get(TITLE) ?? ""),
        group: res.headers.get(GROUP),
        savedAt: res.headers.get(SAVED_AT),
      });
    }
    return entries;
  };
  return { pages: (await list(PAGES)).reverse(), kept: await list(KEPT) };
}

worker.addEventListener("message", (event: MessageEventOfWorker) => {
  const reply = (answer: KeepReply | OfflineContents) => event.ports[0]?.postMessage(answer);
  const { data } = event;
  const work = (async () => {
    if (data.type === "contents") return reply(await contents());
    if (data.type === "language") return await noteLanguage(data.lang);
    const scope = await currentScope();
    if (data.type === "keep") {
      const kept = scope && scope !== "guest" ? await keep(data.urls, data.group, scope) : 0;
      return reply({ kept });
    }
    if (data.type === "unkeep") {
      await unkeep(data.group);
      return reply({ kept: 0 });
    }
  })().catch(() => reply({ kept: 0, failed: true }));
  event.waitUntil(work);
});

worker.addEventListener("push", (event: PushEventOfWorker) => {
  const message = (event.data?.json() ?? {}) as { title?: string; body?: string; url?: string; tag?: string };
  event.waitUntil(
    worker.registration.showNotification(message.title ?? "Career Community", {
      body: message.body ?? "",
      icon: "/icons/icon-192.png",
      badge: "/icons/icon-192.png",
      tag: message.tag,
      data: { url: message.url ?? "/me/notifications" },
    }),
  );
});

/** The platform's VAPID public key (`GET /api/push/key`, base64url) as bytes, or null when push is off. */
async function applicationServerKey(): Promise<Uint8Array<ArrayBuffer> | null> {
  const res = await fetch("/api/push/key");
  if (!res.ok) return null;
  const { publicKey } = await res.json() as { publicKey: string };
  return Uint8Array.from(atob(publicKey.replaceAll("-", "+").replaceAll("_", "/")), (c) => c.charCodeAt(0));
}

/**
 * The browser renewed or dropped this phone's subscription (docs/decisions.md, Push, "Subscriptions"): the new one (or,
 * when the browser gives none, one made again with the key of the old, else the platform's) is sent as the profile's
 * switch sends it, and the old one removed, so notifications go on reaching the phone without a visit to the profile.
 * Signed out, the server refuses both and nothing changes.
 */
async function renewSubscription(
  old: PushSubscriptionOfWorker | null,
  renewed: PushSubscriptionOfWorker | null,
): Promise<void> {
  let subscription = renewed;
  if (!subscription) {
    const key = old?.options?.applicationServerKey ?? await applicationServerKey();
    if (!key) return;
    subscription = await worker.registration.pushManager.subscribe({
      userVisibleOnly: true,
      applicationServerKey: key,
    });
  }
  const send = (method: string, body: unknown) =>
    fetch("/api/me/push-subscriptions", {
      method,
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
  const sent = await send("POST", subscription.toJSON());
  if (sent.ok && old && old.endpoint !== subscription.endpoint) await send("DELETE", { endpoint: old.endpoint });
}

worker.addEventListener("pushsubscriptionchange", (event: PushSubscriptionChangeEvent) => {
  event.waitUntil(renewSubscription(event.oldSubscription, event.newSubscription));
});

worker.addEventListener("notificationclick", (event: NotificationClickEvent) => {
  event.notification.close();
  const path = (event.notification.data as { url?: string } | null)?.url ?? "/me/notifications";
  const target = new URL(path, origin);
  if (!sameOrigin(target)) return;
  event.waitUntil((async () => {
    const windows = await worker.clients.matchAll({ type: "window" });
    const open = windows.find((client) => client.url === target.href) ?? windows[0];
    if (open) {
      await open.focus();
      if (open.url !== target.href) await open.navigate(target.href);
      return;
    }
    await worker.clients.openWindow(target.href);
  })());
});
