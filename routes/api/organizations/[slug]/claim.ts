/**
 * `POST /api/organizations/{slug}/claim`: verify an organization by an e-mail at its domain; its `apiDocs` below are
 * its description (docs/api.md, Trust; docs/decisions.md, Trust, "Verification by domain").
 */
import { define } from "@/lib/platform/define.ts";
import { assertSignedIn } from "@/lib/http/guards.ts";
import { readBody } from "@/lib/http/json.ts";
import {
  checkClaim,
  CLAIM_TTL_MS,
  ClaimSchema,
  HAS_MANAGER,
  NO_WEBSITE,
  sendClaim,
  VERIFICATION_REMOVED,
  WRONG_DOMAIN,
} from "@/lib/organizations/claims.ts";
import { RATE_LIMITS } from "@/lib/platform/rate_limits.ts";
import { describeRoute, duration, perWindow } from "@/lib/openapi/describe.ts";
import { SuccessSchema } from "@/lib/openapi/resources.ts";

export const apiDocs = describeRoute({
  section: "Trust",
  POST: {
    summary: "Verify an organization by an e-mail at its domain",
    description: `Mails a one-time link, valid ${duration(CLAIM_TTL_MS)}, to \`email\`, which must be at the ` +
      "organization's website host exactly (without `www.`; not a subdomain of it), and never at a free-mail domain. " +
      "Only an organization nobody else manages can be claimed (a suspended manager does not count). Its page (`/organizations/claim/{token}`) changes " +
      "nothing when opened; the caller, signed in, pressing its Verify button verifies the organization and becomes " +
      "a manager of it. A used or expired link says so and changes nothing, and so does a link whose address is no " +
      "longer at the organization's website or whose organization got another manager meanwhile.",
    access: ["session"],
    body: ClaimSchema,
    responses: {
      202: { description: "The link is on its way", schema: SuccessSchema },
      400: `${WRONG_DOMAIN}; ${NO_WEBSITE}`,
      403: `The account's e-mail is not verified; or: ${VERIFICATION_REMOVED}`,
      404: "Unknown slug",
      409: HAS_MANAGER,
      429: `More than ${perWindow(RATE_LIMITS.organizationClaimsPerPerson)} per person`,
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
