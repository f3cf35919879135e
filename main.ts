/** Production entry: configuration, KV, assets, HTTP server, graceful shutdown (`deno task start`). */
import { ConfigError, loadConfig } from "./app.config.ts";
import { createServices, loadReadModels, prepareAssets, serve, stopOnSignals } from "./lib/platform/server.ts";

try {
  const config = loadConfig();
  const services = await createServices(config);
  const assets = await prepareAssets(!Deno.env.get("DENO_DEPLOYMENT_ID"));
  const loadMs = await loadReadModels(services.kv);
  services.log.info("read models loaded", { ms: Math.round(loadMs) });
  stopOnSignals(serve(services, assets), services);
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  console.error(error.message);
  Deno.exit(1);
}
