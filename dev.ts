/**
 * Development: regenerates `routes.gen.ts`, builds assets, and restarts the server when
 * routes, islands, components, lib or styles change (`deno task dev`).
 */
const root = new URL(".", import.meta.url).pathname;
const run = (args: string[]) =>
  new Deno.Command(Deno.execPath(), { args, cwd: root, stdout: "inherit", stderr: "inherit" });

async function rebuild() {
  await run(["run", "-A", "scripts/gen_manifest.ts"]).output();
  await run(["run", "-A", "scripts/build.ts"]).output();
}

await rebuild();
let server = run(["run", "-A", "main.ts"]).spawn();
let timer: ReturnType<typeof setTimeout> | undefined;
const watcher = Deno.watchFs(["routes", "islands", "components", "lib", "static/styles.css"].map((p) => root + p));
for await (const event of watcher) {
  if (event.paths.every((p) => p.endsWith("routes.gen.ts"))) continue;
  clearTimeout(timer);
  timer = setTimeout(async () => {
    server.kill();
    await server.status;
    await rebuild();
    server = run(["run", "-A", "main.ts"]).spawn();
  }, 200);
}
