/**
 * Sitemap benchmark (`deno run -A bench/sitemap.ts`): imports `BENCH_COUNT` generated internships (default 100,000;
 * one in ten keeps its generated deadline, so many are closed, with inactive and deleted ones) into a temporary KV
 * file, starts the real server (`main.ts`, a separate process on 127.0.0.1) and measures over HTTP from one client the
 * first `GET /sitemap.xml` (which builds the sitemap), then p50 and p95 of 300 requests over `/sitemap.xml` and its
 * files; target p95 ≤ 50 ms. Prints a table, then stops the server and removes the files.
 */
import { HOST, percentile, seedOwners, startPlatform, waitFor } from "./harness.ts";
import { generateInternships, importInternships } from "@/lib/internships/fixtures.ts";

const COUNT = Number(Deno.env.get("BENCH_COUNT") ?? 100_000);
const SAMPLES = 300;
const TARGET_MS = 50;

const dir = await Deno.makeTempDir({ prefix: "sitemap-bench-" });
const kvPath = `${dir}/kv.sqlite3`;
const ms = (n: number) => `${Math.round(n * 100) / 100} ms`;

/** Milliseconds until `url` has answered 200 and its body (in `encoding`) has arrived; the body's text. */
async function timed(url: string, encoding = "identity"): Promise<{ ms: number; text: string }> {
  const started = performance.now();
  const res = await fetch(url, { headers: { "accept-encoding": encoding } });
  const bytes = await res.bytes();
  const elapsed = performance.now() - started;
  if (res.status !== 200) throw new Error(`${url} answered ${res.status}`);
  return { ms: elapsed, text: new TextDecoder().decode(bytes) };
}

const kv = await Deno.openKv(kvPath);
const owners = await seedOwners(kv);
const records = generateInternships(COUNT, owners.map((owner) => owner.id), { seed: 11, withHidden: true })
  .map((record, i) => i % 10 === 0 ? record : { ...record, deadline: null });
await importInternships(kv, records);
kv.close();

const platform = startPlatform(kvPath);
try {
  await waitFor(`${platform.origin}/api/health`, 120_000);
  const first = await timed(`${platform.origin}/sitemap.xml`);
  const files = [...first.text.matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => new URL(match[1]).pathname);
  const paths = ["/sitemap.xml", ...files];
  let urls = 0;
  for (const path of files) urls += (await timed(`${platform.origin}${path}`)).text.split("<url>").length - 1;
  console.log(`Sitemap at ${COUNT.toLocaleString("en")} internships (${HOST}, ${files.length} files, ${urls} URLs)\n`);
  console.log("| Measure | Result | Target | Met |");
  console.log("| --- | --- | --- | --- |");
  console.log(`| first GET /sitemap.xml (builds it) | ${ms(first.ms)} | | |`);
  for (const encoding of ["identity", "gzip"]) {
    const samples: number[] = [];
    for (let i = 0; i < SAMPLES; i++) {
      samples.push((await timed(`${platform.origin}${paths[i % paths.length]}`, encoding)).ms);
    }
    samples.sort((a, b) => a - b);
    const p95 = percentile(samples, 95);
    console.log(
      `| GET /sitemap.xml and its files, ${encoding} | p50 ${ms(percentile(samples, 50))} / p95 ${
        ms(p95)
      } | ≤ ${TARGET_MS} ms | ${p95 <= TARGET_MS ? "yes" : "no"} |`,
    );
  }
} finally {
  platform.process.kill("SIGTERM");
  await platform.process.status;
  await Deno.remove(dir, { recursive: true });
}
