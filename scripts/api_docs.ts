/**
 * Writes the endpoint entries of `docs/api.md` from the routes' `apiDocs` (`lib/openapi/reference.ts`), formatted as
 * `deno fmt` formats markdown. `--check`: writes nothing and exits 1 when the file is stale. Another file than
 * `docs/api.md` may be named as the argument (the test checks a copy).
 */
import { writeReference } from "@/lib/openapi/reference.ts";
import type { DocumentedModule } from "@/lib/openapi/document.ts";
import manifest from "@/routes.gen.ts";

const root = new URL("..", import.meta.url).pathname;
const path = Deno.args.find((arg) => !arg.startsWith("--")) ?? `${root}docs/api.md`;
const current = await Deno.readTextFile(path);
const text = await formatMarkdown(writeReference(current, manifest.routes as Record<string, DocumentedModule>));

if (Deno.args.includes("--check")) {
  if (current !== text) {
    console.error(`${path} is stale: run \`deno task docs\``);
    Deno.exit(1);
  }
} else if (current !== text) {
  await Deno.writeTextFile(path, text);
}

/** `markdown` as `deno fmt` (with this repository's settings) writes it. */
async function formatMarkdown(markdown: string): Promise<string> {
  const command = new Deno.Command(Deno.execPath(), {
    args: ["fmt", "--ext=md", "-"],
    cwd: root,
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  });
  const child = command.spawn();
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode(markdown));
  await writer.close();
  const { success, stdout, stderr } = await child.output();
  if (!success) throw new Error(`deno fmt failed: ${new TextDecoder().decode(stderr)}`);
  return new TextDecoder().decode(stdout);
}
