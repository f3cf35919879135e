/**
 * `PATCH /api/admin/organizations/{id}` (admins) `{name?, website?, about?, isVerified?}` → `{organization}`: a new name
 * keeps the slug and the old name (listings posted under it still match); another organization's name 409; verifying
 * sets `verifiedAt` and lifts `verificationRemovedAt`; un-verifying a verified one clears `verifiedAt` and
 * `verifiedDomain` and sets `verificationRemovedAt`; unknown id 404. docs/api.md, Trust; docs/decisions.md, Trust,
 * "Organizations".
 */
import { define } from "@/lib/platform/define.ts";
import { adminAudit } from "@/lib/http/admin_audit.ts";
import { readBody } from "@/lib/http/json.ts";
import { AdminPatchSchema, updateAsAdmin } from "@/lib/organizations/organizations.ts";
import { BUSY, describeRoute } from "@/lib/openapi/describe.ts";
import { OrganizationSchema } from "@/lib/openapi/resources.ts";
import { z } from "zod";

export const apiDocs = describeRoute({
  section: "Trust",
  PATCH: {
    summary: "Change an organization: name, website, about text, verified",
    description: "A new name keeps the slug and the old name (listings posted under it still match); verifying sets " +
      "`verifiedAt` and lifts `verificationRemovedAt`; un-verifying a verified one clears `verifiedAt` and " +
      "`verifiedDomain` and sets `verificationRemovedAt`: until an admin verifies it again, no claim verifies it and " +
      "only an admin changes its website.",
    access: ["admin"],
    body: AdminPatchSchema,
    responses: {
      200: { description: "The organization", schema: z.strictObject({ organization: OrganizationSchema }) },
      404: "Unknown organization",
      409: "Another organization has this name",
      503: BUSY,
    },
  },
});

export const handler = define.handlers({
  async PATCH(req, ctx) {
    const patch = await readBody(req, AdminPatchSchema);
    const audit = adminAudit(ctx.state, { action: "organization.update", targetKind: "organization" });
    const organization = await updateAsAdmin(ctx.state.services.kv, { id: ctx.params.id, patch, audit });
    return Response.json({ organization });
  },
});
