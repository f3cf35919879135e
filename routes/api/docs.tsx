/**
 * `GET /api/docs`: the API reference for people, rendered on the server from the OpenAPI document (no script, no
 * viewer from another origin): the operations by section, each with who may call it, its parameters, request body and
 * responses, schemas shown as JSON Schema (folded; a body that is one of the shared schemas links to it), and the
 * shared schemas they refer to (docs/api.md, API description).
 */
import { define } from "@/lib/platform/define.ts";
import { PageHead } from "@/components/PageHead.tsx";
import { describeRoute } from "@/lib/openapi/describe.ts";
import { type OpenApiDocument, openApiDocument } from "@/lib/openapi/document.ts";
import manifest from "@/routes.gen.ts";

export const apiDocs = describeRoute({
  section: "API description",
  GET: {
    summary: "This API's reference as a web page",
    description: "The OpenAPI document rendered on the server, without scripts.",
    responses: { 200: { description: "HTML", mediaType: "text/html" } },
  },
});

export const handler = define.handlers<OpenApiDocument>({
  GET(_req, ctx) {
    const { appUrl, secure } = ctx.state.services.config;
    return ctx.render(openApiDocument(manifest.routes, { origin: appUrl, secure }));
  },
});

const METHOD_STYLE: Record<string, string> = {
  get: "bg-sky-100 text-sky-900",
  post: "bg-green-100 text-green-900",
  put: "bg-amber-100 text-amber-900",
  patch: "bg-amber-100 text-amber-900",
  delete: "bg-red-100 text-red-900",
};

type Operation = OpenApiDocument["paths"][string][string];

/** Where the shared schemas live in the document; a reference `#/components/schemas/Name` names one of them. */
const COMPONENTS = "#/components/schemas/";

/** The shared schema's name when `schema` is nothing but a reference to it (`{ "$ref": "#/components/schemas/Name" }`). */
function referencedName(schema: unknown): string | undefined {
  if (typeof schema !== "object" || schema === null) return undefined;
  const keys = Object.keys(schema);
  const ref = (schema as { $ref?: unknown }).$ref;
  return keys.length === 1 && typeof ref === "string" && ref.startsWith(COMPONENTS)
    ? ref.slice(COMPONENTS.length)
    : undefined;
}

/**
 * A body's JSON Schema shown folded; a body that is one of the shared schemas (most error answers: `Error`) links to it
 * in the Schemas section instead of folding away a one-line reference.
 */
function SchemaBlock({ label, schema }: { label: string; schema: unknown }) {
  const name = referencedName(schema);
  if (name) {
    return (
      <a href={`#schema-${name}`} class="mt-2 block w-fit text-sm text-indigo-800 underline">
        {label}: {name}
      </a>
    );
  }
  return (
    <details class="mt-2">
      <summary class="cursor-pointer text-sm text-indigo-800 underline">{label}</summary>
      <pre class="mt-2 overflow-x-auto rounded-md bg-slate-100 p-3 text-xs text-slate-900">{JSON.stringify(schema, null, 2)}</pre>
    </details>
  );
}

function OperationCard({ method, path, op }: { method: string; path: string; op: Operation }) {
  const body = op.requestBody && Object.entries(op.requestBody.content)[0];
  return (
    <section
      id={op.operationId}
      aria-labelledby={`${op.operationId}-title`}
      class="rounded-lg border border-slate-200 bg-white p-4 shadow-sm"
    >
      <h3 id={`${op.operationId}-title`} class="flex flex-wrap items-center gap-2 font-mono text-sm">
        <span class={`rounded px-2 py-0.5 font-semibold uppercase ${METHOD_STYLE[method] ?? ""}`}>{method}</span>
        <code class="[overflow-wrap:anywhere] text-slate-900">{path}</code>
      </h3>
      <p class="mt-2 font-medium text-slate-900">{op.summary}</p>
      {op.description && <p class="mt-1 whitespace-pre-line text-sm text-slate-700">{op.description}</p>}
      {op.parameters && (
        <table class="mt-3 w-full text-left text-sm">
          <caption class="sr-only">Parameters</caption>
          <thead>
            <tr class="border-b border-slate-200 text-slate-700">
              <th scope="col" class="py-1 pr-3 font-medium">Parameter</th>
              <th scope="col" class="py-1 pr-3 font-medium">In</th>
              <th scope="col" class="py-1 font-medium">Schema</th>
            </tr>
          </thead>
          <tbody>
            {op.parameters.map((p) => (
              <tr key={`${p.in}-${p.name}`} class="border-b border-slate-100 align-top">
                <td class="py-1 pr-3 font-mono">{p.name}{p.required ? " *" : ""}</td>
                <td class="py-1 pr-3">{p.in}</td>
                <td class="py-1 text-xs [overflow-wrap:anywhere]">
                  <code>{JSON.stringify(p.schema)}</code>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {body && (body[1].schema
        ? <SchemaBlock label={`Request body (${body[0]})`} schema={body[1].schema} />
        : <p class="mt-2 text-sm text-slate-700">Request body: {body[0]}. {op.requestBody?.description}</p>)}
      <ul class="mt-3 space-y-1 text-sm">
        {Object.entries(op.responses).map(([status, res]) => {
          const content = res.content && Object.entries(res.content)[0];
          return (
            <li key={status}>
              <span class="font-mono font-semibold">{status}</span> {res.description}
              {content?.[1].schema && (
                <SchemaBlock label={`${status} body (${content[0]})`} schema={content[1].schema} />
              )}
            </li>
          );
        })}
      </ul>
    </section>
  );
}

export default define.page<OpenApiDocument>(function ApiDocsPage({ data }) {
  const byTag = new Map<string, { method: string; path: string; op: Operation }[]>();
  for (const [path, ops] of Object.entries(data.paths)) {
    for (const [method, op] of Object.entries(ops)) {
      const list = byTag.get(op.tags[0]) ?? [];
      list.push({ method, path, op });
      byTag.set(op.tags[0], list);
    }
  }
  return (
    <article aria-labelledby="page-title" class="mx-auto max-w-4xl">
      <PageHead title="API reference" description={data.info.description} />
      <h1 id="page-title" class="text-3xl font-bold tracking-tight text-slate-900">{data.info.title}</h1>
      <p class="mt-2 text-slate-700">{data.info.description}</p>
      <p class="mt-2 text-slate-700">
        Machine-readable: <a href="/api/openapi.json" class="text-indigo-700 underline">/api/openapi.json</a> (OpenAPI
        {" "}
        {data.openapi}). Signed-in calls carry the session cookie; ingest calls an API key as a bearer token.
      </p>
      <nav aria-label="Areas" class="mt-4">
        <ul class="flex flex-wrap gap-x-4 gap-y-1 text-sm">
          {[...byTag.keys()].map((tag) => (
            <li key={tag}>
              <a href={`#tag-${tag.replaceAll(" ", "-")}`} class="text-indigo-700 underline">{tag}</a>
            </li>
          ))}
          <li>
            <a href="#schemas" class="text-indigo-700 underline">Schemas</a>
          </li>
        </ul>
      </nav>
      {[...byTag].map(([tag, operations]) => (
        <section
          key={tag}
          id={`tag-${tag.replaceAll(" ", "-")}`}
          aria-labelledby={`tag-${tag.replaceAll(" ", "-")}-title`}
          class="mt-8"
        >
          <h2 id={`tag-${tag.replaceAll(" ", "-")}-title`} class="text-xl font-semibold text-slate-900">{tag}</h2>
          <div class="mt-3 space-y-3">
            {operations.map((entry) => <OperationCard key={`${entry.method} ${entry.path}`} {...entry} />)}
          </div>
        </section>
      ))}
      <section id="schemas" aria-labelledby="schemas-title" class="mt-8">
        <h2 id="schemas-title" class="text-xl font-semibold text-slate-900">Schemas</h2>
        <p class="mt-1 text-sm text-slate-700">
          The shapes the operations refer to as <code>#/components/schemas/Name</code>.
        </p>
        <div class="mt-3 space-y-2">
          {Object.entries(data.components.schemas).map(([name, schema]) => (
            <div key={name} id={`schema-${name}`}>
              <SchemaBlock label={name} schema={schema} />
            </div>
          ))}
        </div>
      </section>
    </article>
  );
});
