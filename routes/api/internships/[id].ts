/**
 * `GET /api/internships/{id}` (public; an inactive one is 404 for every caller but admins, its owner included, who
 * finds it with `mine=true` and on the pages: docs/decisions.md, Internships), `PUT` (owner or admin;
 * `isVerified`/`isActive` admin only) and `DELETE` (owner or admin; soft delete). docs/api.md, Internships;
 * docs/decisions.md, Internships.
 */
import { define } from "@/lib/platform/define.ts";
import { assertSignedIn } from "@/lib/http/guards.ts";
import { readBody } from "@/lib/http/json.ts";
import {
  deleteInternship,
  getInternship,
  InternshipUpdateSchema,
  updateInternship,
} from "@/lib/internships/internships.ts";
import { describeRoute } from "@/lib/openapi/describe.ts";
import { InternshipSchema, SuccessSchema } from "@/lib/openapi/resources.ts";
import { z } from "zod";

export const apiDocs = describeRoute({
  GET: {
    summary: "One internship",
    description: "An inactive one only for admins.",
    responses: {
      200: {
        description: "The internship",
        schema: z.strictObject({ success: z.literal(true), internship: InternshipSchema }),
      },
    },
  },
  PUT: {
    summary: "Change an internship (the fields given)",
    description: "Its owner or an admin; `isVerified` and `isActive` admins only.",
    access: ["session"],
    body: InternshipUpdateSchema,
    responses: {
      200: {
        description: "The internship",
        schema: z.strictObject({ success: z.literal(true), internship: InternshipSchema }),
      },
      403: "Not the owner or an admin",
    },
  },
  DELETE: {
    summary: "Delete an internship (soft delete)",
    description: "Its owner or an admin.",
    access: ["session"],
    responses: { 200: { description: "Deleted", schema: SuccessSchema }, 403: "Not the owner or an admin" },
  },
});

export const handler = define.handlers({
  async GET(_req, ctx) {
    const internship = await getInternship(ctx.state.services.kv, {
      id: ctx.params.id,
      viewer: ctx.state.user,
      audience: "api",
    });
    return Response.json({ success: true, internship });
  },

  async PUT(req, ctx) {
    assertSignedIn(ctx.state);
    const patch = await readBody(req, InternshipUpdateSchema);
    const internship = await updateInternship(ctx.state.services.kv, {
      id: ctx.params.id,
      actor: ctx.state.user,
      patch,
    });
    return Response.json({ success: true, internship });
  },

  async DELETE(_req, ctx) {
    assertSignedIn(ctx.state);
    await deleteInternship(ctx.state.services.kv, ctx.params.id, ctx.state.user);
    return Response.json({ success: true });
  },
});
