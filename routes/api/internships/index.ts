/**
 * `GET /api/internships` (public; closed listings only with `includeClosed=true`; admins may add
 * `includeInactive`/`includeDeleted`; `mine=true` lists the signed-in caller's own listings, inactive ones included,
 * and is 401 without a session: docs/decisions.md, Internships) and `POST /api/internships` (ingest user: member or
 * admin session, or an admin-issued API key; one object or a batch of up to 100). docs/api.md, Internships,
 * docs/decisions.md, Auth, "Ingest user"; docs/decisions.md, Internships.
 */
import { define } from "@/lib/platform/define.ts";
import { ingestUser } from "@/lib/api_keys/api_keys.ts";
import { queryOf, readJson, validate } from "@/lib/http/json.ts";
import {
  createInternships,
  InternshipBatchSchema,
  InternshipCreateSchema,
  InternshipQuerySchema,
  listInternships,
  publicListBody,
} from "@/lib/internships/internships.ts";
import { describeRoute } from "@/lib/openapi/describe.ts";
import { InternshipSchema, PaginationSchema } from "@/lib/openapi/resources.ts";
import { z } from "zod";

export const apiDocs = describeRoute({
  GET: {
    summary: "Search internships",
    description: "Newest first; closed ones only with `includeClosed=true`. " +
      "`mine=true`: the caller's own, inactive and closed ones included (needs a session); " +
      "`includeInactive` and `includeDeleted` count for admins only.",
    access: ["public", "session"],
    query: InternshipQuerySchema,
    responses: {
      200: {
        description: "A page of internships",
        schema: z.strictObject({
          success: z.literal(true),
          internships: z.array(InternshipSchema),
          pagination: PaginationSchema,
        }),
      },
    },
  },
  POST: {
    summary: "Post one internship or a batch of up to 100",
    description: "Members and admins with a session, or an ingest API key. A batch is stored all or nothing.",
    access: ["session", "apiKey"],
    body: z.union([InternshipCreateSchema, InternshipBatchSchema]),
    responses: {
      201: {
        description: "Created: `data` is the internship, or the list for a batch",
        schema: z.strictObject({
          success: z.literal(true),
          count: z.int(),
          data: z.union([InternshipSchema, z.array(InternshipSchema)]),
        }),
      },
      403: "Not a member or an admin",
    },
  },
});

export const handler = define.handlers({
  async GET(_req, ctx) {
    const query = validate(InternshipQuerySchema, queryOf(ctx.url));
    const { kv } = ctx.state.services;
    const viewer = ctx.state.user ?? null;
    if (!query.mine && viewer?.role !== "admin") {
      return new Response(await publicListBody(kv, query), { headers: { "content-type": "application/json" } });
    }
    return Response.json({ success: true, ...await listInternships(kv, { query, viewer }) });
  },

  async POST(req, ctx) {
    const { kv } = ctx.state.services;
    const owner = await ingestUser(kv, req.headers.get("authorization"), ctx.state.user);
    const body = await readJson(req);
    const batch = Array.isArray(body);
    const items = batch ? validate(InternshipBatchSchema, body) : [validate(InternshipCreateSchema, body)];
    const created = await createInternships(kv, owner, items);
    return Response.json({ success: true, count: created.length, data: batch ? created : created[0] }, {
      status: 201,
    });
  },
});
