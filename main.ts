/**
 * Production entry and composition root: configuration, KV, assets, the route manifest and the
 * 403 and refused-form pages handed to the app, HTTP server, the read models loaded while it serves, the jobs' crons, graceful
 * shutdown (`deno task start`).
 */
import { ConfigError, loadConfig } from "./app.config.ts";
import { createServices, prepareAssets, serveWhileLoading, stopOnSignals } from "./lib/platform/server.ts";
import { Forbidden } from "./components/Forbidden.tsx";
import { RefusalPage } from "./components/RefusalPage.tsx";
// Registers the crons at import, at top level, where Deno Deploy finds them (docs/decisions.md, Background work).
import { startJobs } from "./lib/jobs/crons.ts";
import manifest from "./routes.gen.ts";

try {
  const config = loadConfig();
  const services = await createServices(config);
  const assets = await prepareAssets(manifest, !Deno.env.get("DENO_DEPLOYMENT_ID"));
  startJobs(services);
  const { server } = serveWhileLoading(services, {
    manifest,
    assets,
    forbiddenPage: Forbidden,
    refusalPage: RefusalPage,
  });
  stopOnSignals(server, services);
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  console.error(error.message);
  Deno.exit(1);
}
