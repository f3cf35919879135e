/**
 * `GET` and `POST /api/internships`: the internship list and ingest; its `apiDocs` below are its description
 * (docs/api.md, Internships; docs/decisions.md, Auth, "Ingest user"; docs/decisions.md, Internships).
 */
import { define } from "@/lib/platform/define.ts";
import type { RouteOptions } from "@/lib/platform/route_options.ts";
import { ingestUser } from "@/lib/api_keys/api_keys.ts";
import { queryOf, readJson, validate } from "@/lib/http/json.ts";
import {
  InternshipBatchSchema,
  InternshipCreateSchema,
  InternshipQuerySchema,
  internshipsVersion,
  listInternships,
  MAX_BATCH,
  publicListBody,
} from "@/lib/internships/internships.ts";
import { createInternships, importInternships } from "@/lib/internships/writes.ts";
import { BUSY, describeRoute } from "@/lib/openapi/describe.ts";
import { InternshipSchema, PaginationSchema } from "@/lib/openapi/resources.ts";
import { z } from "zod";
import { isAdmin } from "@/lib/users/roles.ts";

export const apiDocs = describeRoute({
  section: "Internships",
  GET: {
    summary: "Search internships",
    description: "Active listings, in the order `sort` names: `newest` (the default), `deadline` (the soonest " +
      "first, listings without one last) or `stipend` (the highest first, unstated ones last); equal keys newest " +
      "first. Closed ones (their deadline's day in India is past) only with `includeClosed=true`, after the open " +
      'ones, newest first (docs/decisions.md, Internships, "Sorting"). `types` and `tags` are comma-separated (tags in any case), `location` matches part of ' +
      "the location, `minStipend` and `maxStipend` are monthly rupees (inclusive), `search` (or `q`) matches every " +
      "word in the title, description and organization; `verifiedOnly=true` keeps listings whose internship or " +
      "organization is verified, `paidOnly=true` those with a stipend of at least ₹1. `mine=true` lists the " +
      "caller's own listings, inactive and " +
      "closed ones included, and needs a session (401). `includeInactive` and `includeDeleted` count for admins only.",
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
      401: "`mine=true` without a session",
    },
  },
  POST: {
    summary: `Post one internship, or a batch of up to ${MAX_BATCH}`,
    description: "For the ingest user: a member's or admin's session, or an admin-issued API key " +
      "(`Authorization: Bearer <key>`, which wins over a session). A listing starts with `isVerified` false and " +
      "`isActive` true; `isVerified`, `isActive`, `userId`, `id` and times in the body are ignored. A listing " +
      "posted with a key has `viaApiKey` true, and students read it as imported, not by its admin owner. A batch is " +
      "stored all or nothing; an issue's `path` starts with the item's index.",
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
      401: "No session and no valid API key; also a key revoked, or its owner deleted, demoted or suspended, " +
        "while the body was arriving",
      403: "A `user`: only members and admins post internships (or a write from another origin)",
      503: BUSY,
    },
  },
});

/** Its writes take an ingest API key, checked again once the body has arrived (`bodyLimits`). */
export const routeOptions: RouteOptions = { apiKey: true };

export const handler = define.handlers({
  async GET(req, ctx) {
    const query = validate(InternshipQuerySchema, queryOf(ctx.url));
    const { kv, guestPages } = ctx.state.services;
    const viewer = ctx.state.user ?? null;
    if (!query.mine && !isAdmin(viewer)) {
      // The same answer for every reader of public listings: kept under its validated query (so parameters the
      // query does not know share its entry), or its path when the URL has no query, and compressed once per
      // encoding when asked again.
      return await guestPages.serve(
        ctx.url.search ? `${ctx.url.pathname}?${JSON.stringify(query)}` : ctx.url.pathname,
        "api",
        await internshipsVersion(kv),
        async () => new Response(await publicListBody(kv, query), { headers: { "content-type": "application/json" } }),
        req.headers.get("accept-encoding"),
      );
    }
    return Response.json({ success: true, ...await listInternships(kv, { query, viewer }) });
  },

  async POST(req, ctx) {
    const { kv } = ctx.state.services;
    const authorization = req.headers.get("authorization");
    const owner = await ingestUser(kv, authorization, ctx.state.user);
    const body = await readJson(req);
    const batch = Array.isArray(body);
    const items = batch ? validate(InternshipBatchSchema, body) : [validate(InternshipCreateSchema, body)];
    // With a header, the key's owner posts: a feed's listings, read as imported (docs/decisions.md, Auth, "Ingest user").
    const created = await (authorization === null ? createInternships : importInternships)(kv, owner, items);
    return Response.json({ success: true, count: created.length, data: batch ? created : created[0] }, {
      status: 201,
    });
  },
});
