/**
 * The API description (docs/decisions.md, Search engines and sharing, "API description"): `/api/openapi.json` is a
 * valid OpenAPI 3.1 document (checked by swagger-parser) generated from the route files; every route file under
 * `routes/api` is in it with exactly the methods its handler answers; every documented path and method is served
 * (the router's 405 names them); every response has its schema and the generator refuses a success without one; the
 * documented response schemas parse live answers; the answer check of the test harness (`openapi_answers.ts`) catches
 * an answer that drifts from the document, in process and over real HTTP; `/api/docs` shows it all.
 */
import SwaggerParser from "@apidevtools/swagger-parser";
import { z } from "zod";
import { scriptsOf } from "@/tests/fixtures/html.ts";
import { assert, assertEquals, assertRejects, assertThrows } from "@/tests/helpers/assert.ts";
import { createTestApp, createTestUser } from "@/tests/helpers/app.ts";
import { postInternship } from "@/tests/fixtures/internships.ts";
import { submitOpportunity } from "@/tests/fixtures/opportunities.ts";
import { addToolkit } from "@/tests/fixtures/toolkits.ts";
import { createPost } from "@/tests/fixtures/posts.ts";
import { describeRoute, type ResponseDoc } from "@/lib/openapi/describe.ts";
import { answerProblems, checkedFetch } from "@/tests/helpers/openapi_answers.ts";
import {
  apiRouteFiles,
  type DocumentedModule,
  handledMethods,
  type OpenApiDocument,
  openApiDocument,
  openApiPath,
} from "@/lib/openapi/document.ts";
import manifest from "@/routes.gen.ts";

const routes = manifest.routes as Record<string, DocumentedModule>;
const SuccessSchemaForTest = z.strictObject({ things: z.array(z.string()) });

Deno.test("/api/openapi.json is a valid OpenAPI 3.1 document with the two security schemes", async () => {
  await using t = await createTestApp();
  const res = await t.fetch("/api/openapi.json");
  assertEquals([res.status, res.headers.get("content-type")], [200, "application/json; charset=utf-8"]);
  const document: OpenApiDocument = await res.json();
  assertEquals(document.openapi, "3.1.0");
  await SwaggerParser.validate(structuredClone(document) as never);
  assertEquals(Object.keys(document.components.securitySchemes).sort(), ["ingestApiKey", "sessionCookie"]);
  const { description, ...cookie } = document.components.securitySchemes.sessionCookie;
  assertEquals(cookie, { type: "apiKey", in: "cookie", name: "session" });
  assert(description.includes("`Origin`") && description.includes('`{"error":"Invalid origin"}`'), description);
  // The same rule where the reference lists the errors, for callers outside a browser.
  const reference = await Deno.readTextFile(new URL("../../../docs/", import.meta.url).pathname + "api.md");
  const errors = reference.slice(reference.indexOf("## Errors and limits"), reference.indexOf("## Authentication"));
  assert(
    errors.includes("`Origin: <APP_URL>`") && errors.includes('403 `{"error":"Invalid origin"}`'),
    "the reference's errors",
  );
  const post = document.paths["/api/internships"].post;
  assertEquals(post.security, [{ sessionCookie: [] }, { ingestApiKey: [] }]);
  const schema = post.requestBody?.content["application/json"].schema as { anyOf: { properties?: object }[] };
  assert("hiringOrganization" in schema.anyOf[0].properties!, "the body schema is generated from the route's zod");
  const list = document.paths["/api/internships"].get;
  assert(list.parameters?.some((p) => p.name === "minStipend" && p.in === "query"));
  assert(document.paths["/api/internships/{id}"].get.parameters?.some((p) => p.name === "id" && p.in === "path"));
});

Deno.test("every route file under routes/api is documented with exactly the methods it answers", async () => {
  await using t = await createTestApp();
  const document: OpenApiDocument = await (await t.fetch("/api/openapi.json")).json();
  const files = apiRouteFiles(routes);
  assert(files.length >= 50, `${files.length} route files`);
  for (const file of files) {
    const operations = document.paths[openApiPath(file)];
    assert(operations, `${file} is missing from the OpenAPI document (add an apiDocs export)`);
    assertEquals(
      Object.keys(operations).map((m) => m.toUpperCase()).sort(),
      [...handledMethods(routes[file])].sort(),
      `${file}: documented methods`,
    );
  }
  assertEquals(Object.keys(document.paths).length, files.length);
});

Deno.test("every documented path and method is served: the router's 405 for OPTIONS lists the same methods", async () => {
  await using t = await createTestApp();
  const admin = await createTestUser(t, "admin");
  const document: OpenApiDocument = await (await t.fetch("/api/openapi.json")).json();
  for (const [path, operations] of Object.entries(document.paths)) {
    const url = path.replace(/\{(\w+)\}/g, (_, name) => name === "provider" ? "google" : crypto.randomUUID());
    const res = await t.fetch(url, { method: "OPTIONS", headers: admin.headers });
    await res.body?.cancel();
    assertEquals(res.status, 405, `${path} is served`);
    const allowed = res.headers.get("allow")!.split(", ").filter((m) => m !== "HEAD").sort();
    assertEquals(allowed, Object.keys(operations).map((m) => m.toUpperCase()).sort(), path);
  }
  const unknown = await t.fetch("/api/no-such-thing", { method: "OPTIONS" });
  assertEquals(unknown.status, 404);
  await unknown.body?.cancel();
});

Deno.test("every response has a schema: JSON errors the shared ones, 400 with `fields` and the issues' `code`", async () => {
  await using t = await createTestApp();
  const document: OpenApiDocument = await (await t.fetch("/api/openapi.json")).json();
  for (const [path, operations] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(operations)) {
      assert(operation.responses.default, `${method} ${path} has a default (unexpected error) response`);
      for (const [status, response] of Object.entries(operation.responses)) {
        const bodiless = status === "304" || status.startsWith("3");
        const content = Object.values(response.content ?? {});
        assert(bodiless || content.length > 0, `${method} ${path} ${status} has a body`);
        if (response.content?.["application/json"]) {
          assert(response.content["application/json"].schema, `${method} ${path} ${status} has a schema`);
        }
      }
    }
  }
  const invalid = document.components.schemas.InvalidInput as { properties: Record<string, unknown> };
  assertEquals(Object.keys(invalid.properties).sort(), ["error", "fields"]);
  const issue = document.components.schemas.Issue as { properties: { code: { enum: string[] } } };
  assert(issue.properties.code.enum.includes("too_big"), "the issues' code is an enum of zod's codes");
  const post = document.paths["/api/internships"].post.responses;
  assertEquals(post["400"].content?.["application/json"].schema, { $ref: "#/components/schemas/InvalidInput" });
  assertEquals(post["429"], undefined, "no rate limit on this route: no 429");
  assert(document.paths["/api/auth/sign-in/email"].post.responses["429"].headers?.["Retry-After"]);
});

Deno.test("the generator refuses an operation that answers a success without a response schema", () => {
  const handler = { GET: () => new Response() };
  const routes = {
    "./routes/api/things.ts": {
      handler,
      apiDocs: describeRoute({ section: "Health", GET: { summary: "Things", responses: { 200: "`{things}`" } } }),
    },
  };
  assertThrows(() => openApiDocument(routes, { origin: "http://x", secure: false }), /without a response schema/);
  const documented = {
    "./routes/api/things.ts": {
      handler,
      apiDocs: describeRoute({
        section: "Health",
        GET: { summary: "Things", responses: { 200: { description: "Things", schema: SuccessSchemaForTest } } },
      }),
    },
  };
  assertEquals(Object.keys(openApiDocument(documented, { origin: "http://x", secure: false }).paths), ["/api/things"]);
});

Deno.test("the harness's answer check catches a status, type or body the document does not promise", async () => {
  const url = (path: string) => new URL(path, "http://localhost:8000");
  const json = (body: unknown, status = 200) => Response.json(body, { status });
  assertEquals(await answerProblems("GET", url("/api/health"), json({ status: "ok" })), []);
  assert((await answerProblems("GET", url("/api/health"), json({ status: "down" })))!.length > 0, "a wrong value");
  assert(
    (await answerProblems("GET", url("/api/health"), json({ status: "ok", extra: 1 })))!.length > 0,
    "a new field",
  );
  assert(
    (await answerProblems("GET", url("/api/health"), json({ error: "x" }, 404)))!.length > 0,
    "an undocumented 404",
  );
  const text = new Response("ok", { headers: { "content-type": "text/plain" } });
  assert((await answerProblems("GET", url("/api/health"), text))!.length > 0, "an undocumented type");
  const issues = { error: [{ code: "too_big", path: ["title"], message: "Too big" }], fields: [] };
  assertEquals(await answerProblems("POST", url("/api/internships"), json(issues, 400)), []);
  const noCode = { error: [{ path: ["title"], message: "Too big" }] };
  assert((await answerProblems("POST", url("/api/internships"), json(noCode, 400)))!.length > 0, "an issue's code");
  assertEquals(await answerProblems("GET", url("/elsewhere"), json({})), undefined, "only /api is checked");
});

Deno.test("answers over real HTTP are checked too: a listen server's mismatch fails its close, checkedFetch throws", async () => {
  // The health route answering what the document does not promise, served over a socket.
  const drifted = {
    handler: { GET: () => Response.json({ status: "down" }) },
    apiDocs: routes["./routes/api/health.ts"].apiDocs,
  };
  const t = await createTestApp({ listen: true, routes: { "./routes/api/health.ts": drifted } });
  const res = await fetch(`${t.origin}/api/health`);
  assertEquals(await res.json(), { status: "down" }, "the client gets the answer as sent");
  await assertRejects(
    () => t.close(),
    Error,
    "1 answers over HTTP do not match /api/openapi.json:\nGET /api/health (http)",
  );
  await assertRejects(
    async () => await withApp(drifted, (origin) => checkedFetch(`${origin}/api/health`)),
    Error,
    "The answer does not match /api/openapi.json: GET /api/health (http)",
  );
  // The real route matches: nothing thrown, over either path.
  await using real = await createTestApp({ listen: true });
  assertEquals(await (await checkedFetch(`${real.origin}/api/health`)).json(), { status: "ok" });
  assertEquals((await fetch(`${real.origin}/api/banners`)).status, 200);
});

/** Runs `use` against a `listen` app serving `health` as its health route, closing it whatever the outcome. */
async function withApp<T>(health: DocumentedModule, use: (origin: string) => Promise<T>): Promise<T> {
  const t = await createTestApp({ listen: true, routes: { "./routes/api/health.ts": health } });
  try {
    return await use(t.origin);
  } finally {
    await t.close().catch(() => {});
  }
}

/** The documented 200 schema of `method` on the route file `file`. */
function documented(file: string, method: "GET" | "POST"): z.ZodType {
  const response = routes[file].apiDocs![method]!.responses[200] as ResponseDoc;
  assert(response.schema, `${file} ${method} documents a 200 schema`);
  return response.schema;
}

Deno.test("the documented response schemas parse what the API answers", async () => {
  await using t = await createTestApp();
  const admin = await createTestUser(t, "admin");
  const member = await createTestUser(t, "member");
  const internship = await postInternship(t, member, { tags: ["go"], stipend: 5000 });
  const opportunity = await submitOpportunity(t, member, "Hack");
  await addToolkit({ t, admin }, { title: "T", description: "D", price: 99 });
  const post = await createPost(t, admin);
  const cases: [string, string, typeof admin | undefined][] = [
    ["./routes/api/health.ts", "/api/health", undefined],
    ["./routes/api/internships/index.ts", "/api/internships", undefined],
    ["./routes/api/internships/[id].ts", `/api/internships/${internship.id}`, undefined],
    ["./routes/api/opportunities/index.ts", "/api/opportunities", undefined],
    ["./routes/api/opportunities/[id].ts", `/api/opportunities/${opportunity.id}`, undefined],
    ["./routes/api/toolkits/index.ts", "/api/toolkits", undefined],
    ["./routes/api/ungatekeep/index.ts", "/api/ungatekeep", admin],
    ["./routes/api/ungatekeep/[id].ts", `/api/ungatekeep/${post.id}`, admin],
    ["./routes/api/profile.ts", "/api/profile", member],
    ["./routes/api/auth/session.ts", "/api/auth/session", member],
    ["./routes/api/auth/session.ts", "/api/auth/session", undefined],
    ["./routes/api/admin/toolkits/index.ts", "/api/admin/toolkits", admin],
    ["./routes/api/admin/ungatekeep/index.ts", "/api/admin/ungatekeep", admin],
    ["./routes/api/admin/opportunities/index.ts", "/api/admin/opportunities?status=all", admin],
  ];
  for (const [file, path, who] of cases) {
    const res = await t.fetch(path, { headers: who?.headers });
    assertEquals(res.status, 200, path);
    const result = documented(file, "GET").safeParse(await res.json());
    assert(result.success, `${path}: ${result.error?.message}`);
  }
});

Deno.test("/api/docs renders every operation of the document on the server, without scripts, linking shared schemas", async () => {
  await using t = await createTestApp();
  const res = await t.fetch("/api/docs");
  assertEquals([res.status, res.headers.get("content-type")], [200, "text/html; charset=utf-8"]);
  const html = await res.text();
  const document: OpenApiDocument = await (await t.fetch("/api/openapi.json")).json();
  for (const [path, operations] of Object.entries(document.paths)) {
    for (const op of Object.values(operations)) {
      assert(html.includes(`id="${op.operationId}"`), `${path} ${op.summary}`);
    }
  }
  assertEquals(scriptsOf(html), [], "the reference page ships no script but the service worker's registration");
  const linked = [...html.matchAll(/href="#schema-([^"]+)"/g)].map(([, name]) => name);
  assert(linked.includes("Error"), "error answers link to the shared Error schema");
  for (const name of new Set(linked)) assert(html.includes(`id="schema-${name}"`), `a link to schema ${name}`);
});
