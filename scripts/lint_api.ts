/**
 * Lints the OpenAPI document (`lib/openapi/document.ts`) with Redocly's recommended rules (`@redocly/cli`, through
 * npx): writes it to `_build/openapi.json` and runs `redocly lint` on it from the repository's root, where
 * `redocly.yaml` (the rules) and `.redocly.lint-ignore.yaml` (the problems accepted on purpose, each with its reason)
 * are. Exits 1 on any problem Redocly reports, error or warning, and prints each. Run by `deno task check` and
 * `deno task lint:api` (docs/decisions.md, Search engines and sharing, "API description").
 */
import { type DocumentedModule, openApiDocument } from "@/lib/openapi/document.ts";
import manifest from "@/routes.gen.ts";

/** The Redocly CLI, pinned (later releases need a newer Node than CI's). */
const REDOCLY = "@redocly/cli@2.77.0";

/** Where the document is written, relative to the root (the key of `.redocly.lint-ignore.yaml`). */
const FILE = "_build/openapi.json";

/** A problem as `redocly lint --format=json` reports it. */
interface Problem {
  ruleId: string;
  severity: string;
  message: string;
  ignored?: boolean;
  location: { pointer: string }[];
}

const root = new URL("..", import.meta.url).pathname;
const document = openApiDocument(manifest.routes as Record<string, DocumentedModule>, {
  origin: "https://careers.example.in",
  secure: true,
});
await Deno.mkdir(`${root}_build`, { recursive: true });
await Deno.writeTextFile(`${root}${FILE}`, JSON.stringify(document, null, 2));
const { stdout, stderr, success } = await new Deno.Command("npx", {
  args: ["-y", REDOCLY, "lint", "--format=json", FILE],
  cwd: root,
  env: { NO_COLOR: "1", REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" },
  stdout: "piped",
  stderr: "piped",
}).output();
const text = new TextDecoder().decode(stdout);
const start = text.indexOf("{");
if (start < 0) {
  console.error(`redocly lint gave no report (${success ? "ok" : "failed"}):\n${new TextDecoder().decode(stderr)}`);
  Deno.exit(1);
}
const problems = (JSON.parse(text.slice(start)) as { problems: Problem[] }).problems.filter((p) => !p.ignored);
for (const problem of problems) {
  console.error(`${problem.severity} ${problem.ruleId} ${problem.location[0]?.pointer}: ${problem.message}`);
}
console.log(`Redocly recommended: ${problems.length} problems`);
if (problems.length > 0 || !success) Deno.exit(1);
