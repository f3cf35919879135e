/**
 * `GET` and `POST /api/onboarding`: the caller's onboarding answers; its `apiDocs` below are its description
 * (docs/api.md, Profile and onboarding, "Onboarding"; docs/decisions.md, Profile and onboarding).
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
import { OnboardingProfileSchema } from "@/lib/openapi/resources.ts";

/** Writes fall under the per-person limit `profile` (docs/decisions.md, Errors and limits, "Per-person limits"). */
export const routeOptions: RouteOptions = { personLimit: "profile" };

/** `{profile}`: the answers, null until given. */
const OnboardingAnswerSchema = z.strictObject({ profile: OnboardingProfileSchema.nullable() });

export const apiDocs = describeRoute({
  section: "Profile and onboarding",
  GET: {
    summary: "The caller's onboarding answers",
    description: "`profile` is null until onboarding is completed.",
    access: ["session"],
    responses: { 200: { description: "The answers", schema: OnboardingAnswerSchema } },
  },
  POST: {
    summary: "Give or replace the onboarding answers",
    description: "`persona` `student` or `society`; a student also answers the other fields (`fieldOther` with " +
      '`fieldOfStudy` `Other`). A bad answer is 400 `{error: "Invalid <field>"}` naming the first, with every bad ' +
      "answer in `fields`.",
    access: ["session"],
    body: z.union([
      z.object({ persona: z.literal("society") }),
      z.object({ persona: z.literal("student") }).and(studentOnboardingSchema),
    ]),
    responses: { 200: { description: "The answers", schema: OnboardingAnswerSchema } },
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
