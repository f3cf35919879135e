/**
 * `GET /api/openapi.json`: the OpenAPI 3.1 document of every `/api` route, generated from the route files
 * (`lib/openapi/document.ts`) once per process; its `apiDocs` below are its description (docs/api.md, API
 * description).
 */
import { define } from "@/lib/platform/define.ts";
import { describeRoute } from "@/lib/openapi/describe.ts";
import { z } from "zod";
import { openApiDocument } from "@/lib/openapi/document.ts";
import manifest from "@/routes.gen.ts";

export const apiDocs = describeRoute({
  section: "API description",
  GET: {
    summary: "This API's OpenAPI 3.1 document",
    description: "Generated from the route files' `apiDocs`; cached for 5 minutes (not an answer that also renews " +
      "the session cookie: that one is `private, no-store`).",
    responses: {
      200: {
        description: "The OpenAPI document",
        schema: z.looseObject({ openapi: z.literal("3.1.0"), paths: z.record(z.string(), z.unknown()) }),
      },
    },
  },
});

/** The document's JSON by public origin (routes do not change while the process runs). */
const bodies = new Map<string, string>();

export const handler = define.handlers({
  GET(_req, ctx) {
    const { appUrl, secure } = ctx.state.services.config;
    let body = bodies.get(appUrl);
    if (!body) bodies.set(appUrl, body = JSON.stringify(openApiDocument(manifest.routes, { origin: appUrl, secure })));
    return new Response(body, {
      headers: { "content-type": "application/json; charset=utf-8", "cache-control": "public, max-age=300" },
    });
  },
});
