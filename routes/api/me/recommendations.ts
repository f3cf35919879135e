/**
 * `GET /api/me/recommendations`: listings ranked for the caller; its `apiDocs` below are its description
 * (docs/api.md, Recommendations; the scoring in `lib/recommendations/recommendations.ts`, docs/decisions.md,
 * Recommendations).
 */
import { z } from "zod";
import { define } from "@/lib/platform/define.ts";
import { assertSignedIn } from "@/lib/http/guards.ts";
import { queryOf, validate } from "@/lib/http/json.ts";
import { describeRoute } from "@/lib/openapi/describe.ts";
import { RecommendationSchema } from "@/lib/openapi/resources.ts";
import { recommend, RecommendationQuerySchema } from "@/lib/recommendations/recommendations.ts";

export const apiDocs = describeRoute({
  section: "Recommendations",
  GET: {
    summary: "Recommendations for you",
    description: "Open listings (or active toolkits not bought) ranked by how well they match your onboarding " +
      "answers and profile, best first; never one you saved. `listing` is the internship, opportunity or toolkit as " +
      "the public read answers it; `score` is in [0, 1]; `reasons` say what matched as codes with their values " +
      '(`{code: "interest", label: "Data & AI"}`, `{code: "place", place: "Pune"}`), empty when nothing matched.',
    access: ["session"],
    query: RecommendationQuerySchema,
    responses: {
      200: { description: "Best first", schema: z.strictObject({ items: z.array(RecommendationSchema) }) },
      400: "A missing or unknown `kind`, or a bad `limit`",
    },
  },
});

export const handler = define.handlers({
  async GET(_req, ctx) {
    assertSignedIn(ctx.state);
    const { kind, limit } = validate(RecommendationQuerySchema, queryOf(ctx.url));
    return Response.json({ items: await recommend(ctx.state.services.kv, { user: ctx.state.user, kind, limit }) });
  },
});
