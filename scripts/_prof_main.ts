import { Session } from "node:inspector/promises";
import { loadConfig } from "/work/main/app.config.ts";
import { createServices, prepareAssets, serve } from "/work/main/lib/platform/server.ts";
const services = await createServices(loadConfig());
const server = serve(services, await prepareAssets(false));
const session = new Session();
session.connect();
await session.post("Profiler.enable");
setTimeout(() => session.post("Profiler.start"), 3000);
setTimeout(async () => {
  const { profile } = await session.post("Profiler.stop");
  Deno.mkdirSync("/tmp/perf/prof", { recursive: true });
  Deno.writeTextFileSync("/tmp/perf/prof/x.cpuprofile", JSON.stringify(profile));
  await server.shutdown(); services.kv.close();
}, Number(Deno.env.get("SECS") ?? 14) * 1000);
