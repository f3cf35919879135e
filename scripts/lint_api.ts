/**
 * Lints the OpenAPI document (`lib/openapi/document.ts`) with Redocly's recommended rules (`@redocly/cli`, through
 * npx) and exits 1 on any problem, error or warning, but the accepted ones below, each with its reason. Prints every
 * problem it counts. Run by `deno task check` and `deno task lint:api`.
 */
import { type DocumentedModule, type OpenApiDocument, openApiDocument } from "@/lib/openapi/document.ts";
import manifest from "@/routes.gen.ts";

/** The Redocly CLI, pinned (later releases need a newer Node than CI's). */
const REDOCLY = "@redocly/cli@2.77.0";

/** A problem as `redocly lint --format=json` reports it. */
interface Problem {
  ruleId: string;
  severity: string;
  message: string;
  location: { pointer: string }[];
}

/** The value at a JSON pointer of `document`. */
function at(document: unknown, pointer: string): Record<string, unknown> | undefined {
  let value = document as Record<string, unknown> | undefined;
  for (const part of pointer.replace(/^#\//, "").split("/")) {
    value = value?.[part.replaceAll("~1", "/").replaceAll("~0", "~")] as Record<string, unknown> | undefined;
  }
  return value;
}

/** Why a problem is accepted, or undefined when it counts. */
function accepted(problem: Problem, document: OpenApiDocument): string | undefined {
  const pointer = problem.location[0]?.pointer ?? "";
  if (problem.ruleId === "no-ambiguous-paths" && problem.message.includes("/api/ungatekeep/{id}/comments")) {
    return "the comment paths are the product's; `comments` is never a post's id";
  }
  if (problem.ruleId === "operation-4xx-response") {
    const operation = at(document, pointer.replace(/\/responses$/, ""));
    const security = operation?.security as Record<string, unknown>[] | undefined;
    if (!operation?.parameters && !operation?.requestBody && security?.some((s) => Object.keys(s).length === 0)) {
      return "a read open to anyone, without parameters or body, has no client error to answer";
    }
  }
  return undefined;
}

const document = openApiDocument(manifest.routes as Record<string, DocumentedModule>, {
  origin: "https://careers.example.in",
  secure: true,
});
const dir = await Deno.makeTempDir({ prefix: "openapi-lint-" });
try {
  await Deno.writeTextFile(`${dir}/openapi.json`, JSON.stringify(document, null, 2));
  const { stdout, stderr, success } = await new Deno.Command("npx", {
    args: ["-y", REDOCLY, "lint", "--extends=recommended", "--format=json", "openapi.json"],
    cwd: dir,
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
  const problems = (JSON.parse(text.slice(start)) as { problems: Problem[] }).problems;
  const counted = problems.filter((problem) => !accepted(problem, document));
  for (const problem of counted) {
    console.error(`${problem.severity} ${problem.ruleId} ${problem.location[0]?.pointer}: ${problem.message}`);
  }
  const skipped = problems.length - counted.length;
  console.log(`Redocly recommended: ${counted.length} problems (${skipped} accepted)`);
  if (counted.length > 0) Deno.exit(1);
} finally {
  await Deno.remove(dir, { recursive: true });
}
