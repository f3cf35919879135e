/**
 * Starting the platform: services from a configuration, assets from `_build/` (built first
 * when missing, outside Deno Deploy), and `Deno.serve`.
 */
import type { Config } from "../../app.config.ts";
import { createApp } from "./app.ts";
import { openKv } from "../kv.ts";
import { createLogger } from "../log.ts";
import { createMailer } from "../mail/mailer.ts";
import { createRazorpayGateway } from "../payments/razorpay.ts";
import type { Services } from "./state.ts";
import { type Assets, loadAssets } from "../web/assets.ts";
import { buildAssets } from "../web/build.ts";
import manifest from "../../routes.gen.ts";

const root = new URL("../..", import.meta.url).pathname;

/** The services for `config`: KV opened, mailer, logger and payment gateway made. */
export async function createServices(config: Config): Promise<Services> {
  const log = createLogger(config.logLevel);
  const kv = await openKv(config.kvPath);
  const mailer = createMailer(config.smtpUrl, config.mailFrom, log);
  return { config, kv, log, mailer, payments: createRazorpayGateway(config.razorpay, log) };
}

/** The built assets; builds them first when `_build/` is missing and `buildIfMissing` is set. */
export async function prepareAssets(buildIfMissing: boolean): Promise<Assets> {
  try {
    return await loadAssets(`${root}_build`, `${root}static`);
  } catch (error) {
    if (!buildIfMissing) throw error;
    await buildAssets({
      root,
      islands: Object.keys(manifest.islands),
      stylesheet: "static/styles.css",
      outDir: "_build",
    });
    return await loadAssets(`${root}_build`, `${root}static`);
  }
}

/** Serves the platform until the returned server is shut down. */
export function serve(services: Services, assets: Assets, onListen?: (addr: Deno.NetAddr) => void): Deno.HttpServer {
  const app = createApp(services, manifest, assets);
  const { config } = services;
  return Deno.serve(
    {
      port: config.port,
      hostname: config.host,
      onListen: onListen ??
        ((addr) => services.log.info("listening", { url: config.appUrl, address: `${addr.hostname}:${addr.port}` })),
    },
    (req, info) => app.fetch(req, info),
  );
}
