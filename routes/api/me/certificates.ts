/**
 * `GET /api/me/certificates`: the caller's certificates; its `apiDocs` below are its description (docs/api.md, Money
 * operations; docs/decisions.md, Money operations).
 */
import { define } from "@/lib/platform/define.ts";
import { assertSignedIn } from "@/lib/http/guards.ts";
import { certificatesOf } from "@/lib/certificates/certificates.ts";
import { describeRoute } from "@/lib/openapi/describe.ts";
import { z } from "zod";
import { CertificateSchema } from "@/lib/openapi/resources.ts";

export const apiDocs = describeRoute({
  section: "Money operations",
  GET: {
    summary: "The caller's certificates, newest first",
    description: "One per toolkit completed; `revokedAt` is set once its purchase was refunded.",
    access: ["session"],
    responses: {
      200: {
        description: "The certificates, newest first",
        schema: z.strictObject({ certificates: z.array(CertificateSchema) }),
      },
    },
  },
});

export const handler = define.handlers({
  async GET(_req, ctx) {
    assertSignedIn(ctx.state);
    return Response.json({ certificates: await certificatesOf(ctx.state.services.kv, ctx.state.user.id) });
  },
});
