/**
 * `deno task demo`: seeds the demo data, then serves the platform (`PORT`, default 8000) until Ctrl-C, as the demo
 * seller (`lib/demo/seller.ts`: receipts are tax invoices) unless the environment names a seller of its own.
 */
import { withDemoSeller } from "@/lib/demo/seller.ts";

const root = new URL("..", import.meta.url).pathname;
const env = withDemoSeller(Deno.env.toObject());
const run = (script: string) =>
  new Deno.Command(Deno.execPath(), { args: ["run", "-A", script], cwd: root, env, stdin: "null" }).spawn();

const seeded = await run("scripts/seed.ts").status;
if (!seeded.success) Deno.exit(seeded.code);
const server = run("main.ts");
for (const signal of ["SIGINT", "SIGTERM"] as const) Deno.addSignalListener(signal, () => server.kill(signal));
Deno.exit((await server.status).code);
