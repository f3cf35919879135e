/**
 * `GET /api/organizations/{slug}` (public) → `{organization, stats}`: the organization and its track record; unknown
 * slug 404 `{error: "Organization not found"}`. `PATCH` (a manager of it, or an admin) `{website?, about?}` →
 * `{organization}`; the website of a verified organization, or of one an admin un-verified, only an admin changes
 * (403); an about text that asks applicants to pay is 400. docs/api.md, Trust;
 * docs/decisions.md, Trust, "Organizations".
 */
import { define } from "@/lib/platform/define.ts";
import { assertSignedIn } from "@/lib/http/guards.ts";
import { readBody } from "@/lib/http/json.ts";
import {
  ManagerPatchSchema,
  organizationProfile,
  updateAsManager,
  VERIFICATION_REMOVED,
  WEBSITE_LOCKED,
} from "@/lib/organizations/organizations.ts";
import { BUSY, describeRoute } from "@/lib/openapi/describe.ts";
import { OrganizationSchema, OrganizationStatsSchema } from "@/lib/openapi/resources.ts";
import { z } from "zod";
import { REFUSALS } from "@/lib/refusals.ts";

export const apiDocs = describeRoute({
  section: "Trust",
  GET: {
    summary: "An organization and its track record",
    description: "The application figures are 0 (or null) until the organization has applications here.",
    responses: {
      200: {
        description: "The organization",
        schema: z.strictObject({ organization: OrganizationSchema, stats: OrganizationStatsSchema }),
      },
      404: "Organization not found",
    },
  },
  PATCH: {
    summary: "Change an organization's website and about text (its managers)",
    description: "`website` an http(s) URL or null, `about` plain text or null, which may not ask applicants to pay " +
      "(the never-pay rule of listings). Only an admin changes the website of a verified organization, or of one an " +
      "admin took the verification from.",
    access: ["session"],
    body: ManagerPatchSchema,
    responses: {
      200: { description: "The organization", schema: z.strictObject({ organization: OrganizationSchema }) },
      400: `Invalid input; or ${REFUSALS.aboutAsksToPay} (with \`fields\`: \`about\`)`,
      403: `Not a manager or an admin; or: ${WEBSITE_LOCKED}; or: ${VERIFICATION_REMOVED}`,
      404: "Organization not found",
      503: BUSY,
    },
  },
});

export const handler = define.handlers({
  async GET(_req, ctx) {
    const { organization, stats } = await organizationProfile(ctx.state.services.kv, {
      slug: ctx.params.slug,
      limit: 0,
    });
    return Response.json({ organization, stats });
  },

  async PATCH(req, ctx) {
    assertSignedIn(ctx.state);
    const patch = await readBody(req, ManagerPatchSchema);
    const organization = await updateAsManager(ctx.state.services.kv, {
      slug: ctx.params.slug,
      user: ctx.state.user,
      patch,
    });
    return Response.json({ organization });
  },
});
