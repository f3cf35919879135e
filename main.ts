/**
 * Production entry and composition root: configuration, KV, assets, the route manifest and the
 * 403 page handed to the app, HTTP server, graceful shutdown (`deno task start`).
 */
import { ConfigError, loadConfig } from "./app.config.ts";
import { createServices, loadReadModels, prepareAssets, serve, stopOnSignals } from "./lib/platform/server.ts";
import { Forbidden } from "./components/Forbidden.tsx";
import { resumeAccountDeletions } from "./lib/account/deletion.ts";
import manifest from "./routes.gen.ts";

try {
  const config = loadConfig();
  const services = await createServices(config);
  const assets = await prepareAssets(manifest, !Deno.env.get("DENO_DEPLOYMENT_ID"));
  const loadMs = await loadReadModels(services.kv);
  services.log.info("read models loaded", { ms: Math.round(loadMs) });
  // Finishes account deletions whose process died mid-way (docs/decisions.md, Data rights).
  Deno.cron("account-deletions", "*/5 * * * *", async () => {
    const resumed = await resumeAccountDeletions(services.kv);
    if (resumed > 0) services.log.info("account deletions resumed", { resumed });
  });
  stopOnSignals(serve(services, { manifest, assets, forbiddenPage: () => Forbidden({}) }), services);
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  console.error(error.message);
  Deno.exit(1);
}
