/**
 * The refusals an island's calls can meet are in its text, so `failureMessage` says them in the page's language
 * (docs/decisions.md, Languages, "Refusals on pages"): every island that lists refusals lists each one that the
 * `apiDocs` of the endpoints it calls (its own or its `lib/browser/` hooks' `/api/…` paths) name in a response.
 */
import { join } from "node:path";
import { assertEquals } from "@/tests/helpers/assert.ts";
import { operationsOf, type RouteDocs } from "@/lib/openapi/describe.ts";
import { translatorFor } from "@/lib/i18n/catalogue.ts";
import { translatorOf } from "@/lib/i18n/translator.ts";
import { failureMessage } from "@/lib/browser/fetch_json.ts";
import { REFUSALS } from "@/lib/refusals.ts";
import { OPPORTUNITY_FORM_TEXT } from "@/islands/OpportunityForm.tsx";

const failure = (status: number, apiError: string) => ({ ok: false as const, status, apiError, fields: [] });

Deno.test("the opportunity form words an edit refused as reviewed meanwhile, or as gone, in Hindi", () => {
  const page = translatorFor("hi");
  const island = translatorOf(page.island(OPPORTUNITY_FORM_TEXT));
  assertEquals(island.refusal(REFUSALS.opportunityReviewed), page("common.refusal.opportunityReviewed"));
  assertEquals(
    failureMessage(island, failure(409, REFUSALS.opportunityReviewed)),
    page("common.refusal.opportunityReviewed"),
  );
  assertEquals(
    failureMessage(island, failure(404, REFUSALS.opportunityNotFound)),
    page("common.refusal.opportunityNotFound"),
  );
});

const ROOT = new URL("../..", import.meta.url).pathname;

/** The API paths a source calls, each as its segments with `*` for a value put in (`${id}`). */
function apiPathsOf(source: string): string[][] {
  const paths: string[][] = [];
  for (const match of source.matchAll(/[`"](\/api\/[^`"?$]*(?:\$\{[^}]*\}[^`"?$]*)*)/g)) {
    const path = match[1].replace(/\$\{[^}]*\}/g, "*").replace(/\/$/, "");
    paths.push(path.split("/").slice(1));
  }
  return paths;
}

/** The route files under `routes/api`, each with its path's segments (`[id]` for a parameter). */
async function apiRoutes(dir = "routes/api"): Promise<{ file: string; segments: string[] }[]> {
  const routes: { file: string; segments: string[] }[] = [];
  for await (const entry of Deno.readDir(join(ROOT, dir))) {
    const file = `${dir}/${entry.name}`;
    if (entry.isDirectory) routes.push(...await apiRoutes(file));
    else if (/\.ts$/.test(entry.name) && !/_test\.ts$|^_/.test(entry.name)) {
      const segments = file.replace(/^routes\//, "").replace(/\.ts$/, "").replace(/\/index$/, "").split("/");
      routes.push({ file, segments });
    }
  }
  return routes;
}

const matches = (route: string[], path: string[]) =>
  route.length === path.length &&
  route.every((segment, i) => segment === path[i] || (/^\[.*\]$/.test(segment) && path[i] !== ""));

/** The source of an island and of the `lib/browser/` modules it imports (its hooks call the API for it). */
async function sourceWithHooks(file: string): Promise<string> {
  const source = await Deno.readTextFile(join(ROOT, file));
  const hooks = [...source.matchAll(/from "@\/(lib\/browser\/[a-z_]+\.ts)"/g)].map((match) => match[1]);
  return [source, ...await Promise.all(hooks.map((hook) => Deno.readTextFile(join(ROOT, hook))))].join("\n");
}

Deno.test("every island that words refusals lists each refusal its endpoints' apiDocs name", async () => {
  const routes = await apiRoutes();
  const missing: string[] = [];
  for await (const entry of Deno.readDir(join(ROOT, "islands"))) {
    const file = `islands/${entry.name}`;
    const source = await Deno.readTextFile(join(ROOT, file));
    if (!source.includes("refusalPrefixes(")) continue;
    const module = await import(join(ROOT, file));
    const listed = new Set(
      Object.entries(module).filter(([name]) => name.endsWith("_TEXT")).flatMap(([, keys]) => keys as string[]),
    );
    const documented = new Set<string>();
    for (const path of apiPathsOf(await sourceWithHooks(file))) {
      for (const route of routes.filter((route) => matches(route.segments, path))) {
        const docs: RouteDocs | undefined = (await import(join(ROOT, route.file))).apiDocs;
        for (const [, operation] of docs ? operationsOf(docs) : []) {
          for (const response of Object.values(operation.responses)) {
            const text = typeof response === "string" ? response : response ? response.description : "";
            for (const [name, sentence] of Object.entries(REFUSALS)) {
              if (!sentence.includes("{") && text.includes(sentence)) documented.add(name);
            }
          }
        }
      }
    }
    for (const name of documented) {
      if (!listed.has(`common.refusal.${name}`)) missing.push(`${file}: ${name}`);
    }
  }
  assertEquals(missing.sort(), []);
});
