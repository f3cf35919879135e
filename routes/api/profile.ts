/**
 * `GET` and `POST /api/profile`: the caller's profile; its `apiDocs` below are its description (docs/api.md, Profile
 * and onboarding, "Profile fields"; docs/decisions.md, Profile and onboarding).
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

const Answer = z.strictObject({ user: ProfileSchema });

export const apiDocs = describeRoute({
  section: "Profile and onboarding",
  GET: {
    summary: "The caller's profile",
    description: "Unset lists answer `[]`, unset values `null`.",
    access: ["session"],
    responses: { 200: { description: "The profile", schema: Answer } },
  },
  POST: {
    summary: "Change the caller's profile",
    description:
      "`name` every time; each other field given is set (`null` or blank clears it), each absent one kept. " +
      'A bad field is 400 `{error: "Invalid <field>"}` naming the first in the order of the body\'s fields, with ' +
      "every bad field in `fields`.",
    access: ["session"],
    body: profileUpdateSchema,
    responses: { 200: { description: "The profile", schema: Answer } },
  },
});

export const handler = define.handlers({
  GET(_req, ctx) {
    assertSignedIn(ctx.state);
    return Response.json({ user: toProfile(ctx.state.user) });
  },
  async POST(req, ctx) {
    assertSignedIn(ctx.state);
    const update = parseProfileUpdate(await readJson(req), ctx.state.services.config.appUrl);
    const user = await updateProfile(ctx.state.services.kv, ctx.state.user.id, update);
    return Response.json({ user });
  },
});
