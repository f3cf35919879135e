/**
 * `GET /api/profile` → `{user}` with the profile fields; `POST /api/profile` updates them and
 * answers the same shape (docs/api.md, Profile and onboarding; docs/decisions.md, Profile and onboarding). Session required.
 */
import { define } from "@/lib/platform/define.ts";
import { assertSignedIn } from "@/lib/http/guards.ts";
import { readJson } from "@/lib/http/json.ts";
import { parseProfileUpdate, profileUpdateSchema, toProfile, updateProfile } from "@/lib/users/profile.ts";
import { describeRoute } from "@/lib/openapi/describe.ts";
import { ProfileSchema } from "@/lib/openapi/resources.ts";
import { z } from "zod";
import type { RouteOptions } from "@/lib/platform/route_options.ts";

/** Writes fall under the per-person limit `profile` (docs/decisions.md, Errors and limits, "Per-person limits"). */
export const routeOptions: RouteOptions = { personLimit: "profile" };

export const apiDocs = describeRoute({
  GET: {
    summary: "The caller's profile",
    access: ["session"],
    responses: { 200: { description: "The profile", schema: z.strictObject({ user: ProfileSchema }) } },
  },
  POST: {
    summary: "Change the caller's profile (the fields given)",
    access: ["session"],
    body: profileUpdateSchema,
    responses: { 200: { description: "The profile", schema: z.strictObject({ user: ProfileSchema }) } },
  },
});

export const handler = define.handlers({
  GET(_req, ctx) {
    assertSignedIn(ctx.state);
    return Response.json({ user: toProfile(ctx.state.user) });
  },
  async POST(req, ctx) {
    assertSignedIn(ctx.state);
    const update = parseProfileUpdate(await readJson(req));
    const user = await updateProfile(ctx.state.services.kv, ctx.state.user.id, update);
    return Response.json({ user });
  },
});
