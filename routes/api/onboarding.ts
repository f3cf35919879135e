/**
 * `GET /api/onboarding` → `{profile}` (null until onboarding is completed); `POST` creates or
 * replaces it → `{profile}` (docs/api.md, Profile and onboarding; docs/decisions.md, Profile and onboarding). Session required.
 */
import { define } from "@/lib/platform/define.ts";
import { assertSignedIn } from "@/lib/http/guards.ts";
import { readJson } from "@/lib/http/json.ts";
import { z } from "zod";
import {
  getOnboardingProfile,
  parseOnboarding,
  saveOnboardingProfile,
  studentOnboardingSchema,
} from "@/lib/onboarding/onboarding.ts";
import { describeRoute } from "@/lib/openapi/describe.ts";
import type { RouteOptions } from "@/lib/platform/route_options.ts";

/** Writes fall under the per-person limit `profile` (docs/decisions.md, Errors and limits, "Per-person limits"). */
export const routeOptions: RouteOptions = { personLimit: "profile" };

export const apiDocs = describeRoute({
  GET: {
    summary: "The caller's onboarding answers (null until given)",
    access: ["session"],
    responses: { 200: "`{profile}`" },
  },
  POST: {
    summary: "Give or replace the onboarding answers",
    access: ["session"],
    body: z.union([
      z.object({ persona: z.literal("society") }),
      z.object({ persona: z.literal("student") }).and(studentOnboardingSchema),
    ]),
    responses: { 200: "`{profile}`" },
  },
});

export const handler = define.handlers({
  async GET(_req, ctx) {
    assertSignedIn(ctx.state);
    return Response.json({ profile: await getOnboardingProfile(ctx.state.services.kv, ctx.state.user.id) });
  },
  async POST(req, ctx) {
    assertSignedIn(ctx.state);
    const input = parseOnboarding(await readJson(req));
    return Response.json({ profile: await saveOnboardingProfile(ctx.state.services.kv, ctx.state.user.id, input) });
  },
});
