/**
 * Runs one job of the registry once, now, against the configured KV store and SMTP server, and prints what it did as
 * one JSON line (`deno task job outbox`): a run by hand, like `POST /api/admin/jobs/{name}/run`, so `JOBS` does not
 * apply, recorded as the job's last run or failure (docs/decisions.md, Background work). Exits 2 for an unknown job
 * name, 1 when the run fails.
 */
import { ConfigError, loadConfig } from "@/app.config.ts";
import { findJob, JOBS, runJob } from "@/lib/jobs/registry.ts";
import { createServices } from "@/lib/platform/server.ts";

const name = Deno.args[0] ?? "";
const job = findJob(name);
if (!job) {
  console.error(`Unknown job "${name}"; the jobs are: ${JOBS.map((j) => j.name).join(", ")}`);
  Deno.exit(2);
}
try {
  const services = await createServices(loadConfig());
  console.log(JSON.stringify(await runJob(job, services)));
  await services.background.settled();
  services.mailer.close();
  services.push?.close();
  services.kv.close();
} catch (error) {
  console.error(error instanceof ConfigError ? error.message : error);
  Deno.exit(1);
}
