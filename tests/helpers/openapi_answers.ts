/**
 * Every `/api` answer a test gets is checked against the OpenAPI document (docs/decisions.md, Search engines and
 * sharing, "API description"): the operation must be documented, the status must be one of its responses, the
 * content type one of that response's media types, and a JSON body must validate against its schema (ajv, JSON Schema
 * 2020-12, with ajv-formats). `tests/helpers/app.ts` passes every answer through `checkAnswer`: in process (`app`)
 * before the test reads it, and over HTTP (`http`: a `listen` server's answers to Chromium, `fetch` or a raw socket)
 * through `mismatchOf` as they are sent, the mismatches thrown when the app closes. A test that fetches a server
 * process (`main.ts`) itself uses `checkedFetch`. A mismatch throws, so the test that got the answer fails with the
 * operation, the status and ajv's errors.
 *
 * `OPENAPI_ANSWERS_LOG=<file>`: every checked answer is appended to that file as a JSON line with how it came
 * (`via`: `app` or `http`) and its problems (none when it matches), and nothing is thrown: to count the answers and
 * mismatches over a whole run.
 */
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import ajvFormats from "ajv-formats";
import {
  type DocumentedModule,
  type JsonSchema,
  type OpenApiDocument,
  openApiDocument,
} from "@/lib/openapi/document.ts";
import manifest from "@/routes.gen.ts";

/** The `$id` the document is registered under in ajv (a name only, never fetched). */
const DOCUMENT_ID = "https://openapi.test/openapi.json";

/** One operation of the document with the pattern of its path. */
interface Route {
  path: string;
  pattern: RegExp;
  /** Literal segments count first: `/api/me/saved/ids` wins over `/api/me/saved/{kind}`. */
  literals: number;
  methods: Set<string>;
}

/**
 * The document, its operations and the compiled validators, built on first use (once per test module). ajv holds the
 * document's `components` only; a response's schema is compiled when an answer first needs it, its `$ref`s pointing
 * into those components (`validatorOf`): registering the whole document (half a megabyte, the shared error schemas
 * written out in every operation) cost a test module about 70 ms of CPU before its first check.
 */
let state: {
  document: OpenApiDocument;
  routes: Route[];
  ajv: Ajv2020;
  /** By the response's JSON pointer in the document. */
  validators: Map<string, ValidateFunction>;
  /** By the schema's text (its `$ref`s made absolute): most operations share their error schemas. */
  compiled: Map<string, ValidateFunction>;
};

function load() {
  if (state) return state;
  const document = openApiDocument(manifest.routes as Record<string, DocumentedModule>, {
    origin: "http://localhost:8000",
    secure: false,
  });
  const routes = Object.entries(document.paths).map(([path, operations]) => {
    const segments = path.split("/").slice(1);
    const source = segments.map((s) => s.startsWith("{") ? "[^/]+" : s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))
      .join("/");
    return {
      path,
      pattern: new RegExp(`^/${source}$`),
      literals: segments.filter((s) => !s.startsWith("{")).length,
      methods: new Set(Object.keys(operations)),
    };
  }).sort((a, b) => b.literals - a.literals);
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  ajvFormats.default(ajv);
  ajv.addSchema({ $id: DOCUMENT_ID, components: structuredClone(document.components) });
  state = { document, routes, ajv, validators: new Map(), compiled: new Map() };
  return state;
}

/**
 * The validator of the response schema at `key` (its JSON pointer in the document): the schema as the document holds
 * it, with its references to `#/components/...` resolved against the document's components in ajv.
 */
function validatorOf(key: string, schema: JsonSchema): ValidateFunction {
  const { ajv, validators, compiled } = load();
  let validate = validators.get(key);
  if (validate) return validate;
  const text = JSON.stringify(schema).replaceAll('"$ref":"#/components/', `"$ref":"${DOCUMENT_ID}#/components/`);
  validate = compiled.get(text);
  if (!validate) compiled.set(text, validate = ajv.compile(JSON.parse(text)));
  validators.set(key, validate);
  return validate;
}

/** `~` and `/` escaped for a JSON pointer. */
function pointer(...parts: string[]): string {
  return parts.map((part) => part.replaceAll("~", "~0").replaceAll("/", "~1")).join("/");
}

/** The media type of a `Content-Type` header, parameters aside. */
function mediaTypeOf(contentType: string | null): string {
  return contentType?.split(";")[0].trim().toLowerCase() ?? "";
}

/** Whether `actual` is one of `documented` (`image/*` covers `image/png`). */
function documentedType(actual: string, documented: string[]): string | undefined {
  return documented.find((type) => type === actual || (type.endsWith("/*") && actual.startsWith(type.slice(0, -1))));
}

/**
 * The problems of one answer against the document, empty when it matches; undefined when the request is not an
 * `/api` operation of the document (another path, or a route a test added).
 */
export async function answerProblems(
  method: string,
  url: URL,
  response: Response,
): Promise<string[] | undefined> {
  if (!url.pathname.startsWith("/api/") && url.pathname !== "/api") return undefined;
  const { document, routes } = load();
  const route = routes.find((r) => r.pattern.test(url.pathname));
  if (!route) return undefined;
  const verb = method.toLowerCase() === "head" ? "get" : method.toLowerCase();
  if (!route.methods.has(verb)) return await refusalProblems(method, response);
  const operation = document.paths[route.path][verb];
  const status = String(response.status);
  // `default` stands for the unexpected errors (5xx) only: every other status must be listed.
  const documented = operation.responses[status] ?? (response.status >= 500 ? operation.responses.default : undefined);
  if (!documented) return [`status ${status} is not documented`];
  const text = method.toUpperCase() === "HEAD" ? "" : await response.clone().text();
  const content = documented.content ?? {};
  if (Object.keys(content).length === 0) {
    return text === "" ? [] : [`status ${status} is documented without a body, but one was sent`];
  }
  if (text === "" && (method.toUpperCase() === "HEAD" || response.status === 304)) return [];
  const actual = mediaTypeOf(response.headers.get("content-type"));
  const type = documentedType(actual, Object.keys(content));
  if (!type) return [`content type ${actual || "(none)"} is not documented for ${status}`];
  if (type !== "application/json" || !content[type].schema) return [];
  const key = pointer(route.path, verb, documented === operation.responses.default ? "default" : status, type);
  const validate = validatorOf(key, content[type].schema);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return [`status ${status}: the body is not JSON`];
  }
  if (validate(body)) return [];
  return (validate.errors ?? []).slice(0, 8).map((error) =>
    `status ${status}: ${error.instancePath || "(body)"} ${error.message}${
      error.params && Object.keys(error.params).length ? ` ${JSON.stringify(error.params)}` : ""
    }`
  );
}

/**
 * A method the path does not document is refused by the platform before any route runs: 405 (with `Allow`), or the
 * refusals of the request limits and the origin check (403, 408, 413, 414), each an `{error}` body.
 */
async function refusalProblems(method: string, response: Response): Promise<string[]> {
  if (![403, 405, 408, 413, 414].includes(response.status)) {
    return [`${method} is not documented, and the answer is ${response.status}`];
  }
  const { ajv } = load();
  const validate = ajv.getSchema(`${DOCUMENT_ID}#/components/schemas/Error`)!;
  const text = await response.clone().text();
  if (method.toUpperCase() === "HEAD" && text === "") return [];
  try {
    if (validate(JSON.parse(text))) return [];
  } catch {
    // Not JSON: reported below.
  }
  return [`${method} is not documented, and its ${response.status} is not an \`{error}\` body`];
}

/**
 * A copy of an answer as the app made it, compressed by the app itself (a kept answer, `lib/http/guest_pages.ts`), with
 * its body decoded, as `fetch` decodes one that came over HTTP; any other answer as it is.
 */
async function decoded(response: Response): Promise<Response> {
  const encoding = response.headers.get("content-encoding");
  if (encoding !== "br" && encoding !== "gzip") return response;
  const bytes = new Uint8Array(await response.clone().arrayBuffer());
  const headers = new Headers(response.headers);
  headers.delete("content-encoding");
  const body = encoding === "br" ? brotliDecompressSync(bytes) : gunzipSync(bytes);
  return new Response(new Uint8Array(body), { status: response.status, headers });
}

/**
 * How an answer reached the check: the app called in process (`app`), as the test's server sends it over HTTP
 * (`served`: both are the app's own answer, its body as the app encoded it), or read by `fetch` over real HTTP
 * (`http`: the body decoded).
 */
export type Via = "app" | "served" | "http";

/**
 * The mismatch of an answer against the document as one line naming the request and its problems, or undefined when
 * it matches or is not an `/api` operation. With `OPENAPI_ANSWERS_LOG` set the answer is logged instead and undefined
 * is given. Reads a clone of the body, so `response` stays unread.
 */
export async function mismatchOf(method: string, url: URL, response: Response, via: Via): Promise<string | undefined> {
  const problems = await answerProblems(method, url, via === "http" ? response : await decoded(response));
  const log = Deno.env.get("OPENAPI_ANSWERS_LOG");
  if (log && problems) {
    const line = { via, method, path: url.pathname, status: response.status, problems };
    await Deno.writeTextFile(log, JSON.stringify(line) + "\n", { append: true });
    return undefined;
  }
  if (!problems || problems.length === 0) return undefined;
  return `${method} ${url.pathname}${url.search} (${via}): ${problems.join("; ")}`;
}

/**
 * Checks an answer against the document (see the module docs) and gives it back unread.
 * @throws Error naming the operation and the problems, unless `OPENAPI_ANSWERS_LOG` is set.
 */
export async function checkAnswer(method: string, url: URL, response: Response, via: Via = "app"): Promise<Response> {
  const mismatch = await mismatchOf(method, url, response, via);
  if (!mismatch) return response;
  await response.body?.cancel();
  throw new Error(`The answer does not match /api/openapi.json: ${mismatch}`);
}

/**
 * `fetch` whose `/api` answers are checked against the document as they arrive (`via: http`), for tests that call a
 * server they did not start through `createTestApp` (a `main.ts` process). Same arguments and result as `fetch`.
 * @throws Error naming the operation and the problems of an answer that does not match.
 */
export async function checkedFetch(input: string | URL, init?: RequestInit): Promise<Response> {
  const response = await fetch(input, init);
  return await checkAnswer(init?.method ?? "GET", new URL(input), response, "http");
}
