/**
 * `POST /api/organizations/{slug}/claim` (a session with a verified e-mail) `{email}` → 202 `{success: true}`: mails a
 * one-time link (24 hours) to `email`, which must be at the organization's website domain or a subdomain of it, and
 * never at a free-mail domain (400 `{error: "Use an e-mail address at the organization's domain"}`); an organization
 * without a website 400 `{error: "This organization has no website yet"}`; unknown slug 404; an unverified e-mail 403;
 * the 6th claim in a day 429. docs/api.md, Trust; docs/decisions.md, Trust, "Verification by domain".
 */
import { define } from "@/lib/platform/define.ts";
import { assertSignedIn } from "@/lib/http/guards.ts";
import { readBody } from "@/lib/http/json.ts";
import { checkClaim, ClaimSchema, sendClaim } from "@/lib/organizations/claims.ts";
import { RATE_LIMITS } from "@/lib/platform/rate_limits.ts";
import { describeRoute } from "@/lib/openapi/describe.ts";
import { SuccessSchema } from "@/lib/openapi/resources.ts";

export const apiDocs = describeRoute({
  POST: {
    summary: "Verify an organization by an e-mail at its domain",
    description: "Sends a one-time link, valid 24 hours; following it verifies the organization and makes the caller " +
      "a manager of it. At most 5 claims a day.",
    access: ["session"],
    body: ClaimSchema,
    responses: {
      202: { description: "The link is on its way", schema: SuccessSchema },
      400: "An address outside the organization's domain or at a free-mail domain, or no website yet",
      403: "The account's e-mail is not verified",
      404: "Unknown slug",
      429: "More than 5 claims in a day",
    },
  },
});

export const handler = define.handlers({
  async POST(req, ctx) {
    assertSignedIn(ctx.state);
    const { email } = await readBody(req, ClaimSchema);
    const { services } = ctx.state;
    const claim = await checkClaim(services.kv, { slug: ctx.params.slug, user: ctx.state.user, email });
    await services.rateLimits.hit(RATE_LIMITS.organizationClaimsPerPerson, ctx.state.user.id);
    await sendClaim(services, claim);
    return Response.json({ success: true }, { status: 202 });
  },
});
