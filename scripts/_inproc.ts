import { Session } from "node:inspector/promises";
import { loadConfig } from "/work/main/app.config.ts";
import { createServices, prepareAssets } from "/work/main/lib/platform/server.ts";
import { createApp } from "/work/main/lib/platform/app.ts";
import manifest from "/work/main/routes.gen.ts";
const services = await createServices(loadConfig());
const app = createApp(services, manifest, await prepareAssets(false));
const url = Deno.env.get("URL") ?? "http://127.0.0.1:8300/api/nope";
const info = { remoteAddr: { hostname: "127.0.0.1", port: 1, transport: "tcp" } };
async function run(n: number) {
  const t = performance.now();
  for (let i = 0; i < n; i++) {
    const res = await app.fetch(new Request(url), info);
    await res.arrayBuffer();
  }
  return (performance.now() - t) * 1000 / n;
}
await run(20000);
console.log("µs/req", (await run(50000)).toFixed(2));
if (Deno.env.get("PROF")) {
  const session = new Session(); session.connect();
  await session.post("Profiler.enable"); await session.post("Profiler.start");
  await run(50000);
  const { profile } = await session.post("Profiler.stop");
  Deno.writeTextFileSync("/tmp/perf/inproc.cpuprofile", JSON.stringify(profile));
}
services.kv.close();
