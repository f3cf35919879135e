/**
 * The endpoint entries of `docs/api.md`, generated from the routes' `apiDocs` (`describe.ts`) by `deno task docs`
 * (`scripts/api_docs.ts`), so that an endpoint is described once. Each `## ` section of `docs/api.md` holds its
 * cross-cutting rules, written by hand, and one block between `<!-- begin endpoints: <Section> -->` and
 * `<!-- end endpoints -->` that this module writes: per route file, its path and file, then per method who may call
 * it, the summary and description, the query parameters with their types, limits and defaults, the body's fields, and
 * the answers (the success's shape, each error the route names, and the statuses the platform adds).
 */
import { API_SECTIONS, type ApiSection, operationsOf, type RouteDocs } from "./describe.ts";
import {
  ACCESS_TEXT,
  apiRouteFiles,
  type DocumentedModule,
  type JsonSchema,
  openApiDocument,
  openApiPath,
  responsesOf,
} from "./document.ts";
import { resolveRouteOptions } from "@/lib/platform/route_options.ts";

/** The marker lines of a section's generated block. */
export function markers(section: string): { begin: string; end: string } {
  return { begin: `<!-- begin endpoints: ${section} -->`, end: "<!-- end endpoints -->" };
}

const REF = "#/components/schemas/";

/** A schema's shape in one line: `{a, b?}`, `[Toolkit]`, `Post | null`, `true`. */
function shapeOf(schema: JsonSchema | undefined, depth = 0): string {
  if (!schema) return "";
  if (typeof schema.$ref === "string") return schema.$ref.slice(REF.length);
  if ("const" in schema) return JSON.stringify(schema.const);
  const union = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
  if (union) return union.map((part) => shapeOf(part, depth)).join(" | ");
  if (schema.type === "array") return `[${shapeOf(schema.items as JsonSchema, depth)}]`;
  if (schema.type === "object" && schema.properties && depth === 0) {
    const required = new Set((schema.required ?? []) as string[]);
    const keys = Object.keys(schema.properties as object).map((key) => required.has(key) ? key : `${key}?`);
    return `{${keys.join(", ")}}`;
  }
  return String(schema.type ?? "any");
}

/** A query parameter's type, range and default in words: `integer 1–100, default 10`. */
function parameterText(schema: JsonSchema, required: boolean): string {
  const parts: string[] = [];
  const values = (schema.enum ?? (schema.items as JsonSchema | undefined)?.enum) as unknown[] | undefined;
  if (values) parts.push(values.map((v) => `\`${v}\``).join(", "));
  else if (schema.format === "date") parts.push("a date `YYYY-MM-DD`");
  else if (schema.type && schema.type !== "string") parts.push(String(schema.type));
  if (typeof schema.minimum === "number" && typeof schema.maximum === "number") {
    parts.push(`${schema.minimum}–${schema.maximum}`);
  } else if (typeof schema.minimum === "number") parts.push(`≥ ${schema.minimum}`);
  else if (typeof schema.maximum === "number") parts.push(`≤ ${schema.maximum}`);
  if (typeof schema.maxLength === "number") parts.push(`≤ ${schema.maxLength} characters`);
  if (schema.default !== undefined) parts.push(`default ${JSON.stringify(schema.default)}`);
  if (required) parts.push("required");
  return parts.join(", ");
}

/** A sentence's end: the text with a final period unless it ends in one (or a closing mark after one). */
function sentence(text: string): string {
  return /[.!?][)"`]?$/.test(text.trim()) ? text.trim() : `${text.trim()}.`;
}

/** `text` with its first letter in lower case when it starts a plain word ("Not found" → "not found"). */
function lowerFirst(text: string): string {
  return /^[A-Z](?:[a-z]|\s[a-z])/.test(text) ? text.charAt(0).toLowerCase() + text.slice(1) : text;
}

/** The entries of one route file. */
function routeEntry(file: string, module: DocumentedModule, document: ReturnType<typeof openApiDocument>): string {
  const docs = module.apiDocs as RouteDocs;
  const path = openApiPath(file);
  const lines = [`- \`${path}\` (\`${file.slice(2)}\`):`];
  const route = resolveRouteOptions(module.routeOptions, path);
  for (const [method, doc] of operationsOf(docs)) {
    const operation = document.paths[path][method.toLowerCase()];
    const who = (doc.access ?? ["public"]).map((a) => ACCESS_TEXT[a]).join(", or ");
    const text = [`\`${method}\` (${who}): ${sentence(doc.summary)}`];
    if (doc.description) text.push(sentence(doc.description));
    const query = (operation.parameters ?? []).filter((p) => p.in === "query");
    if (query.length > 0) {
      const list = query.map((p) => {
        const detail = parameterText(p.schema, p.required);
        return detail ? `\`${p.name}\` (${detail})` : `\`${p.name}\``;
      });
      text.push(`Query: ${list.join(", ")}.`);
    }
    const body = operation.requestBody?.content["application/json"]?.schema;
    if (body) text.push(`Body: \`${shapeOf(body)}\`.`);
    else if (doc.rawBody) text.push(`Body: ${doc.rawBody.mediaType}, ${lowerFirst(sentence(doc.rawBody.description))}`);
    const answers: string[] = [];
    const implied: number[] = [];
    for (const [status, response] of responsesOf(method, path, doc, route)) {
      if (response.implied) {
        implied.push(status);
        continue;
      }
      const schema = operation.responses[String(status)].content?.["application/json"]?.schema;
      const shape = status < 300 && schema ? ` \`${shapeOf(schema)}\`` : "";
      answers.push(`${status}${shape}, ${lowerFirst(response.description.replace(/\.$/, ""))}`);
    }
    text.push(`Answers: ${answers.join("; ")}${implied.length ? `; also ${implied.join(", ")}` : ""}.`);
    lines.push(`  - ${text.join(" ")}`);
  }
  return lines.join("\n");
}

/**
 * `markdown` (`docs/api.md`) with every section's block of endpoint entries written anew from `routes`.
 * @throws Error when a section of `API_SECTIONS` has no block (or two), or a block names an unknown section.
 */
export function writeReference(markdown: string, routes: Record<string, DocumentedModule>): string {
  const document = openApiDocument(routes, { origin: "http://localhost:8000", secure: false });
  const bySection = new Map<string, string[]>(Object.keys(API_SECTIONS).map((section) => [section, []]));
  for (const file of apiRouteFiles(routes)) {
    bySection.get((routes[file].apiDocs as RouteDocs).section)!.push(routeEntry(file, routes[file], document));
  }
  for (const found of markdown.matchAll(/<!-- begin endpoints: (.+?) -->/g)) {
    if (!(found[1] in API_SECTIONS)) throw new Error(`docs/api.md has a block for an unknown section: ${found[1]}`);
  }
  let result = markdown;
  for (const [section, entries] of bySection) {
    const { begin, end } = markers(section as ApiSection);
    const start = result.indexOf(begin);
    if (start < 0 || result.indexOf(begin, start + 1) >= 0) {
      throw new Error(`docs/api.md needs one "${begin}" … "${end}" block under its "## ${section}" heading`);
    }
    const stop = result.indexOf(end, start);
    if (stop < 0) throw new Error(`the API reference: "${begin}" has no "${end}"`);
    const body = entries.length > 0 ? entries.join("\n") : "No endpoint yet.";
    result = `${result.slice(0, start)}${begin}\n\n${body}\n\n${result.slice(stop)}`;
  }
  return result;
}
