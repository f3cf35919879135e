/**
 * Starting and stopping the platform: services from a configuration, assets from `_build/`
 * (built first when missing, outside Deno Deploy), `Deno.serve`, and a graceful shutdown on
 * SIGINT and SIGTERM.
 */
import type { Config } from "@/app.config.ts";
import { type AppParts, createApp } from "./app.ts";
import { KvObjectStore } from "@/lib/files/kv_store.ts";
import { openKv } from "@/lib/kv.ts";
import { createLogger } from "@/lib/log.ts";
import { createMailer } from "@/lib/mail/mailer.ts";
import { createRazorpayGateway } from "@/lib/payments/razorpay.ts";
import { PushSender } from "@/lib/push/web_push.ts";
import { GuestPageCache } from "@/lib/http/guest_pages.ts";
import { internshipStore } from "@/lib/internships/store.ts";
import { opportunityStore } from "@/lib/opportunities/store.ts";
import { compactHeap } from "./heap.ts";
import { BackgroundWork } from "./background.ts";
import { InFlightRequests } from "./in_flight.ts";
import { createOAuthService } from "@/lib/auth/oauth/providers.ts";
import type { Services } from "./state.ts";
import { type Assets, loadAssets } from "@/lib/web/assets.ts";
import type { Manifest } from "@/lib/web/types.ts";
import { platformBuildOptions } from "./build_options.ts";
import { type HeaderGate, startHeaderGate } from "./header_gate.ts";
import { RateLimits } from "./rate_limits.ts";

const root = new URL("../..", import.meta.url).pathname;

/** The services for `config`: KV opened, mailer, logger, OAuth providers, payment gateway and push sender made. */
export async function createServices(config: Config): Promise<Services> {
  const log = createLogger(config.logLevel);
  const kv = await openKv(config.kvPath);
  return {
    config,
    kv,
    log,
    mailer: createMailer(config.smtpUrl, config.mailFrom, log),
    oauth: createOAuthService(config),
    payments: createRazorpayGateway(config.razorpay, log),
    push: config.push.vapid ? new PushSender(config.push.vapid) : null,
    guestPages: new GuestPageCache(),
    files: new KvObjectStore(kv),
    background: new BackgroundWork(),
    requests: new InFlightRequests(),
    rateLimits: new RateLimits(kv, config.rateLimits),
  };
}

/** How long (ms) the collection after the load waits at most for the requests in flight to be answered. */
const COMPACT_AFTER_MS = 1000;

/**
 * Loads the read models (internships, opportunities), then gives the load's garbage back to the operating system
 * (`compactHeap`) once `settled` resolves; so too after the first read of either archive as a whole (the first list
 * with closed listings). The server listens meanwhile: a request that needs a read model awaits this same load (its
 * store's accessor holds the promise), any other is answered at once (docs/decisions.md, Open and closed listings,
 * "Serving while loading"). Returns the load's time in ms and the bytes read from KV.
 */
export async function loadReadModels(
  kv: Deno.Kv,
  settled: () => Promise<void> = () => Promise.resolve(),
): Promise<{ ms: number; kvBytes: number }> {
  const started = performance.now();
  const [internships, opportunities] = await Promise.all([internshipStore(kv), opportunityStore(kv)]);
  const ms = performance.now() - started;
  for (const { archive } of [internships, opportunities]) {
    archive.onBulkRead = () => void settled().then(() => compactHeap());
  }
  await settled();
  compactHeap();
  return { ms, kvBytes: internships.model.loadedBytes + opportunities.model.loadedBytes };
}

/** The built assets; builds `manifest`'s islands first when `_build/` is missing and `buildIfMissing` is set. */
export async function prepareAssets(manifest: Manifest, buildIfMissing: boolean): Promise<Assets> {
  try {
    return await loadAssets(`${root}_build`, `${root}static`);
  } catch (error) {
    if (!buildIfMissing) throw error;
    // The bundler (~18 MB of memory) is loaded only when there is something to build.
    const { buildAssets } = await import("@/lib/web/build.ts");
    await buildAssets(platformBuildOptions(manifest));
    return await loadAssets(`${root}_build`, `${root}static`);
  }
}

/**
 * Serves the platform until the returned server is shut down. Responses are compressed (gzip or
 * brotli, as the client accepts) by Deno's automatic compression, which is off unless asked for:
 * HTML, JSON, CSS and JavaScript over ~64 bytes, not a body that is already encoded
 * (docs/decisions.md, Performance). Self-hosted, the server sits behind the header gate
 * (`serveBehindGate`); on Deno Deploy, whose own front bounds slow clients, it listens itself.
 */
export function serve(services: Services, parts: AppParts, onListen?: (addr: Deno.NetAddr) => void): Deno.HttpServer {
  const app = createApp(services, parts);
  const { config } = services;
  const listening = onListen ??
    ((addr: Deno.NetAddr) =>
      services.log.info("listening", { url: config.appUrl, address: `${addr.hostname}:${addr.port}` }));
  if (Deno.env.get("DENO_DEPLOYMENT_ID")) {
    return Deno.serve(
      { port: config.port, hostname: config.host, automaticCompression: true, onListen: listening },
      (req, info) => app.fetch(req, info),
    );
  }
  return serveBehindGate(
    app,
    {
      port: config.port,
      hostname: config.host,
      headerTimeoutMs: config.headerTimeoutMs,
      onBytes: () => services.requests.moved(),
    },
    listening,
  );
}

/**
 * `app` served on a loopback port behind the header gate on `hostname:port` (`header_gate.ts`; docs/decisions.md,
 * Errors and limits, "Header deadline"): the app sees each client's own address. The server returned stops both.
 */
export function serveBehindGate(
  app: { fetch(req: Request, info: Deno.ServeHandlerInfo<Deno.NetAddr>): Response | Promise<Response> },
  { hostname, port, headerTimeoutMs, idleTimeoutMs, onBytes }: {
    hostname: string;
    port: number;
    /** The gate's deadlines in ms (tests shorten them). */
    headerTimeoutMs?: number;
    idleTimeoutMs?: number;
    /** Called whenever the gate takes in bytes (`InFlightRequests.moved`). */
    onBytes?: () => void;
  },
  onListen: (addr: Deno.NetAddr) => void,
): Deno.HttpServer<Deno.NetAddr> {
  let gate: HeaderGate | null = null;
  const inner = Deno.serve(
    { hostname: "127.0.0.1", port: 0, automaticCompression: true, onListen: () => {} },
    (req, info) => app.fetch(req, { ...info, remoteAddr: gate?.clientOf(info.remoteAddr) ?? info.remoteAddr }),
  );
  gate = startHeaderGate({ hostname, port, target: inner.addr, headerTimeoutMs, idleTimeoutMs, onBytes });
  onListen(gate.addr);
  const opened = gate;
  const shutdown = async () => {
    opened.stopAccepting();
    await inner.shutdown();
    opened.closeAll();
  };
  return {
    addr: opened.addr,
    finished: inner.finished,
    ref: () => inner.ref(),
    unref: () => inner.unref(),
    shutdown,
    [Symbol.asyncDispose]: shutdown,
  };
}

/**
 * Serves the platform at once and loads the read models meanwhile (`loadReadModels`; docs/decisions.md, Open and
 * closed listings, "Serving while loading"): the load's outcome is logged ("read models loaded" with its time and the
 * bytes it read from KV) once the requests that waited for it are answered and its garbage collected, and returned for
 * whoever wants to wait for it.
 */
export function serveWhileLoading(
  services: Services,
  parts: AppParts,
): { server: Deno.HttpServer; loaded: Promise<{ ms: number; kvBytes: number }> } {
  const server = serve(services, parts);
  // The collection blocks the process (a quarter of a second at 100,000 open listings): the requests that waited for
  // the load are answered first.
  const loaded = loadReadModels(services.kv, () => services.requests.idle(COMPACT_AFTER_MS));
  loaded.then(
    ({ ms, kvBytes }) => services.log.info("read models loaded", { ms: Math.round(ms), kvBytes }),
    (error) => services.log.error("read models failed to load", { error: String(error) }),
  );
  return { server, loaded };
}

/** How long (ms) a shutdown waits for requests in flight before it closes KV anyway. */
export const SHUTDOWN_GRACE_MS = 10_000;

/**
 * Stops `server` gracefully on SIGINT or SIGTERM: stops accepting connections, lets requests in
 * flight and the work they started (`BackgroundWork`) finish (at most `graceMs`), closes the SMTP connections, the push encryption worker and KV, and exits with 0 (1 when the grace ran out).
 * Where signals cannot be listened to (Deno Deploy ends isolates itself), it does nothing.
 */
export function stopOnSignals(server: Deno.HttpServer, services: Services, graceMs = SHUTDOWN_GRACE_MS): void {
  let stopping = false;
  const stop = async (signal: Deno.Signal) => {
    if (stopping) return;
    stopping = true;
    services.log.info("shutting down", { signal });
    let timer: ReturnType<typeof setTimeout> | undefined;
    const graceOver = new Promise<false>((resolve) => timer = setTimeout(() => resolve(false), graceMs));
    const finished = await Promise.race([
      server.shutdown().then(() => services.background.settled()).then(() => true),
      graceOver,
    ]);
    clearTimeout(timer);
    services.mailer.close();
    services.push?.close();
    services.kv.close();
    services.log.info("stopped", { signal, inFlightFinished: finished });
    Deno.exit(finished ? 0 : 1);
  };
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    try {
      Deno.addSignalListener(signal, () => void stop(signal));
    } catch {
      return;
    }
  }
}
