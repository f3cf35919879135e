/** Loads the demo data set into the configured KV store (`deno task seed`). */
import { loadConfig } from "@/app.config.ts";
import { seedDemoData } from "@/lib/demo/seed.ts";
import { openKv } from "@/lib/kv.ts";

const config = loadConfig();
const kv = await openKv(config.kvPath);
const lines = await seedDemoData(kv, config.appUrl, config.seller);
kv.close();
console.log(lines.join("\n"));
