/** `GET /api/me/certificates` (session) → `{certificates}`, newest first (docs/api.md, Money operations). */
import { define } from "@/lib/platform/define.ts";
import { assertSignedIn } from "@/lib/http/guards.ts";
import { certificatesOf } from "@/lib/certificates/certificates.ts";
import { describeRoute } from "@/lib/openapi/describe.ts";

export const apiDocs = describeRoute({
  GET: {
    summary: "The caller's certificates",
    access: ["session"],
    responses: { 200: "`{certificates}`: `{id, serial, userName, toolkitTitle, toolkitId, issuedAt, revokedAt}`" },
  },
});

export const handler = define.handlers({
  async GET(_req, ctx) {
    assertSignedIn(ctx.state);
    return Response.json({ certificates: await certificatesOf(ctx.state.services.kv, ctx.state.user.id) });
  },
});
